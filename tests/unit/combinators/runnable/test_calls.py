"""batch / abatch / as_completed, config propagation, the shared pool, streaming."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from returns.result import Failure, Success

from combinators import (
    RunConfig,
    RunnableGenerator,
    RunnableLambda,
    RunnableParallel,
    StepTimeout,
)


def inc(x: int) -> int:
    return x + 1


def inverse(x: int) -> float:
    return 1 / x


def test_batch_keeps_order_and_types_exceptions() -> None:
    r = RunnableLambda(inverse)
    assert r.batch([1, 2, 4]) == [1.0, 0.5, 0.25]
    out = r.batch([1, 0, 2], return_exceptions=True)
    assert out[0] == 1.0 and out[2] == 0.5
    assert isinstance(out[1], ZeroDivisionError)
    with pytest.raises(ZeroDivisionError):
        r.batch([1, 0, 2])
    assert r.batch([]) == []


def test_batch_results_are_returns_results() -> None:
    results = RunnableLambda(inverse).batch_results([2, 0])
    assert results[0] == Success(0.5)
    assert isinstance(results[1], Failure)
    assert isinstance(results[1].failure(), ZeroDivisionError)


def test_base_exceptions_are_never_captured_as_results() -> None:
    def stop(x: int) -> int:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        RunnableLambda(stop).batch([1, 2], return_exceptions=True)


def test_batch_configs_list_must_match_inputs() -> None:
    seen: list[tuple[str, ...]] = []

    def tags(x: int, config: RunConfig) -> int:
        seen.append(config.tags)
        return x

    RunnableLambda(tags).batch([1, 2], [{"tags": ["a"]}, {"tags": ["b"]}])
    assert sorted(seen) == [("a",), ("b",)]
    with pytest.raises(ValueError, match="2 configs for 3 inputs"):
        RunnableLambda(tags).batch([1, 2, 3], [{}, {}])


def test_batch_run_id_applies_to_the_first_input_only() -> None:
    import uuid

    given = uuid.uuid4()
    seen: dict[int, uuid.UUID] = {}
    watched = RunnableLambda(inc).with_listeners(on_end=lambda run: seen.update({run.inputs["input"]: run.id}))
    with pytest.warns(RuntimeWarning, match="first input only"):
        assert watched.batch([1, 2], {"run_id": given}) == [2, 3]
    assert seen[1] == given
    assert seen[2] != given and isinstance(seen[2], uuid.UUID)


def test_abatch_order_and_return_exceptions() -> None:
    async def slow_inverse(x: int) -> float:
        await asyncio.sleep(0.001 * (3 - x) if x >= 0 else 0)
        return 1 / x

    r = RunnableLambda(slow_inverse)

    async def main() -> list[float | Exception]:
        return await r.abatch([1, 0, 2], return_exceptions=True)

    out = asyncio.run(main())
    assert out[0] == 1.0 and out[2] == 0.5 and isinstance(out[1], ZeroDivisionError)


def test_batch_as_completed_yields_every_index_once() -> None:
    pairs = list(RunnableLambda(inc).batch_as_completed([10, 20, 30]))
    assert sorted(pairs) == [(0, 11), (1, 21), (2, 31)]

    async def main() -> list[tuple[int, int | Exception]]:
        return [p async for p in RunnableLambda(inc).abatch_as_completed([1, 2], return_exceptions=True)]

    assert sorted(asyncio.run(main()), key=lambda p: p[0]) == [(0, 2), (1, 3)]  # type: ignore[arg-type, return-value]


def test_config_reaches_nested_invokes_through_context() -> None:
    seen: list[RunConfig] = []

    def inner(x: int, config: RunConfig) -> int:
        seen.append(config)
        return x

    def outer(x: int) -> int:
        return RunnableLambda(inner).invoke(x)  # no config passed

    RunnableLambda(outer).invoke(1, {"tags": ["t"], "metadata": {"m": 1}})
    assert seen[0].tags == ("t",)
    assert dict(seen[0].metadata) == {"m": 1}

    async def aouter(x: int) -> int:
        return await RunnableLambda(inner).ainvoke(x)

    asyncio.run(RunnableLambda(aouter).ainvoke(1, {"tags": ["async"]}))
    assert seen[1].tags == ("async",)


def test_run_name_and_run_id_are_not_inherited() -> None:
    seen: list[RunConfig] = []

    def probe(x: int, config: RunConfig) -> int:
        seen.append(config)
        return x

    (RunnableLambda(inc) | RunnableLambda(probe)).invoke(1, {"run_name": "root", "tags": ["x"]})
    assert seen[0].run_name is None and seen[0].run_id is None and seen[0].tags == ("x",)


def test_sync_batch_uses_the_shared_pool_only() -> None:
    def slow(x: int) -> int:
        time.sleep(0.001)
        return x

    r = RunnableLambda(slow)
    r.batch(list(range(20)))  # warm-up may start pool threads
    before = {t.ident for t in threading.enumerate()}
    for _ in range(5):
        r.batch(list(range(20)))
        RunnableParallel(a=r, b=r, c=r).invoke(1)
    after = {t.ident for t in threading.enumerate()}
    assert after <= before


def test_nested_batches_and_parallels_do_not_deadlock() -> None:
    leaf = RunnableLambda(inc)
    middle = RunnableLambda(lambda xs: leaf.batch(list(xs)))
    outer = RunnableLambda(lambda n: middle.batch([[n] * 8] * 8))
    result = outer.batch(list(range(40)))
    assert result[3] == [[4] * 8] * 8
    deep = RunnableParallel({f"k{i}": RunnableParallel({f"j{j}": leaf for j in range(8)}) for i in range(8)})
    assert deep.batch([1] * 20)[0]["k0"]["j0"] == 2


def test_max_concurrency_bounds_leaf_calls() -> None:
    lock = threading.Lock()
    running = [0]
    peak = [0]

    def work(x: int) -> int:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.002)
        with lock:
            running[0] -= 1
        return x

    RunnableLambda(work).batch(list(range(30)), {"max_concurrency": 2})
    assert 1 <= peak[0] <= 2


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


def test_timeout_cancels_async_work_and_names_the_runnable() -> None:
    async def forever(x: int) -> int:
        await asyncio.Event().wait()
        return x

    async def main() -> None:
        with pytest.raises(StepTimeout, match="forever timed out after 0.01 s"):
            await RunnableLambda(forever).with_timeout(0.01).ainvoke(1)
        with pytest.raises(StepTimeout, match="timed out"):
            await RunnableLambda(forever).ainvoke(1, {"timeout": 0.01})

    asyncio.run(main())


def test_sync_timeout_is_checked_before_each_leaf_with_the_injected_clock() -> None:
    from effects import FakeClock, use_clock

    clock = FakeClock()
    ran: list[int] = []

    def tick(x: int) -> int:
        ran.append(x)
        clock.advance(1.0)
        return x + 1

    chain: Any = RunnableLambda(tick) | tick | tick | tick
    with use_clock(clock), pytest.raises(StepTimeout):
        chain.invoke(0, {"timeout": 2.5})
    assert ran == [0, 1, 2]  # the running step finished; the next one did not start


def test_an_async_branch_error_is_raised_without_a_context_cycle() -> None:
    # Re-raised inside the TaskGroup's handler, the error's context became the group that
    # holds it: a cycle that tblib (Dask's error shipping) recursed on without end.
    def boom(x: int) -> int:
        raise ValueError(f"boom {x}")

    fan = RunnableParallel({"a": RunnableLambda(boom), "b": RunnableLambda(lambda x: x)})
    with pytest.raises(ValueError, match="boom 1") as caught:
        asyncio.run(fan.ainvoke(1))
    assert caught.value.__context__ is None  # no group, so no cycle through one
