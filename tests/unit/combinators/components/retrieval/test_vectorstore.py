"""InMemoryVectorStore: a frozen value; cosine ranking, filters, ids, deletes."""

from __future__ import annotations

import math
import pickle
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.retrieval.documents import Document
from combinators.components.retrieval.embeddings import Embeddings, HashedNgramEmbeddings
from combinators.components.retrieval.vectorstore import InMemoryVectorStore, cosine_similarity

# --- a fake embedding with vectors chosen by hand -------------------------------------

AXES = {"north": [1.0, 0.0], "east": [0.0, 1.0], "northeast": [1.0, 1.0], "south": [-1.0, 0.0], "none": [0.0, 0.0]}


@attrs.frozen
class CompassEmbeddings(Embeddings):
    """Each text is a compass word; its vector is written down above."""

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [list(AXES[text]) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return list(AXES[text])


def compass_store(*words: str, **metadata: object) -> InMemoryVectorStore:
    docs = [Document(word, {"word": word, **metadata}) for word in words]
    return InMemoryVectorStore(CompassEmbeddings()).add_documents(docs)


# --- cosine --------------------------------------------------------------------------


def test_cosine_similarity_by_hand() -> None:
    assert cosine_similarity([1.0, 0.0], [1.0, 0.0]) == 1.0
    assert cosine_similarity([1.0, 0.0], [0.0, 1.0]) == 0.0
    assert cosine_similarity([1.0, 0.0], [-2.0, 0.0]) == -1.0
    assert math.isclose(cosine_similarity([1.0, 0.0], [1.0, 1.0]), 1 / math.sqrt(2))
    assert cosine_similarity([0.0, 0.0], [1.0, 0.0]) == 0.0


def test_cosine_similarity_rejects_different_lengths() -> None:
    with pytest.raises(ValueError, match="cosine_similarity needs vectors of the same length, got 2 and 3"):
        cosine_similarity([1.0, 0.0], [1.0, 0.0, 0.0])


# --- search --------------------------------------------------------------------------


def test_scores_are_cosine_similarities_best_first() -> None:
    store = compass_store("south", "east", "northeast", "north")
    results = store.similarity_search_with_score("north", k=4)
    assert [(doc.page_content, round(score, 6)) for doc, score in results] == [
        ("north", 1.0),
        ("northeast", round(1 / math.sqrt(2), 6)),
        ("east", 0.0),
        ("south", -1.0),
    ]
    assert all(isinstance(score, float) for _, score in results)


def test_k_limits_results_and_ties_keep_insertion_order() -> None:
    store = compass_store("east", "north", "east", "east")
    results = store.similarity_search_with_score("east", k=2)
    assert [doc.id for doc, _ in results] == ["0", "2"]
    assert store.similarity_search("east", k=0) == []


def test_similarity_search_returns_documents_with_their_ids() -> None:
    store = compass_store("north", "east")
    assert store.similarity_search("east", k=1) == [Document("east", {"word": "east"}, id="1")]


def test_search_by_vector() -> None:
    store = compass_store("north", "east")
    [(doc, score)] = store.similarity_search_by_vector_with_score([0.0, 3.0], k=1)
    assert (doc.page_content, score) == ("east", 1.0)


def test_zero_query_vector_scores_zero_everywhere() -> None:
    results = compass_store("north", "east").similarity_search_with_score("none", k=2)
    assert [(doc.page_content, score) for doc, score in results] == [("north", 0.0), ("east", 0.0)]


def test_empty_store_finds_nothing() -> None:
    assert InMemoryVectorStore(CompassEmbeddings()).similarity_search("north") == []


def test_query_of_another_dimension_is_named() -> None:
    with pytest.raises(ValueError, match="query vector has 3 dimensions but the stored vectors have 2"):
        compass_store("north").similarity_search_by_vector_with_score([1.0, 0.0, 0.0])


async def test_async_search_and_add_match_sync() -> None:
    docs = [Document(word) for word in ("north", "east", "northeast")]
    empty = InMemoryVectorStore(CompassEmbeddings())
    store = await empty.aadd_documents(docs)
    assert store == empty.add_documents(docs)
    assert await store.asimilarity_search_with_score("east", k=2) == store.similarity_search_with_score("east", k=2)
    assert await store.asimilarity_search("east", k=1) == store.similarity_search("east", k=1)


# --- filters -------------------------------------------------------------------------


def test_metadata_filter_keeps_documents_whose_keys_all_equal() -> None:
    docs = [
        Document("north", {"town": "Gullhaven", "year": 1901}),
        Document("northeast", {"town": "Gullhaven", "year": 1950}),
        Document("north", {"town": "Saltmere", "year": 1901}),
        Document("east", {"year": 1901}),
    ]
    store = InMemoryVectorStore(CompassEmbeddings()).add_documents(docs)
    found = store.similarity_search("north", k=4, filter={"town": "Gullhaven"})
    assert [doc.id for doc in found] == ["0", "1"]
    found = store.similarity_search("north", k=4, filter={"town": "Gullhaven", "year": 1901})
    assert [doc.id for doc in found] == ["0"]
    assert store.similarity_search("north", k=4, filter={"town": "Nowhere"}) == []
    assert len(store.similarity_search("north", k=4, filter={})) == 4


def test_filter_applies_before_k() -> None:
    docs = [Document("north", {"keep": False})] * 3 + [Document("south", {"keep": True})]
    store = InMemoryVectorStore(CompassEmbeddings()).add_documents(docs)
    assert [doc.page_content for doc in store.similarity_search("north", k=1, filter={"keep": True})] == ["south"]


def test_filter_equality_is_type_strict() -> None:
    store = compass_store("north", flag=1)
    assert store.similarity_search("north", filter={"flag": True}) == []
    assert store.similarity_search("north", filter={"flag": 1.0}) == []
    assert len(store.similarity_search("north", filter={"flag": 1})) == 1


def test_predicate_filter() -> None:
    store = compass_store("north", "east", "south")
    found = store.similarity_search("north", k=3, filter=lambda doc: doc.page_content != "north")
    assert [doc.page_content for doc in found] == ["east", "south"]


def test_bad_filter_is_named() -> None:
    with pytest.raises(TypeError, match="filter must be a mapping of metadata key to value or a predicate"):
        compass_store("north").similarity_search("north", filter=["town"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"filter keys must be metadata keys \(str\), got int: 1"):
        compass_store("north").similarity_search("north", filter={1: "a"})  # type: ignore[dict-item]


# --- ids, upserts, deletes, immutability ----------------------------------------------


def test_add_documents_returns_a_new_store_and_leaves_the_old_one() -> None:
    empty = InMemoryVectorStore(CompassEmbeddings())
    one = empty.add_documents([Document("north")])
    assert len(empty) == 0
    assert len(one) == 1
    assert empty.similarity_search("north") == []


def test_ids_come_from_the_argument_then_the_document_then_a_counter() -> None:
    store = InMemoryVectorStore(CompassEmbeddings()).add_documents(
        [Document("north", id="n"), Document("east"), Document("south", id="s")], ids=["a", "b", "c"]
    )
    assert [doc.id for doc in store.documents] == ["a", "b", "c"]
    store = store.add_documents([Document("north", id="n"), Document("east")])
    assert [doc.id for doc in store.documents] == ["a", "b", "c", "n", "0"]


def test_generated_ids_skip_ids_in_use_and_are_never_reused() -> None:
    store = InMemoryVectorStore(CompassEmbeddings()).add_documents([Document("north", id="1"), Document("east")])
    store = store.add_documents([Document("south"), Document("north")])
    assert [doc.id for doc in store.documents] == ["1", "0", "2", "3"]
    store = store.delete(["3"]).add_documents([Document("east")])
    assert [doc.id for doc in store.documents] == ["1", "0", "2", "4"]


def test_adding_an_existing_id_replaces_it_in_place() -> None:
    store = compass_store("north", "east", "south")
    store = store.add_documents([Document("northeast", {"v": 2})], ids=["1"])
    assert [(doc.id, doc.page_content) for doc in store.documents] == [
        ("0", "north"),
        ("1", "northeast"),
        ("2", "south"),
    ]
    assert store.similarity_search("northeast", k=1) == [Document("northeast", {"v": 2}, id="1")]


def test_delete_removes_by_id_and_ignores_unknown_ids() -> None:
    store = compass_store("north", "east", "south")
    smaller = store.delete(["0", "missing"])
    assert [doc.id for doc in smaller.documents] == ["1", "2"]
    assert [doc.page_content for doc in smaller.similarity_search("north", k=3)] == ["east", "south"]
    assert len(store) == 3


def test_get_by_ids_in_the_order_asked() -> None:
    store = compass_store("north", "east", "south")
    assert [doc.page_content for doc in store.get_by_ids(["2", "nope", "0"])] == ["south", "north"]


def test_from_documents() -> None:
    docs = [Document("north"), Document("east")]
    assert InMemoryVectorStore.from_documents(docs, CompassEmbeddings()) == InMemoryVectorStore(
        CompassEmbeddings()
    ).add_documents(docs)


def test_store_is_a_picklable_value() -> None:
    store = InMemoryVectorStore(HashedNgramEmbeddings(dimension=16)).add_documents([Document("fog")])
    assert pickle.loads(pickle.dumps(store)) == store
    assert pickle.loads(pickle.dumps(store)).similarity_search("fog") == store.similarity_search("fog")
    assert repr(store) == (
        "InMemoryVectorStore(embeddings=HashedNgramEmbeddings(dimension=16, ngram_sizes=(3, 4)), <1 document: '0'>)"
    )


# --- bad input -----------------------------------------------------------------------


def test_ids_of_the_wrong_length_are_named() -> None:
    with pytest.raises(ValueError, match="add_documents got 1 ids for 2 documents"):
        InMemoryVectorStore(CompassEmbeddings()).add_documents([Document("north"), Document("east")], ids=["a"])


def test_non_documents_are_named() -> None:
    with pytest.raises(TypeError, match="add_documents expects Documents, got str at index 0"):
        InMemoryVectorStore(CompassEmbeddings()).add_documents(["north"])  # type: ignore[list-item]


class WrongCountEmbeddings(CompassEmbeddings):
    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0]]


def test_embeddings_returning_the_wrong_count_are_named() -> None:
    with pytest.raises(ValueError, match="WrongCountEmbeddings.embed_documents returned 1 vectors for 2 texts"):
        InMemoryVectorStore(WrongCountEmbeddings()).add_documents([Document("north"), Document("east")])


def test_vectors_of_mixed_dimensions_are_named() -> None:
    store = compass_store("north")
    with pytest.raises(ValueError, match="vector for document '1' has 3 dimensions but the stored vectors have 2"):
        store.add_vectors([Document("x")], [[1.0, 2.0, 3.0]])


def test_non_finite_vectors_are_named() -> None:
    with pytest.raises(ValueError, match="vector for document '0' must hold finite numbers"):
        InMemoryVectorStore(CompassEmbeddings()).add_vectors([Document("x")], [[math.nan, 1.0]])


@pytest.mark.parametrize(("k", "error"), [(-1, ValueError), ("2", TypeError)])
def test_bad_k_is_named(k: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="similarity_search k must be an int >= 0"):
        compass_store("north").similarity_search("north", k=k)  # type: ignore[arg-type]


# --- ranking on a small lexical corpus with the default embedding ---------------------

TOWN = [
    Document("The lighthouse keeper lights the lamp every evening at dusk.", {"topic": "light"}),
    Document("Fishing boats leave the harbour before sunrise with nets and crates.", {"topic": "harbour"}),
    Document("The foghorn sounds every thirty seconds when fog covers the bay.", {"topic": "fog"}),
    Document("The bakery on Quay Street sells saffron buns on market days.", {"topic": "town"}),
    Document("Storm tides flood the lower harbour road twice a year.", {"topic": "harbour"}),
]


@pytest.mark.parametrize(
    ("query", "expected_first"),
    [
        ("who lights the lighthouse lamp", 0),
        ("fishing boats in the harbour", 1),
        ("foghorn in fog", 2),
        ("saffron buns from the bakery", 3),
        ("storm flood tides", 4),
    ],
)
def test_known_answers_with_hashed_embeddings(query: str, expected_first: int) -> None:
    store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents(TOWN)
    assert store.similarity_search(query, k=1)[0].page_content == TOWN[expected_first].page_content


def test_known_answers_with_a_filter() -> None:
    store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents(TOWN)
    found = store.similarity_search("harbour road", k=5, filter={"topic": "harbour"})
    assert [doc.id for doc in found] == ["4", "1"]


# --- properties ----------------------------------------------------------------------

words = st.lists(st.sampled_from(list(AXES)), max_size=8)


@given(words, st.sampled_from(list(AXES)), st.integers(min_value=0, max_value=10))
def test_search_properties(stored: list[str], query: str, k: int) -> None:
    store = compass_store(*stored)
    results = store.similarity_search_with_score(query, k=k)
    assert len(results) == min(k, len(stored))
    keys = [(-score, int(doc.id or "")) for doc, score in results]
    assert keys == sorted(keys)
    assert all(-1.0 - 1e-12 <= score <= 1.0 + 1e-12 for _, score in results)
    assert store.similarity_search_with_score(query, k=k) == results


@given(words, st.lists(st.integers(min_value=0, max_value=9).map(str), max_size=5))
def test_delete_then_search_never_returns_deleted(stored: list[str], deleted: list[str]) -> None:
    store = compass_store(*stored).delete(deleted)
    assert not {doc.id for doc in store.similarity_search("north", k=20)} & set(deleted)
    assert len(store) == len(stored) - len(set(deleted) & {str(i) for i in range(len(stored))})
