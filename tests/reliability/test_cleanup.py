"""However a consumer stops, a run leaves nothing behind.

Over random chains (with scripted failures) and random stop points, for every way of
watching a run (``astream_events`` v1 and v2, ``astream_log``, ``astream``,
``astream_effects`` and their sync forms): the event loop gets no report (no task
exception left unretrieved, no error while closing an async generator), no async
generator is left suspended for the loop to close later, no task is left pending, no
error is raised where nobody can see it (unraisable, thread), and no producer thread
outlives the call.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combinators import Runnable, RunnableLambda, RunnableParallel
from combinators.testing import inputs_for, runnables
from tests.reliability.leftovers import Leftovers

Mode = Literal["all", "close", "abandon", "cancel"]
MODES: tuple[Mode, ...] = ("all", "close", "abandon", "cancel")

ASYNC_FORMS: dict[str, Callable[[Runnable[Any, Any], object], AsyncIterator[Any]]] = {
    "astream_events": lambda chain, x: chain.astream_events(x),
    "astream_events_v1": lambda chain, x: chain.astream_events(x, version="v1"),
    "astream_log": lambda chain, x: chain.astream_log(x),
    "astream": lambda chain, x: chain.astream(x),
    "astream_effects": lambda chain, x: chain.astream_effects(x),
}
SYNC_FORMS: dict[str, Callable[[Runnable[Any, Any], object], Iterator[Any]]] = {
    "stream_events": lambda chain, x: chain.stream_events(x),
    "stream_log": lambda chain, x: chain.stream_log(x),
    "stream": lambda chain, x: chain.stream(x),
    "stream_effects": lambda chain, x: chain.stream_effects(x),
}

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


async def consume(leftovers: Leftovers, source: AsyncIterator[Any], stop: int, mode: Mode) -> int:
    """Read ``source`` and stop after ``stop`` items the way ``mode`` says."""
    seen = 0
    if mode == "cancel":
        reached = asyncio.Event()

        async def reader() -> None:
            nonlocal seen
            async for _ in source:
                seen += 1
                if seen >= stop:
                    reached.set()

        task = asyncio.ensure_future(reader())
        waiter = asyncio.ensure_future(reached.wait())
        await asyncio.wait([task, waiter], return_when=asyncio.FIRST_COMPLETED)
        task.cancel()
        waiter.cancel()
        await asyncio.gather(task, waiter, return_exceptions=True)
        leftovers.abandon(source)  # a cancelled `async for` leaves its iterator to the loop
        return seen
    try:
        async for _ in source:
            seen += 1
            if mode != "all" and seen >= stop:
                break
    except Exception:
        pass
    if mode == "abandon":
        leftovers.abandon(source)
    else:
        await source.aclose()  # type: ignore[attr-defined]
    return seen


def check_async(form: str, chain: Runnable[Any, Any], input: object, stop: int, mode: Mode) -> None:
    with Leftovers() as leftovers:

        async def work() -> int:
            return await consume(leftovers, ASYNC_FORMS[form](chain, input), stop, mode)

        leftovers.run(work)
    assert leftovers.problems() == [], f"{form} of {chain!r} on {input!r}, {mode} after {stop}"


def check_sync(form: str, chain: Runnable[Any, Any], input: object, stop: int, mode: Mode) -> None:
    before = {t for t in threading.enumerate() if t.name == "combinators-observe"}
    with Leftovers() as leftovers:
        source = SYNC_FORMS[form](chain, input)
        seen = 0
        try:
            for _ in source:
                seen += 1
                if mode != "all" and seen >= stop:
                    break
        except Exception:
            pass
        if mode in ("close", "cancel"):
            source.close()  # type: ignore[attr-defined]
        del source
    after = {t for t in threading.enumerate() if t.name == "combinators-observe"}
    assert leftovers.problems() == [], f"{form} of {chain!r} on {input!r}, {mode} after {stop}"
    assert after <= before, "a producer thread outlived its call"


@pytest.mark.parametrize("form", sorted(ASYNC_FORMS) + sorted(SYNC_FORMS))
def test_every_form_leaves_nothing_behind(form: str) -> None:
    run_check = check_async if form in ASYNC_FORMS else check_sync

    @SETTINGS
    @given(runnables(max_leaves=6, failures=True), st.data(), st.integers(0, 12), st.sampled_from(MODES))
    def check(chain: Runnable[Any, Any], data: st.DataObject, stop: int, mode: Mode) -> None:
        run_check(form, chain, data.draw(inputs_for(chain), label="input"), stop, mode)

    check()


# -- the cases found, kept as plain examples ---------------------------------------------


def _fails(x: int) -> int:
    raise ValueError(f"failed on {x}")


def _slowly(x: int) -> Iterator[int]:
    yield from range(x)


@pytest.mark.parametrize("form", sorted(ASYNC_FORMS))
def test_a_consumer_that_stops_after_the_run_failed(form: str) -> None:
    # The run has already failed when the consumer stops: its error must still be read.
    chain = RunnableParallel(a=RunnableLambda(_fails), b=RunnableLambda(_slowly)) | RunnableLambda(str)
    for mode in MODES:
        for stop in (0, 1, 2, 3):
            check_async(form, chain, 3, stop, mode)


def test_a_retried_stream_closed_after_its_first_chunk() -> None:
    chain = RunnableLambda(_slowly).with_retry(stop_after_attempt=2, wait_exponential_jitter=False)
    for form in ASYNC_FORMS:
        check_async(form, chain, 5, 1, "close")
