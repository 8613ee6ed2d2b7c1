"""Messages, chunk addition (facts probed on langchain-core 1.8.3), coercion, prompt values."""

from __future__ import annotations

import pickle
from functools import reduce

import cloudpickle  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.messages.message_classes import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    InvalidToolCall,
    Message,
    SystemMessage,
    ToolCall,
    ToolCallChunk,
    ToolMessage,
    UsageMetadata,
    add_ai_message_chunks,
    coerce_to_message,
    coerce_to_messages,
    get_buffer_string,
    merge_dicts,
    message_to_dict,
)
from combinators.components.prompts.prompt_values import ChatPromptValue, StringPromptValue

# -- values ------------------------------------------------------------------------------


def test_messages_are_frozen_values_with_expression_reprs() -> None:
    message = AIMessage("hi", id="m1", usage_metadata={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3})
    assert repr(message) == (
        "AIMessage('hi', id='m1', usage_metadata=UsageMetadata(input_tokens=1, output_tokens=2, "
        "total_tokens=3, input_token_details={}, output_token_details={}))"
    )
    assert repr(ToolMessage("42", tool_call_id="c1")) == "ToolMessage('42', tool_call_id='c1')"
    with pytest.raises(AttributeError):
        message.content = "x"  # type: ignore[misc]


def test_equality_includes_the_class_and_every_field() -> None:
    assert HumanMessage("h") == HumanMessage("h")
    assert HumanMessage("h", id="1") != HumanMessage("h")
    different: list[tuple[object, object]] = [
        (AIMessageChunk("a"), AIMessage("a")),
        (HumanMessage("h"), SystemMessage("h")),
    ]
    for left, right in different:
        assert left != right


def test_base_message_is_abstract() -> None:
    with pytest.raises(TypeError, match="BaseMessage is abstract"):
        BaseMessage("x")
    assert isinstance(ToolMessage("t", tool_call_id="1"), BaseMessage)


def test_type_names_are_the_peers() -> None:
    assert [m.type for m in (SystemMessage(""), HumanMessage(""), AIMessage(""), ToolMessage("", tool_call_id="1"))] == [
        "system", "human", "ai", "tool",
    ]  # fmt: skip
    assert AIMessageChunk("").type == "AIMessageChunk"


def test_list_content_becomes_a_tuple_of_private_copies() -> None:
    block = {"type": "text", "text": "a"}
    message = HumanMessage([block, "b"])
    block["text"] = "changed"
    assert message.content == ({"type": "text", "text": "a"}, "b")
    kwargs = {"k": 1}
    holder = AIMessage("", additional_kwargs=kwargs)
    kwargs["k"] = 2
    assert holder.additional_kwargs == {"k": 1}


def test_text_joins_strings_and_text_blocks_only() -> None:
    content: list[str | dict[str, object]] = [
        {"type": "text", "text": "a"}, {"type": "image_url", "image_url": {"url": "x"}}, "b", {"type": "text", "text": "c"},
    ]  # fmt: skip
    assert HumanMessage(content).text == "abc"
    assert AIMessage([{"type": "text", "text": "a"}, {"type": "reasoning", "reasoning": "r"}]).text == "a"


def test_bad_content_is_named() -> None:
    with pytest.raises(TypeError, match="message content must be a str or a sequence of parts, got int"):
        HumanMessage(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="content parts must be str or mappings"):
        HumanMessage([1])  # type: ignore[list-item]


def test_tool_calls_accept_the_peers_dict_shape() -> None:
    message = AIMessage("", tool_calls=[{"name": "f", "args": {"a": 1}, "id": "x", "type": "tool_call"}])
    assert message.tool_calls == (ToolCall("f", {"a": 1}, id="x"),)
    with pytest.raises(TypeError, match="a tool call needs a str 'name'"):
        AIMessage("", tool_calls=[{"args": {}}])


@pytest.mark.parametrize("empty", [[], (), iter(()), "", {}])
def test_no_tool_calls_are_an_empty_tuple_of_each_kind(empty: object) -> None:
    # Empty lists and tuples take a short cut; every other empty iterable the general loop.
    message = AIMessage("", tool_calls=empty, invalid_tool_calls=empty)  # type: ignore[arg-type]
    chunk = AIMessageChunk("", tool_call_chunks=empty)  # type: ignore[arg-type]
    assert (message.tool_calls, message.invalid_tool_calls, chunk.tool_call_chunks) == ((), (), ())
    assert type(message.tool_calls) is tuple and type(chunk.tool_call_chunks) is tuple


@pytest.mark.parametrize("field", ["tool_calls", "invalid_tool_calls"])
def test_none_is_not_taken_for_no_tool_calls(field: str) -> None:
    with pytest.raises(TypeError, match="not iterable"):
        AIMessage("", **{field: None})  # type: ignore[arg-type]


@pytest.mark.parametrize("dump", [pickle.dumps, cloudpickle.dumps])
def test_messages_survive_pickling(dump: object) -> None:
    chunk = AIMessageChunk(
        "a", tool_call_chunks=[ToolCallChunk("f", '{"x": 1', "c", 0)], usage_metadata=UsageMetadata(1, 1, 2)
    )
    assert chunk.tool_calls  # fill the cache first: it must not leak into the pickle
    for message in (chunk, AIMessage("b", tool_calls=[ToolCall("f", {})]), ToolMessage("t", tool_call_id="1")):
        assert pickle.loads(dump(message)) == message  # type: ignore[operator]


# -- adding chunks: the peer's facts ---------------------------------------------------------


def test_ids_prefer_provider_then_lc_run_then_lc() -> None:
    def added(*ids: str | None) -> str | None:
        return add_ai_message_chunks(*(AIMessageChunk("", id=i) for i in ids)).id

    assert added("lc_run--1", "prov-1") == "prov-1"
    assert added("lc_x", "lc_run--y") == "lc_run--y"
    assert added("lc_run--y", "lc_x") == "lc_run--y"
    assert added("p1", "p2") == "p1"
    assert added(None, None) is None


@pytest.mark.parametrize(
    ("left", "right", "content"),
    [
        ("he", "llo", "hello"),
        (["a"], "b", ("ab",)),
        ("a", [{"type": "text", "text": "b"}], ("a", {"type": "text", "text": "b"})),
        (
            [{"type": "text", "text": "b", "index": 0}],
            [{"type": "text", "text": "c", "index": 0}],
            ({"type": "text", "text": "bc", "index": 0},),
        ),
        (
            [{"type": "text", "text": "b", "index": 0}],
            [{"type": "text", "text": "c", "index": 1}],
            ({"type": "text", "text": "b", "index": 0}, {"type": "text", "text": "c", "index": 1}),
        ),
        (
            [{"type": "text", "text": "b"}],
            [{"type": "text", "text": "c"}],
            ({"type": "text", "text": "b"}, {"type": "text", "text": "c"}),
        ),
        (
            [{"type": "text", "text": "b", "index": "lc_1"}],
            [{"type": "text", "text": "c", "index": "lc_1"}],
            ({"type": "text", "text": "bc", "index": "lc_1"},),
        ),
    ],
)
def test_content_adds_like_the_peer(left: object, right: object, content: object) -> None:
    assert (AIMessageChunk(left) + AIMessageChunk(right)).content == content  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("left", "right", "ours", "peers"),
    [
        ("a", ["b"], ("ab",), ("a", "b")),
        (["x", "y"], ["z"], ("x", "yz"), ("x", "y", "z")),
        ([], "x", ("x",), ()),
        (
            "",
            [{"type": "text", "text": "a", "index": 0}],
            ({"type": "text", "text": "a", "index": 0},),
            ("", {"type": "text", "text": "a", "index": 0}),
        ),
    ],
)
def test_adjacent_text_parts_join_unlike_the_peer(left: object, right: object, ours: object, peers: object) -> None:
    # The peer's answers (kept for the record) make + non-associative or drop text.
    assert (AIMessageChunk(left) + AIMessageChunk(right)).content == ours  # type: ignore[arg-type]
    assert ours != peers


def test_tool_call_chunks_merge_by_index_and_reparse() -> None:
    total = AIMessageChunk(
        "", tool_call_chunks=[{"name": "f", "args": '{"a": 1', "id": "c1", "index": 0}]
    ) + AIMessageChunk("", tool_call_chunks=[{"name": None, "args": ', "b": "x', "id": None, "index": 0}])
    assert total.tool_call_chunks == (ToolCallChunk("f", '{"a": 1, "b": "x', "c1", 0),)
    assert total.tool_calls == (ToolCall("f", {"a": 1, "b": "x"}, id="c1"),)
    assert total.invalid_tool_calls == ()


@pytest.mark.parametrize(
    ("args", "calls", "invalid"),
    [
        ('{"a": 1', (ToolCall("f", {"a": 1}, id="c1"),), ()),
        ('{"a": ', (ToolCall("f", {}, id="c1"),), ()),
        ("", (ToolCall("f", {}, id="c1"),), ()),
        ("[1,2]", (), (InvalidToolCall("f", "[1,2]", "c1"),)),
        ("oops", (), (InvalidToolCall("f", "oops", "c1"),)),
    ],
)
def test_tool_calls_parse_partial_arguments_like_the_peer(
    args: str, calls: tuple[ToolCall, ...], invalid: tuple[InvalidToolCall, ...]
) -> None:
    chunk = AIMessageChunk("", tool_call_chunks=[ToolCallChunk("f", args, "c1", 0)])
    assert (chunk.tool_calls, chunk.invalid_tool_calls) == (calls, invalid)


def test_tool_call_chunks_with_clashing_ids_or_no_index_do_not_merge() -> None:
    total = AIMessageChunk("", tool_call_chunks=[ToolCallChunk("f", "{", "a", 0)]) + AIMessageChunk(
        "", tool_call_chunks=[ToolCallChunk("g", "}", "b", 0), ToolCallChunk("h", "{}", None, None)]
    )
    assert [c.name for c in total.tool_call_chunks] == ["f", "g", "h"]


def test_usage_is_summed_with_details() -> None:
    u1 = {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}
    u2 = {"input_tokens": 10, "output_tokens": 20, "total_tokens": 30, "input_token_details": {"cache_read": 5}}
    assert (
        AIMessageChunk("", usage_metadata=u1) + AIMessageChunk("", usage_metadata=u2)
    ).usage_metadata == UsageMetadata(11, 22, 33, {"cache_read": 5})
    assert (AIMessageChunk("", usage_metadata=u1) + AIMessageChunk("")).usage_metadata == UsageMetadata(1, 2, 3)
    assert (AIMessageChunk("") + AIMessageChunk("")).usage_metadata is None


def test_metadata_deep_merges_like_the_peer() -> None:
    def added(left: dict[str, object], right: dict[str, object]) -> object:
        return (
            AIMessageChunk("", additional_kwargs=left) + AIMessageChunk("", additional_kwargs=right)
        ).additional_kwargs

    assert added({"a": {"b": "x", "n": 1, "l": [1]}}, {"a": {"b": "y", "n": 1, "l": [2]}}) == {
        "a": {"b": "xy", "n": 1, "l": [1, 2]}
    }
    assert added({"a": {"n": 1}}, {"a": {"n": 2}}) == {"a": {"n": 3}}
    assert added({"model": "x"}, {"model": "x"}) == {"model": "xx"}  # the peer concatenates
    assert added({"finish": None}, {"finish": "stop"}) == {"finish": "stop"}
    assert added({"id": "x"}, {"id": "x"}) == {"id": "x"}
    assert added({"index": 1}, {"index": 2}) == {"index": 2}
    with pytest.raises(TypeError, match="cannot merge key 'k': int and str"):
        added({"k": 1}, {"k": "1"})
    with pytest.raises(TypeError, match="cannot merge key 'b': two different bool values"):
        merge_dicts({"b": True}, {"b": False})


def test_chunk_position_last_sticks_and_name_is_kept() -> None:
    assert (AIMessageChunk("a", chunk_position="last") + AIMessageChunk("b")).chunk_position == "last"
    # deliberate difference: the peer drops the name
    assert (AIMessageChunk("a") + AIMessageChunk("b", name="n2")).name == "n2"


def test_adding_a_list_of_chunks_and_bad_operands() -> None:
    assert (AIMessageChunk("a") + [AIMessageChunk("b"), AIMessageChunk("c")]).content == "abc"
    with pytest.raises(TypeError):
        AIMessageChunk("a") + HumanMessage("b")  # type: ignore[operator]
    with pytest.raises(TypeError):
        AIMessage("a") + AIMessage("b")  # type: ignore[operator]


def test_to_message_keeps_everything() -> None:
    chunk = AIMessageChunk(
        "x", id="i", tool_call_chunks=[ToolCallChunk("f", "{}", "c", 0)], usage_metadata=UsageMetadata(1, 1, 2)
    )
    assert chunk.to_message() == AIMessage(
        "x", id="i", tool_calls=[ToolCall("f", {}, id="c")], usage_metadata=UsageMetadata(1, 1, 2)
    )


# -- laws -----------------------------------------------------------------------------------

# One chunk holds at most one piece per index (as real streams do); with duplicates
# inside a single chunk, neither the peer's + nor ours is associative.
text_blocks = st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=3), "index": st.integers(0, 2)})
contents = st.text(max_size=4) | st.lists(
    st.text(max_size=3) | text_blocks,
    max_size=3,
    unique_by=lambda part: part["index"] if isinstance(part, dict) else object(),
)
tool_call_chunks = st.lists(
    st.builds(
        ToolCallChunk,
        name=st.none() | st.just("f"),
        args=st.text('{}":1a', max_size=4),
        id=st.none(),
        index=st.integers(0, 2),
    ),
    max_size=2,
    unique_by=lambda chunk: chunk.index,
)
usages = st.none() | st.builds(
    UsageMetadata,
    st.integers(0, 9),
    st.integers(0, 9),
    st.integers(0, 9),
    st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 9)),
)
chunks = st.builds(AIMessageChunk, contents, tool_call_chunks=tool_call_chunks, usage_metadata=usages)


@given(chunks, chunks, chunks)
def test_chunk_addition_is_associative(a: AIMessageChunk, b: AIMessageChunk, c: AIMessageChunk) -> None:
    left, right = (a + b) + c, a + (b + c)
    assert left.content == right.content
    assert [(t.name, t.args, t.index) for t in left.tool_call_chunks] == [
        (t.name, t.args, t.index) for t in right.tool_call_chunks
    ]
    assert left.tool_calls == right.tool_calls
    assert left.usage_metadata == right.usage_metadata


@given(chunks, st.lists(chunks, max_size=4))
def test_adding_many_at_once_equals_folding(first: AIMessageChunk, rest: list[AIMessageChunk]) -> None:
    assert add_ai_message_chunks(first, *rest) == reduce(lambda x, y: x + y, rest, first)


@given(st.text(), st.lists(st.integers(0, 30), max_size=8))
def test_the_chunks_of_a_split_string_add_up_to_it(text: str, cuts: list[int]) -> None:
    points = sorted({min(c, len(text)) for c in cuts} | {0, len(text)})
    pieces = [AIMessageChunk(text[i:j]) for i, j in zip(points, points[1:], strict=False)] or [AIMessageChunk("")]
    assert reduce(lambda x, y: x + y, pieces).content == text


@given(st.text('{}[]":, 1ab', max_size=30), st.lists(st.integers(0, 30), max_size=6))
def test_split_tool_arguments_add_up(args: str, cuts: list[int]) -> None:
    points = sorted({min(c, len(args)) for c in cuts} | {0, len(args)})
    pieces = [
        AIMessageChunk("", tool_call_chunks=[ToolCallChunk("f" if i == 0 else None, args[i:j], "c", 0)])
        for i, j in zip(points, points[1:], strict=False)
    ]
    if pieces:
        total = reduce(lambda x, y: x + y, pieces)
        assert total.tool_call_chunks == (ToolCallChunk("f", args, "c", 0),)


# -- text, dicts, coercion ------------------------------------------------------------------


def test_buffer_string() -> None:
    conversation: list[Message] = [
        SystemMessage("s"),
        HumanMessage("h"),
        AIMessage("a"),
        ToolMessage("t", tool_call_id="1"),
        AIMessageChunk("c"),
    ]
    assert get_buffer_string(conversation) == "System: s\nHuman: h\nAI: a\nTool: t\nAI: c"
    assert get_buffer_string([HumanMessage([{"type": "text", "text": "a"}, "b"])]) == "Human: ab"
    assert get_buffer_string([HumanMessage("h"), AIMessage("a")], human_prefix="U", ai_prefix="B") == "U: h\nB: a"


def test_message_to_dict_has_the_peers_shape() -> None:
    assert message_to_dict(AIMessage("a", id="1")) == {
        "type": "ai",
        "data": {
            "content": "a", "additional_kwargs": {}, "response_metadata": {}, "type": "ai", "name": None,
            "id": "1", "tool_calls": [], "invalid_tool_calls": [], "usage_metadata": None,
        },
    }  # fmt: skip
    assert message_to_dict(HumanMessage("a")) == {
        "type": "human",
        "data": {
            "content": "a",
            "additional_kwargs": {},
            "response_metadata": {},
            "type": "human",
            "name": None,
            "id": None,
        },
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (("system", "s"), SystemMessage("s")),
        (("human", "h"), HumanMessage("h")),
        (("user", "u"), HumanMessage("u")),
        (("ai", "a"), AIMessage("a")),
        (("assistant", "x"), AIMessage("x")),
        (["user", "x"], HumanMessage("x")),
        ({"role": "user", "content": "c"}, HumanMessage("c")),
        ({"type": "human", "content": "c"}, HumanMessage("c")),
        ({"role": "tool", "content": "c", "tool_call_id": "1"}, ToolMessage("c", tool_call_id="1")),
        (
            {"role": "assistant", "content": "", "tool_calls": [{"name": "f", "args": {}, "id": "1"}]},
            AIMessage("", tool_calls=[ToolCall("f", {}, id="1")]),
        ),
        ({"role": "user", "content": "c", "extra": 1}, HumanMessage("c", additional_kwargs={"extra": 1})),
        ("plain", HumanMessage("plain")),
        (("developer", "d"), SystemMessage("d", additional_kwargs={"__openai_role__": "developer"})),
        (AIMessage("kept"), AIMessage("kept")),
    ],
)
def test_coercion_accepts_the_peers_shapes(value: object, expected: Message) -> None:
    assert coerce_to_message(value) == expected


@pytest.mark.parametrize(
    ("value", "error", "match"),
    [
        (("tool", "t"), ValueError, "a tool message needs a str 'tool_call_id'"),
        (("bogus", "x"), ValueError, "unknown message role 'bogus'"),
        (5, TypeError, "cannot make a message from a int"),
        ({"content": "x"}, ValueError, "needs a str 'role'"),
        ({"role": "user"}, ValueError, "needs a str 'role' .* and a 'content'"),
        (("a", "b", "c"), ValueError, r"must be a \(role, content\) pair"),
        (("user", 5), TypeError, "message content must be a str or a list of parts, got int"),
    ],
)
def test_coercion_errors_name_the_problem(value: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        coerce_to_message(value)


def test_coerce_to_messages_wants_a_sequence() -> None:
    assert coerce_to_messages([("system", "s"), "h"]) == (SystemMessage("s"), HumanMessage("h"))
    with pytest.raises(TypeError, match="got a str; wrap a single message in a list"):
        coerce_to_messages("abc")


# -- prompt values -----------------------------------------------------------------------------


def test_prompt_values() -> None:
    assert StringPromptValue("x").to_messages() == [HumanMessage("x")]
    assert StringPromptValue("x").to_string() == "x"
    chat = ChatPromptValue([SystemMessage("s"), HumanMessage("h"), AIMessage("a")])
    assert chat.to_string() == "System: s\nHuman: h\nAI: a"
    listed = chat.to_messages()
    listed.append(HumanMessage("more"))
    assert len(chat.messages) == 3  # a fresh list each time
    assert ChatPromptValue([("human", "h")]) == ChatPromptValue((HumanMessage("h"),))
    with pytest.raises(TypeError, match="StringPromptValue text must be a str"):
        StringPromptValue(1)  # type: ignore[arg-type]
    assert pickle.loads(cloudpickle.dumps(chat)) == chat


def test_a_function_message_is_langchains_and_needs_its_name() -> None:
    from combinators.messages import FunctionMessage, coerce_to_message, get_buffer_string, message_to_dict

    message = FunctionMessage("42", name="multiply")
    assert message.type == "function" and message.name == "multiply" and isinstance(message, BaseMessage)
    assert coerce_to_message({"role": "function", "content": "42", "name": "multiply"}) == message
    assert coerce_to_message(message) is message
    assert get_buffer_string([message]) == "Function: 42"
    assert message_to_dict(message) == {
        "type": "function",
        "data": {
            "content": "42",
            "additional_kwargs": {},
            "response_metadata": {},
            "type": "function",
            "name": "multiply",
            "id": None,
        },
    }
    with pytest.raises(TypeError, match="needs the function's name"):
        FunctionMessage("42")
    with pytest.raises(ValueError, match="needs a str 'name'"):
        coerce_to_message({"role": "function", "content": "42"})
