"""Okapi BM25 ranking over documents held in memory, as a frozen value.

Why our own and not a library: `rank-bm25` (last release 2022) and `bm25s` both pull in
NumPy (bm25s also SciPy) for what is ~40 lines of arithmetic at the corpus sizes an
in-memory retriever sees, and rank-bm25's `BM25Okapi` floors negative IDFs with an
`epsilon * mean_idf` fudge that makes scores depend on the rest of the corpus in
surprising ways. Here the IDF is Lucene's always-positive
``ln(1 + (N - df + 0.5) / (df + 0.5))`` and the term score is the classic Okapi one,
``idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avg_len))`` with k1=1.5, b=0.75.
(The ranking equals bm25s' "lucene" method, whose scores are ours divided by k1 + 1.)

Documents that share no term with the query score 0 and are never returned (LangChain's
BM25Retriever pads its top-k with them). Equal scores keep insertion order.
`Bm25Retriever` is the index as a runnable (``index.as_retriever(k=4)``).

>>> from combinators.components.retrieval.documents import Document
>>> index = Bm25Index.from_documents([Document("fog over the bay"), Document("lamp oil")])
>>> [(doc.page_content, round(score, 3)) for doc, score in index.search("fog", k=2)]
[('fog over the bay', 0.603)]
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TypedDict, Unpack, final

import attrs

from combinators.components.retrieval.documents import BaseRetriever, Document, checked_documents
from effects.authoring import is_a

__all__ = ["ENGLISH_STOPWORDS", "Bm25Index", "Bm25Retriever", "tokenize"]

_WORD = re.compile(r"\w+")

ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)
"""A small list of common English function words, for `stopwords=`.

>>> "the" in ENGLISH_STOPWORDS, "fog" in ENGLISH_STOPWORDS
(True, False)
"""


def _describe(value: object) -> str:
    return f"{type(value).__name__}: {value!r}"


def tokenize(text: str, stopwords: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """Lowercase word tokens (Unicode letters, digits, underscore), minus stopwords.

    >>> tokenize("The keeper's LAMP!", stopwords=frozenset({"the"}))
    ('keeper', 's', 'lamp')
    """
    if not is_a(text, str):
        raise TypeError(f"tokenize expects a str, got {_describe(text)}")
    return tuple(word for word in _WORD.findall(text.lower()) if word not in stopwords)


def _to_documents(documents: Iterable[Document]) -> tuple[Document, ...]:
    return checked_documents(documents, "Bm25Index")


def _to_stopwords(words: Iterable[str]) -> frozenset[str]:
    checked = frozenset(words)
    for word in sorted(checked):
        if not is_a(word, str):
            raise TypeError(f"Bm25Index stopwords must be str, got {_describe(word)}")
        if word != word.lower():
            # Tokens are lowercased, so such a stopword could never match.
            raise ValueError(f"Bm25Index stopwords must be lowercase, got {word!r}")
    return checked


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_k1(_instance: object, _attribute: object, value: float) -> None:
    if not _is_number(value):
        raise TypeError(f"Bm25Index k1 must be a number >= 0, got {_describe(value)}")
    if not value >= 0 or math.isinf(value):
        raise ValueError(f"Bm25Index k1 must be a number >= 0, got {value!r}")


def _check_b(_instance: object, _attribute: object, value: float) -> None:
    if not _is_number(value):
        raise TypeError(f"Bm25Index b must be a number between 0 and 1, got {_describe(value)}")
    if not 0 <= value <= 1:
        raise ValueError(f"Bm25Index b must be a number between 0 and 1, got {value!r}")


def _check_k(where: str, k: object) -> None:
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"{where} k must be an int >= 0, got {_describe(k)}")
    if k < 0:
        raise ValueError(f"{where} k must be an int >= 0, got {k!r}")


def _stopwords_repr(words: frozenset[str]) -> str:
    # Sorted, so the repr is the same in every process (str hashing is salted).
    return f"frozenset({sorted(words)!r})" if words else "frozenset()"


class Bm25Params(TypedDict, total=False):
    """The BM25 parameters of ``Bm25Index.from_documents`` (whose defaults they have), for
    the constructors that pass them on.

    >>> sorted(Bm25Params.__annotations__)
    ['b', 'k1', 'stopwords']
    """

    k1: float
    b: float
    stopwords: Iterable[str]


@final
@attrs.frozen
class Bm25Index:
    """Documents indexed for Okapi BM25 search; build it with `from_documents`.

    >>> from combinators.components.retrieval.documents import Document
    >>> index = Bm25Index.from_documents([Document("a b"), Document("b c")], k1=1.2)
    >>> [doc.page_content for doc, _ in index.search("c", k=5)]
    ['b c']
    """

    documents: tuple[Document, ...] = attrs.field(converter=_to_documents)
    k1: float = attrs.field(default=1.5, validator=_check_k1)
    b: float = attrs.field(default=0.75, validator=_check_b)
    stopwords: frozenset[str] = attrs.field(default=frozenset[str](), converter=_to_stopwords, repr=_stopwords_repr)
    # Derived from the fields above, so left out of equality and repr.
    _postings: Mapping[str, tuple[tuple[int, int], ...]] = attrs.field(init=False, eq=False, repr=False)
    _lengths: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    _average_length: float = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        postings: dict[str, list[tuple[int, int]]] = {}
        lengths: list[int] = []
        for position, document in enumerate(self.documents):
            tokens = tokenize(document.page_content, self.stopwords)
            lengths.append(len(tokens))
            for term, count in Counter(tokens).items():
                postings.setdefault(term, []).append((position, count))
        total = sum(lengths)
        # attrs' documented way to fill derived fields of a frozen class.
        object.__setattr__(self, "_postings", {term: tuple(hits) for term, hits in postings.items()})
        object.__setattr__(self, "_lengths", tuple(lengths))
        object.__setattr__(self, "_average_length", total / len(lengths) if total else 0.0)

    @classmethod
    def from_documents(
        cls,
        documents: Iterable[Document],
        *,
        k1: float = 1.5,
        b: float = 0.75,
        stopwords: Iterable[str] = frozenset(),
    ) -> Bm25Index:
        """Index the documents (any iterable) with the given BM25 parameters.

        >>> from combinators.components.retrieval.documents import Document
        >>> len(Bm25Index.from_documents(iter([Document("x")])).documents)
        1
        """
        return cls(documents=tuple(documents), k1=k1, b=b, stopwords=frozenset(stopwords))

    def scores(self, query: str) -> list[float]:
        """The BM25 score of every document for the query, in document order.

        >>> from combinators.components.retrieval.documents import Document
        >>> index = Bm25Index.from_documents([Document("fog"), Document("lamp")])
        >>> [round(s, 3) for s in index.scores("lamp")]
        [0.0, 0.693]
        """
        if not is_a(query, str):
            raise TypeError(f"Bm25Index.search query must be a str, got {_describe(query)}")
        totals = [0.0] * len(self.documents)
        count = len(self.documents)
        for term in tokenize(query, self.stopwords):
            hits = self._postings.get(term, ())
            if not hits:
                continue
            idf = math.log(1 + (count - len(hits) + 0.5) / (len(hits) + 0.5))
            for position, frequency in hits:
                relative_length = self._lengths[position] / self._average_length
                norm = self.k1 * (1 - self.b + self.b * relative_length)
                totals[position] += idf * frequency * (self.k1 + 1) / (frequency + norm)
        return totals

    def search(self, query: str, k: int = 4) -> list[tuple[Document, float]]:
        """The k best documents that share a term with the query, best first.

        >>> from combinators.components.retrieval.documents import Document
        >>> index = Bm25Index.from_documents([Document("fog"), Document("fog fog")])
        >>> [doc.page_content for doc, _ in index.search("fog", k=1)]
        ['fog fog']
        """
        _check_k("Bm25Index.search", k)
        scored = [(score, position) for position, score in enumerate(self.scores(query)) if score > 0]
        # Best score first; equal scores in insertion order.
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [(self.documents[position], score) for score, position in scored[:k]]

    def as_retriever(self, k: int = 4) -> Bm25Retriever:
        """This index as a retriever returning the `k` best documents.

        >>> from combinators.components.retrieval.documents import Document
        >>> Bm25Index.from_documents([Document("fog")]).as_retriever(k=1).invoke("fog")
        [Document(metadata={}, page_content='fog')]
        """
        return Bm25Retriever(self, k)


def _check_retriever_k(_instance: object, _attribute: object, value: int) -> None:
    _check_k("Bm25Retriever", value)


@final
@attrs.frozen
class Bm25Retriever(BaseRetriever):
    """BM25 search over in-memory documents, as a runnable (run type ``retriever``).

    >>> from combinators.components.retrieval.documents import Document
    >>> retriever = Bm25Retriever.from_documents([Document("fog horn"), Document("lamp")], k=2)
    >>> [doc.page_content for doc in retriever.invoke("lamp")]
    ['lamp']
    """

    index: Bm25Index
    k: int = attrs.field(default=4, validator=_check_retriever_k)

    @classmethod
    def from_documents(
        cls, documents: Iterable[Document], *, k: int = 4, **params: Unpack[Bm25Params]
    ) -> Bm25Retriever:
        """Index the documents (``params`` as ``Bm25Index.from_documents`` takes them) and
        retrieve the `k` best for each query.

        >>> from combinators.components.retrieval.documents import Document
        >>> Bm25Retriever.from_documents([Document("a")], k=1, b=0.5).index.b
        0.5
        """
        return cls(Bm25Index.from_documents(documents, **params), k)

    def _get_relevant_documents(self, query: str) -> list[Document]:
        return [document for document, _ in self.index.search(query, self.k)]
