"""Document: a frozen value with LangChain's repr, validation and formatting."""

from __future__ import annotations

import pickle

from collections.abc import Callable
from typing import cast

import attrs
import cloudpickle  # type: ignore[import-untyped]  # cloudpickle ships no type information
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.retrieval.documents import Document, format_documents_as_string

metadata_values = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
# cloudpickle is untyped: give its two functions their real types once.
cloudpickle_dumps = cast("Callable[[object], bytes]", cloudpickle.dumps)  # pyright: ignore[reportUnknownMemberType]
cloudpickle_loads = cast("Callable[[bytes], object]", cloudpickle.loads)

documents = st.builds(
    Document,
    page_content=st.text(max_size=20),
    metadata=st.dictionaries(st.text(max_size=5), metadata_values, max_size=3),
    id=st.one_of(st.none(), st.text(max_size=5)),
)


def test_repr_matches_langchain() -> None:
    doc = Document("q-0", metadata={"i": 0}, id="0")
    assert repr(doc) == "Document(id='0', metadata={'i': 0}, page_content='q-0')"


def test_repr_omits_a_missing_id() -> None:
    assert repr(Document("x")) == "Document(metadata={}, page_content='x')"


@given(documents)
def test_repr_reads_like_the_expression_that_built_it(doc: Document) -> None:
    assert eval(repr(doc), {"Document": Document}) == doc


def test_defaults() -> None:
    doc = Document("hello")
    assert doc.page_content == "hello"
    assert dict(doc.metadata) == {}
    assert doc.id is None


def test_is_frozen() -> None:
    doc = Document("hello")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        doc.page_content = "bye"  # type: ignore[misc]


def test_metadata_is_copied_so_the_callers_dict_cannot_change_it() -> None:
    source: dict[str, object] = {"a": 1}
    doc = Document("x", metadata=source)
    source["a"] = 2
    assert doc.metadata == {"a": 1}
    assert type(doc.metadata) is dict


def test_equality_is_structural() -> None:
    assert Document("x", {"a": 1}, "1") == Document("x", {"a": 1}, "1")
    assert Document("x", {"a": 1}) != Document("x", {"a": 2})
    assert Document("x", id="1") != Document("x", id="2")


@given(documents, documents)
def test_equal_documents_hash_equal(a: Document, b: Document) -> None:
    copy = Document(a.page_content, dict(a.metadata), a.id)
    assert hash(copy) == hash(a)
    if a == b:
        assert hash(a) == hash(b)


@given(documents)
def test_survives_pickle_and_cloudpickle(doc: Document) -> None:
    assert pickle.loads(pickle.dumps(doc)) == doc
    assert cloudpickle_loads(cloudpickle_dumps(doc)) == doc


def test_evolve_sets_an_id() -> None:
    assert attrs.evolve(Document("x"), id="7") == Document("x", id="7")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"page_content": 3}, "Document page_content must be a str, got int: 3"),
        ({"page_content": "x", "metadata": [1]}, "Document metadata must be a mapping"),
        ({"page_content": "x", "metadata": {1: "a"}}, "Document metadata keys must be str, got int: 1"),
        ({"page_content": "x", "id": 5}, "Document id must be a str or None, got int: 5"),
    ],
)
def test_bad_input_is_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        Document(**kwargs)  # type: ignore[arg-type]


def test_format_documents_joins_page_contents_with_a_blank_line() -> None:
    docs = [Document("one", {"k": 1}), Document("two"), Document("three")]
    assert format_documents_as_string(docs) == "one\n\ntwo\n\nthree"


def test_format_documents_of_nothing_is_empty() -> None:
    assert format_documents_as_string([]) == ""


def test_format_documents_accepts_any_iterable() -> None:
    assert format_documents_as_string(Document(t) for t in "ab") == "a\n\nb"


def test_format_documents_rejects_non_documents() -> None:
    with pytest.raises(TypeError, match=r"format_documents_as_string expects Documents, got str at index 1"):
        format_documents_as_string([Document("a"), "b"])  # type: ignore[list-item]


@given(st.lists(documents, max_size=5))
def test_format_documents_is_the_join_of_page_contents(docs: list[Document]) -> None:
    assert format_documents_as_string(docs) == "\n\n".join(d.page_content for d in docs)


def test_json_form_in_events_has_langchains_keys() -> None:
    from effects.projections.jsonable import to_jsonable

    assert to_jsonable(Document("q-0", {"i": 0}, id="0")) == {
        "type": "Document",
        "page_content": "q-0",
        "metadata": {"i": 0},
        "id": "0",
    }
