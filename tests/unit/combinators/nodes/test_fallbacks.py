"""``RunnableWithFallbacks``: what each fallback is given and what is raised when all fail.
The fallback promises (no mutation, handled types only, streams, batches) are in
``tests/reliability/test_fallbacks.py``."""

from __future__ import annotations

from typing import Any

import pytest

from combinators import RunnableLambda
from tests.reliability.test_fallbacks import fail_with


def test_fallbacks_see_the_original_input() -> None:
    seen: list[Any] = []

    def record(x: Any) -> str:
        seen.append(x)
        return "ok"

    r = fail_with(ValueError("a")).with_fallbacks([fail_with(KeyError("b")), RunnableLambda(record)])
    assert r.invoke({"q": 1}) == "ok"
    assert seen == [{"q": 1}]


def test_all_failing_raises_the_primary_error_with_the_others_recorded() -> None:
    r = fail_with(ValueError("primary")).with_fallbacks([fail_with(KeyError("second")), fail_with(TypeError("third"))])
    with pytest.raises(ValueError, match="primary") as info:
        r.invoke(1)
    assert info.value.__notes__ == [
        "fallback 1 failed: KeyError: 'second'",
        "fallback 2 failed: TypeError: third",
    ]


def test_inside_a_chain_fallbacks_show_no_stream_events_of_their_own() -> None:
    # As the peer's: the chosen candidate's run shows the chunks; the wrapper's run
    # only starts and ends (at the root its chunks are the output, so they show).
    def broken(x: str) -> str:
        raise ValueError(x)

    guarded = RunnableLambda(broken).with_fallbacks([RunnableLambda(str.upper)])
    chain = RunnableLambda(str.strip) | guarded
    for version in ("v1", "v2"):
        streamed = [e["name"] for e in chain.stream_events(" a ", version=version) if e["event"] == "on_chain_stream"]
        assert streamed == ["strip", "upper", "RunnableSequence"]
        alone = [e["name"] for e in guarded.stream_events("a", version=version) if e["event"] == "on_chain_stream"]
        assert alone == ["upper", "RunnableWithFallbacks"]


def _to_text(x: int) -> str:
    return str(x)


def _from_float(x: float) -> bytes:
    return b""


def test_fallbacks_declare_the_primarys_types() -> None:
    # As langchain-core 1.8.3: the primary's schemas (titles included), whatever the fallbacks take.
    both = RunnableLambda(_to_text).with_fallbacks([RunnableLambda(_from_float)])
    assert both.declared_type("input") is int and both.declared_type("output") is str
    assert both.input_schema() == {"title": "_to_text_input", "type": "integer"}
    assert both.output_schema() == {"title": "_to_text_output", "type": "string"}


def test_fallbacks_ask_the_fallbacks_when_the_primary_does_not_say() -> None:
    untyped: RunnableLambda[Any, Any] = RunnableLambda(lambda x: x)
    either = untyped.with_fallbacks([RunnableLambda(_to_text), RunnableLambda(_from_float)])
    assert either.declared_type("input") is int and either.declared_type("output") is str
