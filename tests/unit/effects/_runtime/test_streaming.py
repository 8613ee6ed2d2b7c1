"""Runs in streaming mode: a step that does not stream collects its input with ``+``; closing a stream closes upstream; a root that does not stream by itself marks its output whole."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from combinators import Runnable, RunnableGenerator, RunnableLambda
from combinators.language_models import FakeListChatModel, ParrotFakeChatModel
from combinators.output_parsers import StrOutputParser
from effects.effect_values import RunStreamed
from tests.run_effects import effects_of


def test_closing_a_stream_runs_upstream_finally_blocks() -> None:
    closed: list[str] = []

    def source(_: Iterator[object]) -> Iterator[int]:
        try:
            yield from range(100)
        finally:
            closed.append("source")

    def passthrough(chunks: Iterator[int]) -> Iterator[int]:
        try:
            yield from chunks
        finally:
            closed.append("middle")

    stream = (RunnableGenerator(source) | RunnableGenerator(passthrough)).stream(None)
    assert next(stream) == 0
    stream.close()
    assert closed == ["source", "middle"] or closed == ["middle", "source"]
    assert len(closed) == 2


def test_non_streaming_step_collects_its_input_with_plus() -> None:
    def chunks(_: Iterator[object]) -> Iterator[str]:
        yield from ("a", "b", "c")

    chain = RunnableGenerator(chunks) | RunnableLambda(str.upper)
    assert list(chain.stream(None)) == ["ABC"]


def test_only_a_root_that_does_not_stream_by_itself_marks_its_output_whole() -> None:
    # Issue 26: the mark v2 reads to show no stream events for such a root, as the peer.
    def marks(chain: Runnable[Any, Any], value: object) -> dict[str, tuple[bool, int]]:
        seen: dict[str, tuple[bool, int]] = {}
        for effect in effects_of(chain, value):
            whole, count = seen.get(effect.run.name, (effect.run.whole_output, 0))
            seen[effect.run.name] = (whole, count + (type(effect) is RunStreamed))
        return seen

    assert marks(ParrotFakeChatModel(), "hi") == {"ParrotFakeChatModel": (True, 1)}
    assert marks(FakeListChatModel(responses=["ab"]), "hi") == {"FakeListChatModel": (False, 2)}
    assert marks(RunnableLambda(str.upper), "hi") == {"upper": (False, 1)}
    nested = marks(RunnableLambda(str.upper) | ParrotFakeChatModel() | StrOutputParser(), "hi")
    assert nested == {
        "RunnableSequence": (False, 1),
        "upper": (False, 1),
        "ParrotFakeChatModel": (False, 0),
        "StrOutputParser": (False, 1),
    }
