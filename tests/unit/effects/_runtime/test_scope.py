"""The runtime's scope (``RunScope``): when it lets a step's children run inline, and when they could
wait (a permit, a deadline, a listener that may hand back an awaitable) so none does."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import attrs
import pytest

from combinators import RunConfig, Runnable
from effects.authoring import Scope


@attrs.frozen
class Inline(Runnable[int, bool]):
    """Reports whether its scope lets children run inline."""

    def step_invoke(self, input: int, scope: Scope, kwargs: Mapping[str, Any]) -> bool:
        return scope.runs_inline

    async def step_ainvoke(self, input: int, scope: Scope, kwargs: Mapping[str, Any]) -> bool:
        return scope.runs_inline


def test_children_run_inline_when_nothing_makes_them_wait() -> None:
    assert Inline().invoke(0) is True
    assert Inline().invoke(0, {"tags": ["t"]}) is True
    # observed (events, a log) is not waiting: the observers take effects as they come
    assert [e["data"]["output"] for e in Inline().stream_events(0) if e["event"] == "on_chain_end"] == [True]


@pytest.mark.parametrize(
    "config",
    [RunConfig(max_concurrency=3), RunConfig(timeout=60)],
    ids=["a max_concurrency permit", "a deadline"],
)
def test_children_do_not_run_inline_under_a_limit(config: RunConfig) -> None:
    assert Inline().invoke(0, config) is False
    assert asyncio.run(Inline().ainvoke(0, config)) is False


async def test_children_do_not_run_inline_under_listeners() -> None:
    async def listen(run: object) -> None:
        return None

    # A listener may hand back an awaitable (whatever its function looks like), which the
    # runtime awaits before the run goes on: its children could wait, so none runs inline.
    assert await Inline().with_listeners(on_end=listen).ainvoke(0) is False
    assert await Inline().with_listeners(on_end=lambda run: None).ainvoke(0) is False
