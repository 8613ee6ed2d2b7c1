"""RunConfig coercion and merge rules; JSON schemas from types; @chain; custom runnables."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from typing import Any, NotRequired, TypedDict, TypeVar
from uuid import UUID

import attrs
import pytest

from combinators import (
    RunConfig,
    Runnable,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
    chain,
)
from effects import Scope, merge_configs


def test_langchain_shaped_dicts_coerce_and_unknown_keys_become_configurable() -> None:
    config = RunConfig.coerce(
        {"tags": ["a"], "metadata": {"m": 1}, "run_name": "r", "user_id": "u", "recursion_limit": 7}
    )
    assert config.tags == ("a",)
    assert dict(config.metadata) == {"m": 1}
    assert config.run_name == "r"
    assert dict(config.configurable) == {"user_id": "u"}
    assert config.recursion_limit == 7
    assert RunConfig.coerce({"run_id": "00000000-0000-0000-0000-000000000001"}).run_id == UUID(int=1)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"tags": "a"}, "must be a list of str"),
        ({"metadata": []}, "must be a dict"),
        ({"max_concurrency": "2"}, "must be int"),
        ({"timeout": "soon"}, "number of seconds"),
    ],
)
def test_bad_config_values_are_clear_errors(given: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        RunConfig.coerce(given)


def test_a_callbacks_entry_is_kept_for_the_call_and_never_handed_down() -> None:
    handlers = [object()]
    config = RunConfig.coerce({"callbacks": handlers})
    assert config.callbacks is handlers and config["callbacks"] is handlers
    assert config.for_children().callbacks is None


def test_config_values_are_validated() -> None:
    with pytest.raises(ValueError, match="max_concurrency must be at least 1"):
        RunConfig(max_concurrency=0)
    with pytest.raises(ValueError, match="timeout"):
        RunConfig(timeout=-1)
    with pytest.raises(TypeError, match="RunConfig or a dict"):
        RunConfig.coerce(3)


def test_merge_rules() -> None:
    bound = RunConfig(tags=("z", "a"), metadata={"k": 1, "j": 1}, recursion_limit=10, timeout=3.0)
    call = RunConfig(tags=("b",), metadata={"k": 2}, configurable={"c": 1}, timeout=5.0)
    merged = merge_configs(bound, call)
    assert merged.tags == ("a", "b", "z")  # sorted union
    assert dict(merged.metadata) == {"k": 2, "j": 1}  # the call wins
    assert merged.recursion_limit == 10  # a default 25 does not override
    assert merged.timeout == 3.0  # the earlier deadline
    assert merge_configs(bound, RunConfig(recursion_limit=3)).recursion_limit == 3


def add(x: int) -> int:
    return x + 1


class Query(TypedDict):
    text: str
    k: int


def search(q: Query) -> list[str]:
    return [q["text"]] * q["k"]


def test_schemas_come_from_the_types() -> None:
    assert RunnableLambda(add).input_schema() == {"title": "add_input", "type": "integer"}
    assert RunnableLambda(search).input_schema()["properties"] == {
        "text": {"type": "string"},
        "k": {"type": "integer"},
    }
    seq = RunnableLambda(add) | RunnableLambda(str)
    assert seq.input_schema()["type"] == "integer"
    par = RunnableParallel(a=RunnableLambda(add), b=RunnableLambda(search))
    out = par.output_schema()
    assert out["title"] == "RunnableParallel<a,b>Output"
    assert out["properties"]["a"] == {"type": "integer", "title": "A"}
    assert out["properties"]["b"] == {"type": "array", "items": {"type": "string"}, "title": "B"}
    typed = RunnableLambda(lambda x: x).with_types(input_type=Query, output_type=int)
    assert typed.input_schema()["required"] == ["text", "k"]
    assert typed.output_schema() == {"title": "RunnableLambdaOutput", "type": "integer"}


def test_a_fan_out_takes_the_input_type_of_its_first_declared_branch() -> None:
    # The quickstart's shape: a retriever-like branch and a passthrough; the playground
    # and the served schema then show a text box, as the peer's do.
    from combinators import RunnablePassthrough

    def lookup(question: str) -> list[str]:
        return [question]

    fan = RunnableParallel(question=RunnablePassthrough(), context=RunnableLambda(lookup))
    assert fan.input_schema() == {"title": "RunnableParallel<question,context>Input", "type": "string"}
    assert (fan | RunnableLambda(str)).input_schema()["type"] == "string"
    untyped = RunnableParallel(a=RunnablePassthrough(), b=RunnablePassthrough())
    assert "type" not in untyped.input_schema()
    first = RunnableParallel(a=RunnableLambda(add), b=RunnableLambda(lookup))
    assert first.input_schema()["type"] == "integer"


def test_chain_decorator_makes_a_named_runnable() -> None:
    @chain
    def shout(text: str) -> str:
        return text.upper()

    @chain
    async def whisper(text: str) -> str:
        return text.lower()

    assert shout.invoke("a") == "A" and shout.name == "shout"
    assert asyncio.run(whisper.ainvoke("B")) == "b"


def test_pipe_method_names_the_sequence() -> None:
    seq = RunnableLambda(add).pipe(add, name="add_twice")
    assert seq.invoke(1) == 3
    assert seq.name == "add_twice"
    assert RunnableSequence.from_([RunnableLambda(add), RunnableLambda(add)]).invoke(0) == 2


@attrs.frozen
class Repeat(Runnable[str, str]):
    """A user-written runnable: the documented hook is step_invoke (step_stream optional)."""

    times: int

    def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> str:
        return input * self.times

    def step_stream(self, inputs: Iterator[str], scope: Scope, kwargs: Mapping[str, Any]) -> Iterator[str]:
        for chunk in inputs:
            for _ in range(self.times):
                yield chunk


def test_writing_your_own_runnable() -> None:
    r = Repeat(2)
    assert r.invoke("ab") == "abab"
    assert list(r.stream("ab")) == ["ab", "ab"]
    assert asyncio.run(r.ainvoke("x")) == "xx"
    assert r.batch(["a", "b"]) == ["aa", "bb"]
    composed = RunnableLambda(str.strip) | r | RunnableLambda(len)
    assert composed.invoke(" ab ") == 4
    events = asyncio.run(_events(composed, " ab "))
    assert ("on_chain_start", "Repeat") in events


async def _events(r: Runnable[Any, Any], x: Any) -> list[tuple[str, str]]:
    return [(e["event"], e["name"]) async for e in r.astream_events(x)]


def test_a_runnable_with_no_hook_says_what_to_implement() -> None:
    @attrs.frozen
    class Nothing(Runnable[int, int]):
        pass

    with pytest.raises(NotImplementedError, match="must implement step_invoke or step_stream"):
        Nothing().invoke(1)


class Partial(TypedDict):
    name: str
    note: NotRequired[str]


def test_typeddict_not_required_keys_are_optional_under_future_annotations() -> None:
    from combinators._support.type_schema import type_schema

    schema = type_schema(Partial)
    assert schema["required"] == ["name"]
    assert schema["properties"] == {"name": {"type": "string"}, "note": {"type": "string"}}


_Kept = TypeVar("_Kept")


class _Base(Runnable[str, _Kept]):
    """A library-style base generic in its output only, as ``LanguageModel`` is."""

    def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> _Kept:
        raise NotImplementedError


class _Counts(_Base[int]):
    def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> int:
        return len(input)


class _CountsAgain(_Counts):
    """No type arguments of its own: its base's bindings stand."""


def test_a_generic_base_s_parameters_are_bound_through_to_runnable() -> None:
    # Regression: a base of one parameter over Runnable[str, _Kept] used to make the
    # schema look for a second argument on _Base[int] (IndexError).
    assert _Counts().input_schema() == {"title": "_Counts_input", "type": "string"}
    assert _Counts().output_schema() == {"title": "_Counts_output", "type": "integer"}
    assert _CountsAgain().output_schema()["type"] == "integer"
    assert "type" not in _Base[int]().output_schema()  # unbound at the class: nothing is declared
    assert _CountsAgain().invoke("four") == 4
