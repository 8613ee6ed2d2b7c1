"""Values cross the bridge losslessly: ours -> LangChain's -> ours is the identity, for
every message class (content parts, tool calls, chunks, ids, usage, metadata), documents
and prompt values, and LangChain's classes and fields are exactly the table's."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core import documents as their_documents
from langchain_core import messages as theirs
from langchain_core import prompt_values as their_prompts

from combinators._support.langchain_types import DISCRIMINATOR_FIELDS, VALUE_TYPES
from combinators.documents import Document
from combinators.messages import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from combinators.prompt_values import ChatPromptValue, StringPromptValue
from combinators.integrations.langchain import to_langchain, to_ours

texts = st.text(max_size=5)
ids = st.none() | st.text("abc-1", min_size=1, max_size=6)
plain = st.none() | st.booleans() | st.integers(-3, 3) | texts
metadata = st.dictionaries(st.text("kmz", min_size=1, max_size=3), plain, max_size=3)
blocks = st.fixed_dictionaries({"type": st.just("text"), "text": texts}) | st.fixed_dictionaries(
    {"type": st.just("image"), "url": texts}
)
contents = texts | st.lists(st.text(min_size=1, max_size=3) | blocks, max_size=3)
tool_calls = st.lists(
    st.fixed_dictionaries({"name": st.sampled_from(["f", "g"]), "args": metadata, "id": ids}), max_size=2
)
invalid_calls = st.lists(
    st.fixed_dictionaries(
        {"name": st.none() | st.just("f"), "args": st.none() | texts, "id": ids, "error": st.none() | texts}
    ),
    max_size=2,
)
call_chunks = st.lists(
    st.fixed_dictionaries(
        {
            "name": st.none() | st.just("f"),
            "args": st.none() | st.just('{"a": 1}'),
            "id": ids,
            "index": st.none() | st.integers(0, 2),
        }
    ),
    max_size=2,
)
details = st.dictionaries(st.sampled_from(["cache_read", "audio", "reasoning"]), st.integers(0, 9), max_size=2)
usages = st.none() | st.fixed_dictionaries(
    {"input_tokens": st.integers(0, 9), "output_tokens": st.integers(0, 9), "total_tokens": st.integers(0, 18)},
    optional={"input_token_details": details, "output_token_details": details},
)
common: dict[str, Any] = {
    "id": ids,
    "name": st.none() | texts,
    "additional_kwargs": metadata,
    "response_metadata": metadata,
}
messages = st.one_of(
    st.builds(SystemMessage, contents, **common),
    st.builds(HumanMessage, contents, **common),
    st.builds(
        AIMessage, contents, tool_calls=tool_calls, invalid_tool_calls=invalid_calls, usage_metadata=usages, **common
    ),
    st.builds(
        AIMessageChunk,
        contents,
        tool_call_chunks=call_chunks,
        usage_metadata=usages,
        chunk_position=st.none() | st.just("last"),
        **common,
    ),
    st.builds(
        ToolMessage,
        contents,
        tool_call_id=st.text("c1", min_size=1, max_size=3),
        status=st.sampled_from(["success", "error"]),
        artifact=plain,
        **common,
    ),
    st.builds(ChatMessage, contents, role=st.sampled_from(["user", "critic"]), **common),
    st.builds(FunctionMessage, contents, **{**common, "name": texts}),
)
documents = st.builds(Document, texts, metadata, id=ids)


@given(messages)
def test_a_message_crosses_to_langchain_and_back_unchanged(message: object) -> None:
    there = to_langchain(message)
    assert isinstance(there, theirs.BaseMessage)
    assert type(there).__name__ == type(message).__name__
    assert to_ours(there) == message


@given(documents)
def test_a_document_crosses_to_langchain_and_back_unchanged(document: Document) -> None:
    there = to_langchain(document)
    assert isinstance(there, their_documents.Document)
    assert (there.page_content, there.metadata, there.id) == (
        document.page_content,
        dict(document.metadata),
        document.id,
    )
    assert to_ours(there) == document


@given(st.lists(messages, max_size=3), texts)
def test_prompt_values_cross_both_ways(conversation: list[Any], text: str) -> None:
    chat = ChatPromptValue(conversation)
    assert isinstance(to_langchain(chat), their_prompts.ChatPromptValue)
    assert to_ours(to_langchain(chat)) == chat
    assert to_ours(to_langchain(StringPromptValue(text))) == StringPromptValue(text)


def test_langchains_tool_calls_and_usage_arrive_as_ours() -> None:
    there = theirs.AIMessage(
        [{"type": "text", "text": "ok"}],
        id="run-1",
        tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c1"}],
        usage_metadata={
            "input_tokens": 1,
            "output_tokens": 2,
            "total_tokens": 3,
            "input_token_details": {"cache_read": 1},
        },
        response_metadata={"model": "m"},
    )
    ours = to_ours(there)
    assert isinstance(ours, AIMessage)
    assert ours.content == ({"type": "text", "text": "ok"},)
    assert [(call.name, dict(call.args), call.id) for call in ours.tool_calls] == [("f", {"x": 1}, "c1")]
    assert ours.usage_metadata is not None and dict(ours.usage_metadata.input_token_details) == {"cache_read": 1}
    assert ours.response_metadata == {"model": "m"}
    assert to_langchain(ours) == there


def test_values_inside_containers_convert_and_other_values_stay() -> None:
    nested = {"docs": [their_documents.Document("a")], "pair": (theirs.HumanMessage("q"), 3), "n": 1}
    assert to_ours(nested) == {"docs": [Document("a")], "pair": (HumanMessage("q"), 3), "n": 1}
    marker = object()
    assert to_ours(marker) is marker and to_langchain(marker) is marker


@pytest.mark.parametrize("name", sorted(VALUE_TYPES))
def test_the_table_covers_every_field_of_langchains_classes(name: str) -> None:
    # A field LangChain adds in a new release fails here instead of being dropped silently.
    table = VALUE_TYPES[name]
    module = {"Document": their_documents}.get(name) or (their_prompts if "Prompt" in name else theirs)
    their_fields = set(getattr(module, name).model_fields) - DISCRIMINATOR_FIELDS
    assert their_fields == set(table.fields) | set(table.derived)
