"""Bm25Index: Okapi BM25 scores, ranking, tie-breaking and validation."""

from __future__ import annotations

import math
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.retrieval.bm25 import ENGLISH_STOPWORDS, Bm25Index, tokenize
from combinators.components.retrieval.documents import Document

CORPUS = [
    Document("The lighthouse lamp is lit at dusk by the keeper.", {"n": 0}),
    Document("Fog horns sound when the fog rolls in from the bay.", {"n": 1}),
    Document("The harbour market sells smoked fish on Saturdays.", {"n": 2}),
    Document("The keeper logs every ship that passes the lighthouse.", {"n": 3}),
    Document("Storm tides flood the lower harbour road twice a year.", {"n": 4}),
]

words = st.sampled_from(["fog", "lamp", "keeper", "tide", "fish", "bay", "road", "the"])
texts = st.lists(words, max_size=8).map(" ".join)
corpora = st.lists(texts.map(Document), max_size=8)


# --- tokenizer -----------------------------------------------------------------------


def test_tokenize_lowercases_word_tokens() -> None:
    assert tokenize("The Keeper's LAMP, lit at 6pm!") == ("the", "keeper", "s", "lamp", "lit", "at", "6pm")


def test_tokenize_keeps_unicode_letters() -> None:
    assert tokenize("Café Über naïve") == ("café", "über", "naïve")


def test_tokenize_drops_stopwords() -> None:
    assert tokenize("The keeper of the lamp", stopwords=frozenset({"the", "of"})) == ("keeper", "lamp")


def test_english_stopwords_are_lowercase_words() -> None:
    assert "the" in ENGLISH_STOPWORDS
    assert "lighthouse" not in ENGLISH_STOPWORDS
    assert all(word == word.lower() and word.isalpha() for word in ENGLISH_STOPWORDS)


def test_tokenize_rejects_non_str() -> None:
    with pytest.raises(TypeError, match="tokenize expects a str, got int: 3"):
        tokenize(3)  # type: ignore[arg-type]


# --- scores --------------------------------------------------------------------------


def okapi(tf: int, df: int, n_docs: int, doc_len: int, avg_len: float, k1: float = 1.5, b: float = 0.75) -> float:
    """The textbook term score, written out independently of the implementation."""
    idf = math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
    return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * doc_len / avg_len))


def test_score_matches_the_okapi_formula_by_hand() -> None:
    docs = [Document("fog fog bay"), Document("lamp"), Document("fog lamp keeper tide")]
    index = Bm25Index.from_documents(docs)
    avg_len = (3 + 1 + 4) / 3
    results = index.search("fog", k=3)
    assert [doc for doc, _ in results] == [docs[0], docs[2]]
    assert math.isclose(results[0][1], okapi(tf=2, df=2, n_docs=3, doc_len=3, avg_len=avg_len), rel_tol=1e-12)
    assert math.isclose(results[1][1], okapi(tf=1, df=2, n_docs=3, doc_len=4, avg_len=avg_len), rel_tol=1e-12)


def test_multi_term_query_sums_term_scores() -> None:
    docs = [Document("fog fog bay"), Document("lamp"), Document("fog lamp keeper tide")]
    index = Bm25Index.from_documents(docs)
    avg_len = 8 / 3
    (top, score), *_ = index.search("fog lamp", k=1)
    assert top == docs[2]
    expected = okapi(1, 2, 3, 4, avg_len) + okapi(1, 2, 3, 4, avg_len)
    assert math.isclose(score, expected, rel_tol=1e-12)


def test_parameters_k1_and_b_are_used() -> None:
    docs = [Document("fog fog bay"), Document("lamp"), Document("fog lamp keeper tide")]
    index = Bm25Index.from_documents(docs, k1=1.2, b=0.5)
    score = index.search("fog", k=1)[0][1]
    assert math.isclose(score, okapi(2, 2, 3, 3, 8 / 3, k1=1.2, b=0.5), rel_tol=1e-12)


# --- ranking -------------------------------------------------------------------------


def test_ranking_on_a_small_corpus() -> None:
    index = Bm25Index.from_documents(CORPUS, stopwords=ENGLISH_STOPWORDS)
    assert [doc.metadata["n"] for doc, _ in index.search("lighthouse keeper", k=2)] == [0, 3]
    assert [doc.metadata["n"] for doc, _ in index.search("fog", k=5)] == [1]
    assert [doc.metadata["n"] for doc, _ in index.search("harbour", k=5)] == [2, 4]


def test_documents_without_a_query_term_are_not_returned() -> None:
    index = Bm25Index.from_documents(CORPUS)
    assert index.search("volcano", k=3) == []
    assert index.search("", k=3) == []


def test_stopword_only_query_matches_nothing_when_stopwords_are_on() -> None:
    index = Bm25Index.from_documents(CORPUS, stopwords=ENGLISH_STOPWORDS)
    assert index.search("the of a", k=3) == []


def test_ties_keep_insertion_order() -> None:
    docs = [Document("fog", {"i": i}) for i in range(5)]
    results = Bm25Index.from_documents(docs).search("fog", k=5)
    assert [doc.metadata["i"] for doc, _ in results] == [0, 1, 2, 3, 4]
    assert len({score for _, score in results}) == 1


def test_k_limits_the_result_count() -> None:
    docs = [Document("fog", {"i": i}) for i in range(5)]
    index = Bm25Index.from_documents(docs)
    assert len(index.search("fog", k=2)) == 2
    assert index.search("fog", k=0) == []


def test_empty_corpus_returns_nothing() -> None:
    assert Bm25Index.from_documents([]).search("fog", k=4) == []


def test_documents_of_only_stopwords_do_not_break_scoring() -> None:
    index = Bm25Index.from_documents([Document("the"), Document("")], stopwords=ENGLISH_STOPWORDS)
    assert index.search("the", k=2) == []


@given(corpora, texts, st.integers(min_value=0, max_value=10))
def test_search_properties(docs: list[Document], query: str, k: int) -> None:
    index = Bm25Index.from_documents(docs)
    results = index.search(query, k)
    assert len(results) <= k
    assert all(isinstance(doc, Document) and isinstance(score, float) for doc, score in results)
    scores = [score for _, score in results]
    assert scores == sorted(scores, reverse=True)
    assert all(score > 0 for score in scores)
    query_terms = set(tokenize(query))
    assert all(query_terms & set(tokenize(doc.page_content)) for doc, _ in results)
    # Deterministic: building again gives the same answer.
    assert Bm25Index.from_documents(docs).search(query, k) == results


@given(corpora, texts)
def test_larger_k_extends_the_ranking(docs: list[Document], query: str) -> None:
    index = Bm25Index.from_documents(docs)
    assert index.search(query, 10)[:3] == index.search(query, 3)


@given(corpora, texts)
def test_equal_scores_are_in_insertion_order(docs: list[Document], query: str) -> None:
    index = Bm25Index.from_documents(docs)
    positions = {id(doc): i for i, doc in enumerate(index.documents)}
    results = index.search(query, 10)
    for (doc_a, score_a), (doc_b, score_b) in zip(results, results[1:]):
        if score_a == score_b:
            assert positions[id(doc_a)] < positions[id(doc_b)]


# --- the value -----------------------------------------------------------------------


def test_index_is_a_value() -> None:
    a = Bm25Index.from_documents(CORPUS[:2])
    b = Bm25Index.from_documents(iter(CORPUS[:2]))
    assert a == b
    assert a != Bm25Index.from_documents(CORPUS[:2], k1=1.2)
    assert a.documents == tuple(CORPUS[:2])
    assert pickle.loads(pickle.dumps(a)) == a
    assert pickle.loads(pickle.dumps(a)).search("fog", 1) == a.search("fog", 1)


def test_repr_reads_like_the_constructor() -> None:
    index = Bm25Index.from_documents([Document("fog")])
    assert repr(index) == (
        "Bm25Index(documents=(Document(metadata={}, page_content='fog'),), k1=1.5, b=0.75, stopwords=frozenset())"
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"k1": -0.1}, ValueError, r"Bm25Index k1 must be a number >= 0, got -0.1"),
        ({"b": 1.5}, ValueError, r"Bm25Index b must be a number between 0 and 1, got 1.5"),
        ({"k1": "x"}, TypeError, r"Bm25Index k1 must be a number >= 0, got str: 'x'"),
        ({"stopwords": {"The"}}, ValueError, r"Bm25Index stopwords must be lowercase, got 'The'"),
    ],
)
def test_bad_parameters_are_named(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        Bm25Index.from_documents(CORPUS, **kwargs)  # type: ignore[arg-type]


def test_non_documents_are_rejected() -> None:
    with pytest.raises(TypeError, match="Bm25Index expects Documents, got str at index 0"):
        Bm25Index.from_documents(["fog"])  # type: ignore[list-item]


@pytest.mark.parametrize(("k", "error"), [(-1, ValueError), (1.5, TypeError), (True, TypeError)])
def test_bad_k_is_named(k: object, error: type[Exception]) -> None:
    with pytest.raises(error, match=r"Bm25Index.search k must be an int >= 0"):
        Bm25Index.from_documents(CORPUS).search("fog", k)  # type: ignore[arg-type]


def test_non_str_query_is_named() -> None:
    with pytest.raises(TypeError, match="Bm25Index.search query must be a str, got int: 3"):
        Bm25Index.from_documents(CORPUS).search(3, 1)  # type: ignore[arg-type]
