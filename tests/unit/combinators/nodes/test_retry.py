"""``RunnableRetry``: what is retried, the hook, the attempts' tags and the peer's whole-batch retry.
The retry promises (exact attempts, waits, notes, streams) are in ``tests/reliability/test_retry.py``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from combinators import RunnableLambda
from tests.reliability.test_retry import Script


def test_predicate_chooses_what_is_retried() -> None:
    script = Script({1: 1})
    only_value_errors = RunnableLambda(script).with_retry(
        retry_if_exception_type=lambda e: isinstance(e, ValueError), wait_exponential_jitter=False
    )
    with pytest.raises(ConnectionError):
        only_value_errors.invoke(1)
    assert script.calls == [1]


def test_on_failed_attempt_hook_sees_error_input_and_attempt() -> None:
    seen: list[tuple[str, Any, int]] = []
    r = RunnableLambda(Script({4: 2})).with_retry(
        wait_exponential_jitter=False,
        on_failed_attempt=lambda e, x, n: seen.append((type(e).__name__, x, n)),
    )
    assert r.invoke(4) == 40
    assert seen == [("ConnectionError", 4, 1), ("ConnectionError", 4, 2)]


def test_attempts_after_the_first_are_tagged_in_events() -> None:
    script = Script({1: 2})
    r = RunnableLambda(script).with_retry(wait_exponential_jitter=False)

    async def main() -> list[tuple[str, list[str]]]:
        return [(e["event"], list(e["tags"])) async for e in r.astream_events(1) if e["event"] == "on_chain_start"]

    starts = asyncio.run(main())
    assert starts[0][1] == []  # the retry run itself
    attempt_tags = [tags for _, tags in starts[1:]]
    assert attempt_tags == [[], ["retry:attempt:2"], ["retry:attempt:3"]]


@pytest.mark.parametrize("use_async", [False, True])
def test_a_batch_is_retried_as_a_whole_when_its_first_error_in_input_order_is_retryable(use_async: bool) -> None:
    calls: list[int] = []

    def check(x: int) -> int:
        calls.append(x)
        if x == 1:
            raise ValueError("x is 1")
        if x == 2:
            raise RuntimeError("x is 2")
        return x

    retried = RunnableLambda(check).with_retry(
        stop_after_attempt=2, wait_exponential_jitter=False, retry_if_exception_type=(ValueError,)
    )

    def run(inputs: list[int]) -> list[int | Exception]:
        if use_async:
            return asyncio.run(retried.abatch(inputs, return_exceptions=True))
        return retried.batch(inputs, return_exceptions=True)

    # The first error (ValueError) is retryable: both failed inputs run again, 3 + 2 calls.
    out = run([1, 2, 0])
    assert sorted(calls) == [0, 1, 1, 2, 2]
    assert [type(o).__name__ for o in out] == ["ValueError", "RuntimeError", "int"] and out[2] == 0
    # The first error (RuntimeError) is not: nothing runs again, the ValueError included.
    calls.clear()
    out = run([2, 1, 0])
    assert sorted(calls) == [0, 1, 2]
    assert [type(o).__name__ for o in out] == ["RuntimeError", "ValueError", "int"]
    # Without return_exceptions the first error in input order is raised.
    calls.clear()
    with pytest.raises(ValueError, match="x is 1"):
        retried.batch([1, 2, 0])
    assert len(calls) == 5


def _runs(events: list[Any]) -> list[tuple[str, str, list[str], int]]:
    """(event, name, sorted tags, depth) of each start, stream and end event (v2)."""
    shown = ("on_chain_start", "on_chain_stream", "on_chain_end", "on_chain_error")
    return [(e["event"], e["name"], sorted(e["tags"]), len(e["parent_ids"])) for e in events if e["event"] in shown]


@pytest.mark.parametrize("use_async", [False, True])
def test_streamed_inside_a_chain_a_retry_is_its_attempts_runs_at_its_place(use_async: bool) -> None:
    # As the peer's: no run of the retry itself in a stream; the first attempt is the
    # step's run (its seq:step tag), a later one adds retry:attempt:N at the same place.
    script = Script({1: 1})
    chain = RunnableLambda(lambda x: x).with_config(run_name="first") | RunnableLambda(
        script, name="Script"
    ).with_retry(wait_exponential_jitter=False)
    if use_async:

        async def main() -> list[Any]:
            return [e async for e in chain.astream_events(1, version="v2")]

        events = asyncio.run(main())
    else:
        events = list(chain.stream_events(1, version="v2"))
    script_runs = [r for r in _runs(events) if r[1] == "Script"]
    assert script_runs == [
        ("on_chain_start", "Script", ["seq:step:2"], 1),
        ("on_chain_error", "Script", ["seq:step:2"], 1),
        ("on_chain_start", "Script", ["retry:attempt:2", "seq:step:2"], 1),
        ("on_chain_stream", "Script", ["retry:attempt:2", "seq:step:2"], 1),
        ("on_chain_end", "Script", ["retry:attempt:2", "seq:step:2"], 1),
    ]
    assert events[-1]["data"]["output"] == 10


def test_invoked_inside_a_chain_a_retry_is_a_run_with_its_attempts_below() -> None:
    # Invoked, the peer's retry is a run of its own and each attempt a child run.
    script = Script({1: 1})
    retried = RunnableLambda(script, name="Script").with_retry(wait_exponential_jitter=False)
    chain = RunnableLambda(lambda x: retried.invoke(x))
    runs = [r for r in _runs(list(chain.stream_events(1, version="v2"))) if r[1] == "Script"]
    assert [(event, tags, depth) for event, _, tags, depth in runs if event != "on_chain_stream"] == [
        ("on_chain_start", [], 1),
        ("on_chain_start", [], 2),
        ("on_chain_error", [], 2),
        ("on_chain_start", ["retry:attempt:2"], 2),
        ("on_chain_end", ["retry:attempt:2"], 2),
        ("on_chain_end", [], 1),
    ]


def test_retry_declares_what_the_retried_runnable_takes_and_gives() -> None:
    # As langchain-core 1.8.3: f(x: int) -> str retried keeps f's schemas (titles too).
    def f(x: int) -> str:
        return str(x)

    retried = RunnableLambda(f).with_retry()
    assert retried.declared_type("input") is int and retried.declared_type("output") is str
    assert retried.input_schema() == {"title": "f_input", "type": "integer"}
    assert retried.output_schema() == {"title": "f_output", "type": "string"}
