"""An in-memory vector store as a frozen value: adding or deleting returns a new store.

Why a value and not a mutable object like LangChain's `InMemoryVectorStore`: a
retriever built from a store keeps answering from exactly the documents it was built
with, stores can be compared and pickled (shipped to workers), and two chains never see
each other's writes. The price is that you hold on to the store that `add_documents`
returns. Vectors live in plain tuples and scoring is pure Python, which suits the
thousands of documents an in-memory store is for.

Search ranks by cosine similarity (a score in [-1, 1]), best first; equal scores keep
the order in which documents were first added. A filter is either a mapping (every key
must be present in the metadata with an equal value of the same type, so ``1`` matches
neither ``True`` nor ``1.0``) or a predicate over the `Document`. Filters apply before
`k`. ``store.as_retriever(k=4, filter=...)`` makes a `VectorStoreRetriever` runnable.

>>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
>>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents(
...     [Document("fog over the bay", {"kind": "weather"}), Document("fish market")]
... )
>>> [doc.id for doc in store.similarity_search("foggy bay", k=1)]
['0']
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeAlias, cast, final

import attrs

from combinators.components.retrieval.documents import BaseRetriever, Document, checked_documents
from combinators.components.retrieval.embeddings import Embeddings, check_query
from effects.authoring import is_mapping

__all__ = ["DocumentFilter", "InMemoryVectorStore", "StoredVector", "VectorStoreRetriever", "cosine_similarity"]

DocumentFilter: TypeAlias = Mapping[str, object] | Callable[[Document], bool]
"""Metadata equalities (all must hold) or a predicate over the document."""


def _describe(value: object) -> str:
    return f"{type(value).__name__}: {value!r}"


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return math.fsum(map(operator.mul, a, b))


def cosine_similarity(a: Sequence[float], b: Sequence[float]) -> float:
    """The cosine of the angle between two vectors; 0.0 if either is all zeros.

    >>> cosine_similarity([1.0, 0.0], [1.0, 1.0]) == 1 / 2 ** 0.5
    True
    """
    if len(a) != len(b):
        raise ValueError(f"cosine_similarity needs vectors of the same length, got {len(a)} and {len(b)}")
    norms = math.sqrt(_dot(a, a)) * math.sqrt(_dot(b, b))
    return _dot(a, b) / norms if norms else 0.0


@final
@attrs.frozen
class StoredVector:
    """One stored document (its id set) and its vector.

    >>> StoredVector(Document("fog", id="0"), (0.6, 0.8)).norm
    1.0
    """

    document: Document
    vector: tuple[float, ...] = attrs.field(repr=lambda vector: f"<{len(vector)} floats>")
    norm: float = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # Computed once here so each search costs one dot product per document.
        object.__setattr__(self, "norm", math.sqrt(_dot(self.vector, self.vector)))


def _same_value(expected: object, actual: object) -> bool:
    # Strict: Python's 1 == True == 1.0 would make {"flag": True} match a count of 1.
    return type(expected) is type(actual) and expected == actual


def _filter_predicate(where: DocumentFilter | None) -> Callable[[Document], bool]:
    return _predicate_of(where)


def _predicate_of(where: object) -> Callable[[Document], bool]:
    # Takes `object` so the runtime checks below type-check as real checks.
    if where is None:
        return lambda _document: True
    if is_mapping(where):
        wanted: list[tuple[str, object]] = []
        for key, value in where.items():
            if not isinstance(key, str):
                raise TypeError(f"filter keys must be metadata keys (str), got {_describe(key)}")
            wanted.append((key, value))
        return lambda document: all(
            key in document.metadata and _same_value(value, document.metadata[key]) for key, value in wanted
        )
    if callable(where):
        return cast("Callable[[Document], bool]", where)
    raise TypeError(
        f"filter must be a mapping of metadata key to value or a predicate over a Document, got {_describe(where)}"
    )


def _check_k(k: object, where: str = "similarity_search") -> None:
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"{where} k must be an int >= 0, got {_describe(k)}")
    if k < 0:
        raise ValueError(f"{where} k must be an int >= 0, got {k!r}")


def _to_vector(vector: Sequence[float], where: str) -> tuple[float, ...]:
    values = tuple(float(x) for x in vector)
    if not all(math.isfinite(x) for x in values):
        raise ValueError(f"{where} must hold finite numbers, got {list(vector)!r}")
    return values


@final
@attrs.frozen(repr=False)
class InMemoryVectorStore:
    """Documents with their vectors, searched by cosine similarity; a frozen value.

    >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
    >>> empty = InMemoryVectorStore(HashedNgramEmbeddings())
    >>> store = empty.add_documents([Document("fog", id="f")])
    >>> len(empty), len(store), store.documents
    (0, 1, (Document(id='f', metadata={}, page_content='fog'),))
    """

    embeddings: Embeddings
    entries: tuple[StoredVector, ...] = ()
    next_generated_id: int = 0
    """The counter behind generated ids; it only grows, so a deleted id is never reused."""

    def __repr__(self) -> str:
        ids = ", ".join(repr(entry.document.id) for entry in self.entries)
        plural = "" if len(self.entries) == 1 else "s"
        return f"InMemoryVectorStore(embeddings={self.embeddings!r}, <{len(self.entries)} document{plural}: {ids}>)"

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def documents(self) -> tuple[Document, ...]:
        """The stored documents (ids set), in store order.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> InMemoryVectorStore(HashedNgramEmbeddings()).documents
        ()
        """
        return tuple(entry.document for entry in self.entries)

    @classmethod
    def from_documents(cls, documents: Iterable[Document], embeddings: Embeddings) -> InMemoryVectorStore:
        """A new store holding the documents.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> len(InMemoryVectorStore.from_documents([Document("a")], HashedNgramEmbeddings()))
        1
        """
        return cls(embeddings).add_documents(documents)

    @classmethod
    def from_texts(
        cls,
        texts: Iterable[str],
        embeddings: Embeddings,
        metadatas: Sequence[Mapping[str, object]] | None = None,
        *,
        ids: Sequence[str] | None = None,
    ) -> InMemoryVectorStore:
        """A new store holding one document per text (the peer's ``from_texts``).

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore.from_texts(["fog", "sun"], HashedNgramEmbeddings(), [{"n": 1}, {"n": 2}])
        >>> store.similarity_search("fog", k=1)[0].metadata
        {'n': 1}
        """
        return cls(embeddings).add_texts(texts, metadatas, ids=ids)

    def add_texts(
        self,
        texts: Iterable[str],
        metadatas: Sequence[Mapping[str, object]] | None = None,
        *,
        ids: Sequence[str] | None = None,
    ) -> InMemoryVectorStore:
        """A new store with one document per text added (``metadatas`` in the same order).

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> len(InMemoryVectorStore(HashedNgramEmbeddings()).add_texts(["a", "b"], ids=["1", "2"]))
        2
        """
        given = list(texts)
        if metadatas is not None and len(metadatas) != len(given):
            raise ValueError(f"add_texts got {len(given)} texts but {len(metadatas)} metadatas")
        documents = [Document(text, metadatas[i] if metadatas is not None else {}) for i, text in enumerate(given)]
        return self.add_documents(documents, ids=ids)

    def add_vectors(
        self,
        documents: Iterable[Document],
        vectors: Sequence[Sequence[float]],
        *,
        ids: Sequence[str] | None = None,
    ) -> InMemoryVectorStore:
        """A new store with these already-embedded documents added (no embedding call).

        Each id is taken from `ids`, else from the document, else generated ("0", "1",
        ... skipping ids in use). An id already stored is replaced in place.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_vectors([Document("a")], [[1.0, 0.0]])
        >>> store.entries
        (StoredVector(document=Document(id='0', metadata={}, page_content='a'), vector=<2 floats>),)
        """
        docs = checked_documents(documents, "add_documents")
        if ids is not None and len(ids) != len(docs):
            raise ValueError(f"add_documents got {len(ids)} ids for {len(docs)} documents")
        if len(vectors) != len(docs):
            raise ValueError(f"add_vectors got {len(vectors)} vectors for {len(docs)} documents")
        by_id = {entry.document.id: entry for entry in self.entries}
        counter = self.next_generated_id
        dimension = len(self.entries[0].vector) if self.entries else None
        for position, (document, raw_vector) in enumerate(zip(docs, vectors)):
            chosen = ids[position] if ids is not None else document.id
            if chosen is None:
                while str(counter) in by_id:
                    counter += 1
                chosen, counter = str(counter), counter + 1
            vector = _to_vector(raw_vector, f"vector for document {chosen!r}")
            dimension = len(vector) if dimension is None else dimension
            if len(vector) != dimension:
                raise ValueError(
                    f"vector for document {chosen!r} has {len(vector)} dimensions "
                    f"but the stored vectors have {dimension}"
                )
            # dict assignment keeps the first position of an id, so an upsert stays in place.
            by_id[chosen] = StoredVector(attrs.evolve(document, id=chosen), vector)
        return attrs.evolve(self, entries=tuple(by_id.values()), next_generated_id=counter)

    def _embedded(self, docs: tuple[Document, ...], vectors: list[list[float]]) -> list[list[float]]:
        if len(vectors) != len(docs):
            name = type(self.embeddings).__name__
            raise ValueError(f"{name}.embed_documents returned {len(vectors)} vectors for {len(docs)} texts")
        return vectors

    def add_documents(self, documents: Iterable[Document], *, ids: Sequence[str] | None = None) -> InMemoryVectorStore:
        """A new store with the documents embedded and added (see `add_vectors` for ids).

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents([Document("a")], ids=["x"])
        >>> store.documents[0].id
        'x'
        """
        docs = checked_documents(documents, "add_documents")
        vectors = self.embeddings.embed_documents([doc.page_content for doc in docs])
        return self.add_vectors(docs, self._embedded(docs, vectors), ids=ids)

    async def aadd_documents(
        self, documents: Iterable[Document], *, ids: Sequence[str] | None = None
    ) -> InMemoryVectorStore:
        """Async `add_documents` (awaits the embeddings' `aembed_documents`).

        >>> import asyncio
        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> len(asyncio.run(InMemoryVectorStore(HashedNgramEmbeddings()).aadd_documents([Document("a")])))
        1
        """
        docs = checked_documents(documents, "add_documents")
        vectors = await self.embeddings.aembed_documents([doc.page_content for doc in docs])
        return self.add_vectors(docs, self._embedded(docs, vectors), ids=ids)

    def delete(self, ids: Iterable[str]) -> InMemoryVectorStore:
        """A new store without the documents with these ids (unknown ids are ignored).

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents([Document("a"), Document("b")])
        >>> [doc.id for doc in store.delete(["0"]).documents]
        ['1']
        """
        gone = frozenset(ids)
        return attrs.evolve(self, entries=tuple(e for e in self.entries if e.document.id not in gone))

    def get_by_ids(self, ids: Iterable[str]) -> list[Document]:
        """The stored documents with these ids, in the order asked; unknown ids are skipped.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents([Document("a")])
        >>> store.get_by_ids(["0", "9"])
        [Document(id='0', metadata={}, page_content='a')]
        """
        by_id = {entry.document.id: entry.document for entry in self.entries}
        return [by_id[i] for i in ids if i in by_id]

    def similarity_search_by_vector_with_score(
        self, vector: Sequence[float], k: int = 4, filter: DocumentFilter | None = None
    ) -> list[tuple[Document, float]]:
        """The k stored documents most similar to the vector, with their cosine scores.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_vectors([Document("a")], [[0.0, 2.0]])
        >>> store.similarity_search_by_vector_with_score([0.0, 1.0])
        [(Document(id='0', metadata={}, page_content='a'), 1.0)]
        """
        _check_k(k)
        keep = _filter_predicate(filter)
        query = _to_vector(vector, "query vector")
        if self.entries and len(query) != len(self.entries[0].vector):
            raise ValueError(
                f"query vector has {len(query)} dimensions but the stored vectors have {len(self.entries[0].vector)}"
            )
        query_norm = math.sqrt(_dot(query, query))
        scored: list[tuple[float, int]] = []
        for position, entry in enumerate(self.entries):
            if keep(entry.document):
                norms = query_norm * entry.norm
                scored.append((_dot(query, entry.vector) / norms if norms else 0.0, position))
        # Best first; equal scores in store order.
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [(self.entries[position].document, score) for score, position in scored[:k]]

    def similarity_search_with_score(
        self, query: str, k: int = 4, filter: DocumentFilter | None = None
    ) -> list[tuple[Document, float]]:
        """The k stored documents most similar to the query text, with cosine scores.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents([Document("fog")])
        >>> [(doc.page_content, round(score, 6)) for doc, score in store.similarity_search_with_score("fog")]
        [('fog', 1.0)]
        """
        _check_k(k)
        return self.similarity_search_by_vector_with_score(self.embeddings.embed_query(check_query(query)), k, filter)

    def similarity_search(self, query: str, k: int = 4, filter: DocumentFilter | None = None) -> list[Document]:
        """The k stored documents most similar to the query text.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents([Document("fog")])
        >>> store.similarity_search("fog", k=1, filter={"kind": "news"})
        []
        """
        return [document for document, _ in self.similarity_search_with_score(query, k, filter)]

    async def asimilarity_search_with_score(
        self, query: str, k: int = 4, filter: DocumentFilter | None = None
    ) -> list[tuple[Document, float]]:
        """Async `similarity_search_with_score` (awaits the embeddings' `aembed_query`).

        >>> import asyncio
        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> asyncio.run(InMemoryVectorStore(HashedNgramEmbeddings()).asimilarity_search_with_score("x"))
        []
        """
        _check_k(k)
        vector = await self.embeddings.aembed_query(check_query(query))
        return self.similarity_search_by_vector_with_score(vector, k, filter)

    async def asimilarity_search(self, query: str, k: int = 4, filter: DocumentFilter | None = None) -> list[Document]:
        """Async `similarity_search`.

        >>> import asyncio
        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> asyncio.run(InMemoryVectorStore(HashedNgramEmbeddings()).asimilarity_search("x"))
        []
        """
        return [document for document, _ in await self.asimilarity_search_with_score(query, k, filter)]

    def as_retriever(self, k: int = 4, filter: DocumentFilter | None = None) -> VectorStoreRetriever:
        """This store (as it is now) as a retriever of the `k` most similar documents.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents([Document("fog")])
        >>> store.as_retriever(k=1).invoke("fog")
        [Document(id='0', metadata={}, page_content='fog')]
        """
        return VectorStoreRetriever(self, k, filter)


def _check_retriever_k(_instance: object, _attribute: object, value: int) -> None:
    _check_k(value, "VectorStoreRetriever")


def _check_filter(_instance: object, _attribute: object, value: DocumentFilter | None) -> None:
    _filter_predicate(value)  # raises for a value that is neither form


@final
@attrs.frozen
class VectorStoreRetriever(BaseRetriever):
    """Similarity search in a vector store, as a runnable (run type ``retriever``).

    It holds the store value it was built from, so later `add_documents` calls (which
    return new stores) do not change what it finds.

    >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
    >>> store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents([Document("fog", {"n": 1})])
    >>> VectorStoreRetriever(store, k=2, filter={"n": 2}).invoke("fog")
    []
    """

    store: InMemoryVectorStore
    k: int = attrs.field(default=4, validator=_check_retriever_k)
    filter: DocumentFilter | None = attrs.field(default=None, validator=_check_filter)

    def run_tags(self) -> tuple[str, ...]:
        """The tags of this retriever's runs, as the peer's: the store's and the embeddings'
        class names (so events can be filtered by them).

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> InMemoryVectorStore(HashedNgramEmbeddings()).as_retriever().run_tags()
        ('InMemoryVectorStore', 'HashedNgramEmbeddings')
        """
        return (type(self.store).__name__, type(self.store.embeddings).__name__)

    def run_metadata(self, params: Mapping[str, object]) -> Mapping[str, object]:
        """The metadata of this retriever's runs, as the peer's: its name, the store's and
        the embeddings' class names.

        >>> from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
        >>> InMemoryVectorStore(HashedNgramEmbeddings()).as_retriever().run_metadata({})["ls_embedding_provider"]
        'HashedNgramEmbeddings'
        """
        return {
            **super().run_metadata(params),
            "ls_vector_store_provider": type(self.store).__name__,
            "ls_embedding_provider": type(self.store.embeddings).__name__,
        }

    def _get_relevant_documents(self, query: str) -> list[Document]:
        return self.store.similarity_search(query, self.k, self.filter)

    async def _aget_relevant_documents(self, query: str) -> list[Document]:
        return await self.store.asimilarity_search(query, self.k, self.filter)
