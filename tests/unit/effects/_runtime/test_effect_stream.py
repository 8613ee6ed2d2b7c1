"""The effect stream every projection folds over: a step that does not stream never holds back the
events before it, the effects of a failed run all arrive before its error, and a consumer that
leaves early cancels the run with everything under it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from combinators import Runnable, RunnableGenerator, RunnableLambda
from tests.unit.effects.projections.test_projections_live_events import check_well_nested


def test_a_streaming_step_is_not_held_back_by_a_later_non_streaming_step() -> None:
    gate = asyncio.Event

    async def main() -> list[str]:
        release = gate()

        async def tokens(_: AsyncIterator[object]) -> AsyncIterator[str]:
            for token in ("a", "b", "c"):
                yield token
            await release.wait()  # the source stalls before it finishes

        def count(text: str) -> int:  # does not stream: needs the whole input
            return len(text)

        chain = RunnableGenerator(tokens) | RunnableLambda(count)
        seen: list[str] = []
        stream = chain.astream_events(None)
        async for event in stream:
            seen.append(event["event"] + ":" + event["name"])
            if seen.count("on_chain_stream:tokens") == 3:
                release.set()  # every token event arrived while the chain was not done
        return seen

    seen = asyncio.run(main())
    third_token = [i for i, s in enumerate(seen) if s == "on_chain_stream:tokens"][2]
    assert third_token < seen.index("on_chain_end:count")
    assert seen[-1] == "on_chain_end:RunnableSequence"


def test_consumer_leaving_early_cancels_the_run() -> None:
    cleaned: list[str] = []

    async def forever(_: AsyncIterator[object]) -> AsyncIterator[int]:
        try:
            i = 0
            while True:
                yield i
                i += 1
                await asyncio.sleep(0)
        finally:
            cleaned.append("source")

    async def main() -> set[asyncio.Task[Any]]:
        before = asyncio.all_tasks()
        stream = RunnableGenerator(forever).astream_events(None)
        async for event in stream:
            if event["event"] == "on_chain_stream":
                break
        await stream.aclose()  # type: ignore[attr-defined]
        return asyncio.all_tasks() - before

    assert asyncio.run(main()) == set()
    assert cleaned == ["source"]


def test_a_failing_step_ends_with_error_events_before_the_exception() -> None:
    def boom(x: int) -> int:
        raise ValueError("boom")

    chain = RunnableLambda(abs) | RunnableLambda(boom)
    seen: list[str] = []

    async def main() -> None:
        async for event in chain.astream_events(1):
            seen.append(f"{event['event']}:{event['name']}")

    with pytest.raises(ValueError, match="boom"):
        asyncio.run(main())
    assert seen[-2:] == ["on_chain_error:boom", "on_chain_error:RunnableSequence"]
    check_well_nested(events_v2_until_error(chain, 1))


def events_v2_until_error(chain: Runnable[Any, Any], value: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    async def main() -> None:
        async for event in chain.astream_events(value):
            out.append(dict(event))

    try:
        asyncio.run(main())
    except Exception:
        pass
    return out
