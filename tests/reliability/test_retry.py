"""Retry promises: exact attempts, never BaseException, waits on the injected clock,
notes of earlier attempts, per-item batch retry in the right slots, streams before
their first chunk only."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators import ExponentialWait, FixedWait, RetryPolicy, RunnableGenerator, RunnableLambda
from effects import FakeClock, use_clock


class Script:
    """Fails the first ``failures[x]`` calls for input ``x`` (explicit, documented state)."""

    def __init__(self, failures: dict[int, int]) -> None:
        self.failures = dict(failures)
        self.calls: list[int] = []

    def __call__(self, x: int) -> int:
        self.calls.append(x)
        if self.failures.get(x, 0) > 0:
            self.failures[x] -= 1
            raise ConnectionError(f"scripted failure for {x}")
        return x * 10


@given(st.integers(min_value=1, max_value=6), st.integers(min_value=0, max_value=8))
def test_exactly_the_configured_number_of_attempts(max_attempts: int, failures: int) -> None:
    script = Script({1: failures})
    r = RunnableLambda(script).with_retry(RetryPolicy(max_attempts=max_attempts))
    if failures < max_attempts:
        assert r.invoke(1) == 10
        assert len(script.calls) == failures + 1
    else:
        with pytest.raises(ConnectionError) as info:
            r.invoke(1)
        assert len(script.calls) == max_attempts
        notes = getattr(info.value, "__notes__", [])
        assert len(notes) == max_attempts - 1
        assert all(n.startswith(f"attempt {i} failed: ConnectionError") for i, n in enumerate(notes, 1))


@pytest.mark.parametrize("error", [KeyboardInterrupt(), asyncio.CancelledError(), SystemExit(1)])
def test_base_exceptions_are_never_retried(error: BaseException) -> None:
    calls: list[int] = []

    def raising(x: int) -> int:
        calls.append(x)
        raise error

    r = RunnableLambda(raising).with_retry(retry_if_exception_type=(BaseException,))
    with pytest.raises(type(error)):
        r.invoke(1)
    assert calls == [1]


def test_waits_come_from_the_injected_clock_exactly() -> None:
    clock = FakeClock(seed=0)
    script = Script({1: 3})
    policy = RetryPolicy(max_attempts=4, wait=ExponentialWait(initial=1.0, exp_base=2.0, jitter=0.0))
    with use_clock(clock):
        assert RunnableLambda(script).with_retry(policy).invoke(1) == 10
    assert clock.sleeps == [1.0, 2.0, 4.0]


def test_jitter_uses_the_injected_random_source() -> None:
    def sleeps(seed: int) -> list[float]:
        clock = FakeClock(seed=seed)
        policy = RetryPolicy(max_attempts=3, wait=ExponentialWait(initial=1.0, jitter=1.0))
        with use_clock(clock):
            RunnableLambda(Script({1: 2})).with_retry(policy).invoke(1)
        return clock.sleeps

    first, again = sleeps(7), sleeps(7)
    assert first == again
    assert 1.0 <= first[0] < 2.0 and 2.0 <= first[1] < 3.0


def test_max_delay_stops_before_waiting_too_long() -> None:
    clock = FakeClock()
    script = Script({1: 5})
    policy = RetryPolicy(max_attempts=10, wait=FixedWait(2.0), max_delay=5.0)
    with use_clock(clock), pytest.raises(ConnectionError):
        RunnableLambda(script).with_retry(policy).invoke(1)
    assert clock.sleeps == [2.0, 2.0]
    assert len(script.calls) == 3


def test_async_waits_use_the_clock_too() -> None:
    clock = FakeClock()
    script = Script({1: 2})

    async def main() -> int:
        policy = RetryPolicy(max_attempts=3, wait=FixedWait(0.5))
        return await RunnableLambda(script).with_retry(policy).ainvoke(1)

    with use_clock(clock):
        assert asyncio.run(main()) == 10
    assert clock.sleeps == [0.5, 0.5]


@given(
    st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=15),
    st.sampled_from([None, 1, 3]),
    st.booleans(),
)
def test_batch_retries_only_failed_items_and_keeps_slots(
    failure_counts: list[int], max_concurrency: int | None, use_async: bool
) -> None:
    script = Script(dict(enumerate(failure_counts)))
    r = RunnableLambda(script).with_retry(RetryPolicy(max_attempts=3))
    inputs = list(range(len(failure_counts)))
    config = {"max_concurrency": max_concurrency}
    if use_async:
        out = asyncio.run(r.abatch(inputs, config, return_exceptions=True))
    else:
        out = r.batch(inputs, config, return_exceptions=True)
    assert len(out) == len(inputs)
    for i, (count, result) in enumerate(zip(failure_counts, out, strict=True)):
        if count < 3:
            assert result == i * 10
        else:
            assert isinstance(result, ConnectionError) and str(result) == f"scripted failure for {i}"
        assert script.calls.count(i) == min(count + 1, 3)


def test_stream_is_retried_before_its_first_chunk_only() -> None:
    attempts: list[int] = []

    def flaky_before(chunks: Iterator[str]) -> Iterator[str]:
        attempts.append(1)
        text = "".join(chunks)
        if len(attempts) < 3:
            raise ConnectionError("before first chunk")
        yield from text

    r = RunnableGenerator(flaky_before).with_retry(wait_exponential_jitter=False)
    assert list(r.stream("abc")) == ["a", "b", "c"]
    assert len(attempts) == 3

    def flaky_after(chunks: Iterator[str]) -> Iterator[str]:
        attempts.append(2)
        yield "first"
        raise ConnectionError("after first chunk")

    got: list[str] = []
    with pytest.raises(ConnectionError, match="after first chunk"):
        for chunk in RunnableGenerator(flaky_after).with_retry(wait_exponential_jitter=False).stream("x"):
            got.append(chunk)
    assert got == ["first"]  # nothing duplicated
    assert attempts.count(2) == 1
