"""Runs in streaming mode: a step that does not stream collects its input with ``+``; closing a stream closes upstream."""

from __future__ import annotations

from collections.abc import Iterator

from combinators import RunnableGenerator, RunnableLambda


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
