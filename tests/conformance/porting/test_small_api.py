"""Issue 13: the smaller API ported code uses (parsers, stores, models, schemas, config helpers)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from combinators import RunnableLambda, aadd, add, ensure_config, get_config_list, patch_config, run_in_executor
from combinators.addable import AddableDict
from combinators.embeddings import HashedNgramEmbeddings
from combinators.language_models import FakeListChatModel
from combinators.messages import AIMessage
from combinators.output_parsers import (
    BaseOutputParser,
    JsonOutputParser,
    OutputParserError,
    parse_and_check_json_markdown,
)
from combinators.outputs import ChatGeneration, Generation
from combinators.vectorstores import InMemoryVectorStore
from effects.config import RunConfig
from effects.errors import InputError


def test_json_parser_parse_result_and_partial_results() -> None:
    parser = JsonOutputParser()
    assert parser.parse_result([Generation('{"a": 1}')]) == {"a": 1}
    assert parser.parse_result([ChatGeneration(AIMessage('```json\n{"b": [1, 2'))], partial=True) == {"b": [1, 2]}
    assert parser.parse_result([Generation("not json")], partial=True) is None
    assert parser.parse_partial_result([Generation('{"c": "x')]) == {"c": "x"}
    with pytest.raises(OutputParserError, match="Invalid json output"):
        parser.parse_result([Generation("not json")])


def test_parse_and_check_json_markdown() -> None:
    assert parse_and_check_json_markdown('```json\n{"a": 1, "b": 2}\n```', ["a", "b"]) == {"a": 1, "b": 2}
    with pytest.raises(OutputParserError, match="Expected key `b`"):
        parse_and_check_json_markdown('{"a": 1}', ["b"])
    with pytest.raises(OutputParserError, match="Expected JSON object"):
        parse_and_check_json_markdown("[1]", [])
    with pytest.raises(OutputParserError, match="invalid JSON object"):
        parse_and_check_json_markdown("nope", [])


class CommaList(BaseOutputParser[list[str]]):
    separator: str = ","

    def parse(self, text: str) -> list[str]:
        return [part.strip() for part in text.split(self.separator)]


def test_a_subclassed_output_parser() -> None:
    parser = CommaList(separator=";")
    assert parser.invoke("a; b") == ["a", "b"]
    assert parser.invoke(AIMessage("x;y")) == ["x", "y"]
    assert parser.parse_result([Generation("c;d")]) == ["c", "d"]
    assert (FakeListChatModel(["p, q"]) | CommaList()).invoke("?") == ["p", "q"]
    assert asyncio.run(parser.aparse("1;2")) == ["1", "2"]
    with pytest.raises(InputError, match="CommaList expects a str or a message, got int"):
        parser.invoke(3)  # type: ignore[arg-type]

    async def kinds() -> list[str]:
        return [e["event"] async for e in (FakeListChatModel(["p, q"]) | CommaList()).astream_events("?")]

    assert "on_parser_end" in asyncio.run(kinds())


def test_vector_store_from_texts() -> None:
    store = InMemoryVectorStore.from_texts(
        ["fog rolls in", "sun shines"], HashedNgramEmbeddings(), metadatas=[{"n": 1}, {"n": 2}], ids=["f", "s"]
    )
    assert [d.id for d in store.documents] == ["f", "s"]
    assert store.similarity_search("fog", k=1)[0].metadata == {"n": 1}
    with pytest.raises(ValueError, match="2 texts but 1 metadatas"):
        InMemoryVectorStore.from_texts(["a", "b"], HashedNgramEmbeddings(), metadatas=[{}])


def _size(text: str) -> int:
    return len(text)


def test_schemas_take_a_config() -> None:
    step = RunnableLambda(_size)
    assert step.get_input_schema({"tags": ["x"]}) == step.input_schema() == {"title": "_size_input", "type": "string"}
    assert step.get_output_schema() == {"title": "_size_output", "type": "integer"}
    assert step.get_input_jsonschema() == step.input_schema()


def test_config_helpers() -> None:
    def seen(x: int) -> RunConfig:
        return ensure_config({"metadata": {"k": 1}})

    inside = RunnableLambda(seen).invoke(1, {"tags": ["outer"]})
    assert inside.tags == ("outer",) and dict(inside.metadata) == {"k": 1}
    assert ensure_config().tags == ()
    assert patch_config({"tags": ["a"]}, max_concurrency=3, configurable={"m": 1}) == RunConfig(
        tags=("a",), max_concurrency=3, configurable={"m": 1}
    )
    assert get_config_list({"tags": ["a"]}, 2) == [RunConfig(tags=("a",))] * 2
    assert asyncio.run(run_in_executor(None, sum, [1, 2])) == 3
    config = RunConfig(tags=("t",))
    assert config["tags"] == ["t"] and config.get("callbacks") is None and config["callbacks"] is None


def test_add_and_aadd() -> None:
    assert add(["a", "b"]) == "ab" and add([]) is None
    assert add([AddableDict(a="x"), AddableDict(a="y", b=1)]) == {"a": "xy", "b": 1}

    async def parts() -> Any:
        for part in ([1], [2]):
            yield part

    assert asyncio.run(aadd(parts())) == [1, 2]


def test_the_config_a_function_receives_reads_as_the_peer_s_dict() -> None:
    from combinators import RunnableLambda

    seen: dict[str, object] = {}

    def read(x: int, config: RunConfig) -> int:
        seen["tags"] = config["tags"]
        seen["user"] = config["configurable"]["user_id"]
        seen["copy"] = {**config}["metadata"]
        seen["dict"] = dict(config)["recursion_limit"]
        seen["get"] = config.get("configurable")
        with pytest.raises(TypeError, match=r"with_config\(tags=...\).*patch_config"):
            config["tags"] = ["changed"]  # immutable on purpose
        return x

    plain_dict = {"tags": ["t"], "metadata": {"m": 1}, "configurable": {"user_id": 7}}
    assert RunnableLambda(read).invoke(1, plain_dict) == 1
    assert seen == {"tags": ["t"], "user": 7, "copy": {"m": 1}, "dict": 25, "get": {"user_id": 7}}
