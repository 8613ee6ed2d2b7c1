"""Output parsers: facts probed on langchain-core 1.8.3, typed results, streaming, events."""

from __future__ import annotations

import asyncio
import enum
import json
import pickle
import re
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any, NotRequired, TypedDict

import attrs
import cloudpickle  # type: ignore[import-untyped]
import pytest

from combinators import RunnableLambda
from combinators.components.models.fakes import GenericFakeChatModel, Script
from combinators.components.parsers.json_parser import JsonOutputParser
from combinators.components.messages.message_classes import AIMessage, AIMessageChunk, HumanMessage
from combinators.components.parsers.text import OutputParserError, StrOutputParser
from combinators.components.partial_json.reader import JsonValue
from combinators._support.type_schema import type_schema
from effects.errors import CombinatorsError, InputError

DUMPS: tuple[Callable[[object], bytes], ...] = (pickle.dumps, getattr(cloudpickle, "dumps"))


@attrs.frozen
class Punchline:
    text: str
    laughs: int = 0


@attrs.frozen
class Joke:
    setup: str
    punchline: Punchline
    tags: list[str] = attrs.field(factory=list[str])


# The functional form: under ``from __future__ import annotations`` Python 3.11 cannot
# see ``NotRequired`` in a class-form TypedDict (its ``__required_keys__`` lists every key).
class Movie(TypedDict):
    title: str
    year: int
    rating: NotRequired[float]


def chunks_of(parser: Any, pieces: Sequence[str]) -> list[Any]:
    return list(parser.transform(iter(pieces)))


def astream_chunks(parser: Any, pieces: Sequence[str]) -> list[Any]:
    async def source() -> AsyncIterator[str]:
        for piece in pieces:
            yield piece

    async def collect() -> list[Any]:
        return [c async for c in parser.atransform(source())]

    return asyncio.run(collect())


# -- StrOutputParser -------------------------------------------------------------------------


def test_str_parser_takes_text_out_of_messages_and_passes_strings_through() -> None:
    parser = StrOutputParser()
    assert parser.invoke("plain") == "plain"
    assert parser.invoke(AIMessage("hi")) == "hi"
    blocks = AIMessage([{"type": "text", "text": "hi"}, {"type": "text", "text": " there"}])
    assert parser.invoke(blocks) == "hi there"  # text blocks are concatenated, as the peer does


def test_str_parser_rejects_other_inputs() -> None:
    with pytest.raises(InputError, match="StrOutputParser expects a str or a message, got int"):
        StrOutputParser().invoke(3)  # type: ignore[arg-type]


def test_str_parser_streams_chunk_by_chunk() -> None:
    chain = GenericFakeChatModel(Script(["hello there"])) | StrOutputParser()
    assert list(chain.stream("hi")) == ["hello", " ", "there"]
    assert chunks_of(StrOutputParser(), ["a", "", "b"]) == ["a", "", "b"]  # empty chunks too, as the peer
    assert astream_chunks(StrOutputParser(), ["a", "b"]) == ["a", "b"]


def test_str_parser_is_a_final_frozen_parser_value() -> None:
    parser = StrOutputParser()
    assert (parser.run_type, parser.name, parser.input_known_at_start) == ("parser", "StrOutputParser", False)
    assert repr(parser) == "StrOutputParser()"
    assert parser == StrOutputParser() and hash(parser) == hash(StrOutputParser())
    for dumps in DUMPS:
        assert pickle.loads(dumps(parser)) == parser
    assert asyncio.run(parser.ainvoke(AIMessageChunk("x"))) == "x"


async def test_str_parser_events_start_without_input_and_stream_each_chunk() -> None:
    chain = GenericFakeChatModel(Script(["a b"])) | StrOutputParser()
    every = [e async for e in chain.astream_events("hi")]
    events = [e for e in every if e["name"] == "StrOutputParser"]
    assert [e["event"] for e in events] == [
        "on_parser_start", "on_parser_stream", "on_parser_stream", "on_parser_stream", "on_parser_end",
    ]  # fmt: skip
    assert events[0]["data"] == {}
    assert [e["data"].get("chunk") for e in events[1:-1]] == ["a", " ", "b"]
    model_run = next(e["run_id"] for e in every if e["event"] == "on_chat_model_start")
    message_id = f"lc_run--{model_run}"  # the model run's message id, on every chunk and their sum
    assert events[-1]["data"] == {"input": AIMessageChunk("a b", id=message_id, chunk_position="last"), "output": "a b"}


# -- JsonOutputParser: the peer's streaming facts ------------------------------------------------


def test_json_parser_yields_each_changed_partial_value() -> None:
    pieces = ['{"a"', ": [1", ", 2]", ', "b": "x', 'yz"}']
    expected = [{}, {"a": [1]}, {"a": [1, 2]}, {"a": [1, 2], "b": "x"}, {"a": [1, 2], "b": "xyz"}]
    assert chunks_of(JsonOutputParser(), pieces) == expected
    assert astream_chunks(JsonOutputParser(), pieces) == expected


def test_json_parser_skips_chunks_that_change_nothing() -> None:
    assert chunks_of(JsonOutputParser(), ['{"a": 1', " ", ",", ' "b', '": 2}']) == [{"a": 1}, {"a": 1, "b": 2}]


def test_json_diff_mode_yields_the_references_patch_sequence() -> None:
    tokens = ['{"a":', "[1,", "2],", '"b":', '"xyz"}']
    expected: list[list[dict[str, object]]] = [
        [{"op": "replace", "path": "", "value": {}}],
        [{"op": "add", "path": "/a", "value": [1]}],
        [{"op": "add", "path": "/a/1", "value": 2}],
        [{"op": "add", "path": "/b", "value": "xyz"}],
    ]
    assert chunks_of(JsonOutputParser(diff=True), tokens) == expected
    assert astream_chunks(JsonOutputParser(diff=True), tokens) == expected
    assert chunks_of(JsonOutputParser(diff=True), ['{"a": [1, 2], ', '"b": "xyz"}']) == [
        [{"op": "replace", "path": "", "value": {"a": [1, 2]}}],
        [{"op": "add", "path": "/b", "value": "xyz"}],
    ]


def test_json_parser_strips_markdown_fences_while_streaming() -> None:
    assert chunks_of(JsonOutputParser(), ["```json\n", '{"a": 1', "}\n```"]) == [{"a": 1}]


@pytest.mark.parametrize(
    ("pieces", "expected"),
    [(["1", "2"], [1, 12]), (['"ab', 'c"'], ["ab", "abc"]), (["[tr", "ue]"], [[], [True]])],
)
def test_json_parser_streams_any_json_value(pieces: list[str], expected: list[JsonValue]) -> None:
    assert chunks_of(JsonOutputParser(), pieces) == expected


def test_json_parser_invoke_as_the_peer() -> None:
    parser = JsonOutputParser()
    assert parser.invoke('```json\n{"a": 1') == {"a": 1}
    assert parser.invoke('{"a": 1}}') is None  # a closer that matches no opener
    assert parser.invoke(AIMessage('  {"a": [1, "x"]}  ')) == {"a": [1, "x"]}
    assert parser.parse('{"b": true}') == {"b": True}


def test_a_parse_failure_raises_output_parser_error_with_the_raw_text() -> None:
    with pytest.raises(OutputParserError, match=r"^Invalid json output: not json$") as raised:
        JsonOutputParser().invoke(" not json\n")
    error = raised.value
    assert isinstance(error, CombinatorsError) and isinstance(error, ValueError)
    assert error.llm_output == " not json\n"
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.llm_output) == (str(error), error.llm_output)


def test_a_stream_that_never_holds_json_fails_as_invoke_does() -> None:
    # Deliberate difference: the peer's stream just ends without a chunk.
    with pytest.raises(OutputParserError, match="Invalid json output: not json"):
        chunks_of(JsonOutputParser(), ["not", " json"])
    with pytest.raises(OutputParserError, match="Invalid json output: not json"):
        astream_chunks(JsonOutputParser(), ["not", " json"])


def test_json_parser_streams_a_models_reply() -> None:
    reply = '{"setup": "Why?", "punchline": "Because."}'
    chain = GenericFakeChatModel(Script([reply, reply])) | JsonOutputParser()
    assert list(chain.stream("joke")) == [
        {},
        {"setup": "Why?"},
        {"setup": "Why?", "punchline": "Because."},
    ]
    assert chain.invoke("joke") == {"setup": "Why?", "punchline": "Because."}


# -- JsonOutputParser with a schema ---------------------------------------------------------------


JOKE_TEXT = '{"setup": "Why?", "punchline": {"text": "Because.", "laughs": 2}, "tags": ["old"], "extra": 1}'


def test_an_attrs_schema_makes_invoke_return_that_type() -> None:
    parser = JsonOutputParser(Joke)
    joke = parser.invoke(JOKE_TEXT)
    assert joke == Joke("Why?", Punchline("Because.", 2), ["old"])  # unknown keys are ignored
    assert parser.invoke('{"setup": "s", "punchline": {"text": "p"}}') == Joke("s", Punchline("p"))


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ('{"setup": "s"}', "'punchline' is a required property"),
        ('{"setup": 1, "punchline": {"text": "p"}}', "1 is not of type 'string'"),
        ('{"setup": "s", "punchline": {}}', "'text' is a required property"),
        ("[1]", "is not of type 'object'"),
    ],
)
def test_a_value_that_does_not_fit_the_schema_is_an_output_parser_error(text: str, complaint: str) -> None:
    with pytest.raises(OutputParserError, match=re.escape(complaint)) as raised:
        JsonOutputParser(Joke).invoke(text)
    assert str(raised.value).startswith(f"Failed to parse Joke from completion {text!r}")
    assert raised.value.llm_output == text


class Mood(enum.Enum):
    GLAD = "glad"
    SAD = "sad"


@attrs.frozen
class Review:
    mood: Mood
    best: Punchline | None = None
    scores: tuple[int, ...] = ()
    by_name: dict[str, Punchline] = attrs.field(factory=dict[str, Punchline])


def test_schemas_with_enums_optionals_tuples_and_dicts_build_their_types() -> None:
    parser = JsonOutputParser(Review)
    text = '{"mood": "glad", "best": {"text": "t"}, "scores": [1, 2], "by_name": {"a": {"text": "x"}}}'
    assert parser.invoke(text) == Review(Mood.GLAD, Punchline("t"), (1, 2), {"a": Punchline("x")})
    assert parser.invoke('{"mood": "sad", "best": null}') == Review(Mood.SAD)
    with pytest.raises(OutputParserError, match="'meh' is not one of"):
        parser.invoke('{"mood": "meh"}')


def test_a_typed_dict_schema_checks_required_keys() -> None:
    parser = JsonOutputParser(Movie)
    assert parser.invoke('{"title": "Up", "year": 2009}') == {"title": "Up", "year": 2009}
    with pytest.raises(OutputParserError, match="'year' is a required property"):
        parser.invoke('{"title": "Up"}')


def test_a_schema_parser_streams_only_values_of_its_type() -> None:
    pieces = ['{"title": "U', 'p", "ye', 'ar": 20', '09, "rating": 8', ".3}"]
    assert chunks_of(JsonOutputParser(Movie), pieces) == [
        {"title": "Up", "year": 20},
        {"title": "Up", "year": 2009, "rating": 8},
        {"title": "Up", "year": 2009, "rating": 8.3},
    ]
    jokes = chunks_of(JsonOutputParser(Joke), ['{"setup": "Why?", "punchline": {"te', 'xt": "Be', 'cause."}}'])
    assert jokes == [Joke("Why?", Punchline("Be")), Joke("Why?", Punchline("Because."))]
    assert all(isinstance(j, Joke) for j in jokes)


def test_a_schema_stream_that_ends_invalid_raises() -> None:
    with pytest.raises(OutputParserError, match="'year' is a required property"):
        chunks_of(JsonOutputParser(Movie), ['{"title": "Up"', "}"])


def test_diff_mode_takes_no_schema() -> None:
    with pytest.raises(ValueError, match="diff=True streams JSON patch operations; it takes no schema"):
        JsonOutputParser(Movie, diff=True)  # type: ignore[call-overload]


def test_format_instructions_show_the_json_schema() -> None:
    assert JsonOutputParser().get_format_instructions() == "Return a JSON object."
    for schema in (Joke, Movie):
        text = JsonOutputParser(schema).get_format_instructions()
        fenced = text.split("```")[1].strip()
        expected = {k: v for k, v in type_schema(schema).items() if k not in ("title", "type")}
        assert json.loads(fenced) == expected
        assert "JSON" in text.split("```")[0]


def test_json_parsers_are_final_frozen_values() -> None:
    assert repr(JsonOutputParser()) == "JsonOutputParser()"
    assert repr(JsonOutputParser(diff=True)) == "JsonOutputParser(diff=True)"
    assert repr(JsonOutputParser(Joke)) == "JsonOutputParser(Joke)"
    assert JsonOutputParser(Joke) == JsonOutputParser(Joke)
    jokes: object = JsonOutputParser(Joke)
    assert jokes != JsonOutputParser(Movie)
    assert hash(JsonOutputParser(Joke)) == hash(JsonOutputParser(Joke))
    parser = JsonOutputParser(Joke)
    assert (parser.run_type, parser.name, parser.input_known_at_start) == ("parser", "JsonOutputParser", False)
    for dumps in DUMPS:
        assert pickle.loads(dumps(parser)) == parser
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        parser.diff = True  # type: ignore[misc]


def test_async_invoke_equals_invoke() -> None:
    parser = JsonOutputParser(Joke)
    assert asyncio.run(parser.ainvoke(JOKE_TEXT)) == parser.invoke(JOKE_TEXT)


def test_a_parser_in_a_chain_reads_a_message_stream() -> None:
    def reply(_: str) -> Iterator[AIMessageChunk]:
        for piece in ['{"title": ', '"Up", "year": ', "2009}"]:
            yield AIMessageChunk(piece)

    chain = RunnableLambda(reply) | JsonOutputParser(Movie)
    assert list(chain.stream("x")) == [{"title": "Up", "year": 2009}]
    assert JsonOutputParser(Movie).invoke(HumanMessage('{"title": "Up", "year": 1}')) == {"title": "Up", "year": 1}


# -- structure ----------------------------------------------------------------------------------


def test_the_concrete_prompt_and_parser_classes_are_final_and_frozen() -> None:
    from combinators.components.prompts import chat_parts as chat_prompts, chat_prompt, string_prompt
    from combinators.components.parsers import json_parser, text as parsers

    concrete = [
        parsers.StrOutputParser,
        json_parser.JsonOutputParser,
        string_prompt.PromptTemplate,
        chat_prompt.ChatPromptTemplate,
        chat_prompts.SystemMessagePromptTemplate,
        chat_prompts.HumanMessagePromptTemplate,
        chat_prompts.AIMessagePromptTemplate,
        chat_prompts.MessagesPlaceholder,
    ]
    for cls in concrete:
        assert getattr(cls, "__final__", False), cls
        assert attrs.has(cls) and cls.__setattr__ is not object.__setattr__, cls
    assert not getattr(chat_prompts.BaseMessagePromptTemplate, "__final__", False)  # the abstract base
