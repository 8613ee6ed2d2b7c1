"""Structured concurrency: cancellation leaves nothing running, max_concurrency bounds
leaf steps everywhere under the call, batches keep one result per input in order."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combinators import Runnable, RunnableGenerator, RunnableLambda, RunnableParallel


class InFlight:
    """Counts leaf calls running at once (threads and tasks)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0
        self.total = 0

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.total += 1
            self.peak = max(self.peak, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1


def async_leaf(counter: InFlight) -> Runnable[int, int]:
    async def work(x: int) -> int:
        counter.enter()
        try:
            await asyncio.sleep(0.001)
        finally:
            counter.leave()
        return x + 1

    return RunnableLambda(work)


def sync_leaf(counter: InFlight) -> Runnable[int, int]:
    def work(x: int) -> int:
        counter.enter()
        try:
            time.sleep(0.0005)
        finally:
            counter.leave()
        return x + 1

    return RunnableLambda(work)


def nested(shape: list[int], leaf: Runnable[int, int]) -> Runnable[int, Any]:
    """A tree: each level a parallel map of ``width`` children, then an `each` of leaves."""
    node: Runnable[int, Any] = leaf
    for width in shape:
        node = RunnableParallel({f"k{i}": node for i in range(width)}) | RunnableLambda(lambda d: 1)
    return node


@settings(max_examples=15)
@given(
    st.lists(st.integers(min_value=1, max_value=3), min_size=0, max_size=3),
    st.integers(min_value=1, max_value=4),
    st.integers(min_value=1, max_value=6),
)
def test_max_concurrency_bounds_leaves_in_nested_async_shapes(shape: list[int], limit: int, items: int) -> None:
    counter = InFlight()
    chain = nested(shape, async_leaf(counter))
    out = asyncio.run(chain.abatch(list(range(items)), {"max_concurrency": limit}))
    assert len(out) == items
    assert 1 <= counter.peak <= limit


@settings(max_examples=10)
@given(
    st.lists(st.integers(min_value=1, max_value=3), min_size=0, max_size=2),
    st.integers(min_value=1, max_value=3),
    st.integers(min_value=1, max_value=5),
)
def test_max_concurrency_bounds_leaves_in_nested_sync_shapes(shape: list[int], limit: int, items: int) -> None:
    counter = InFlight()
    chain = nested(shape, sync_leaf(counter))
    out = chain.batch(list(range(items)), {"max_concurrency": limit})
    assert len(out) == items
    assert 1 <= counter.peak <= limit


def test_cancelling_ainvoke_leaves_no_task_and_starts_no_step() -> None:
    started: list[str] = []

    async def slow(x: int) -> int:
        started.append("slow")
        await asyncio.sleep(10)
        return x

    async def after(x: int) -> int:
        started.append("after")
        return x

    chain = RunnableParallel(a=RunnableLambda(slow), b=RunnableLambda(slow)) | RunnableLambda(after)

    async def main() -> set[asyncio.Task[Any]]:
        before = asyncio.all_tasks()
        task = asyncio.ensure_future(chain.ainvoke(1))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.01)
        return asyncio.all_tasks() - before

    assert asyncio.run(main()) == set()
    assert started == ["slow", "slow"]


def test_cancelling_abatch_cancels_every_item() -> None:
    cleaned: list[int] = []

    async def slow(x: int) -> int:
        try:
            await asyncio.sleep(10)
        finally:
            cleaned.append(x)
        return x

    async def main() -> set[asyncio.Task[Any]]:
        before = asyncio.all_tasks()
        task = asyncio.ensure_future(RunnableLambda(slow).abatch(list(range(5))))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return asyncio.all_tasks() - before

    assert asyncio.run(main()) == set()
    assert sorted(cleaned) == [0, 1, 2, 3, 4]


def test_abatch_failure_cancels_the_others_and_raises_the_error_itself() -> None:
    cleaned: list[int] = []

    async def work(x: int) -> int:
        if x == 2:
            await asyncio.sleep(0.001)
            raise ValueError("two")
        try:
            await asyncio.sleep(10)
        finally:
            cleaned.append(x)
        return x

    async def main() -> None:
        with pytest.raises(ValueError, match="two"):
            await RunnableLambda(work).abatch([0, 1, 2, 3])

    asyncio.run(main())
    assert sorted(cleaned) == [0, 1, 3]


@given(st.lists(st.integers(min_value=-5, max_value=5), max_size=20), st.sampled_from([None, 1, 4]))
def test_return_exceptions_keeps_one_result_per_input_in_order(xs: list[int], limit: int | None) -> None:
    def inverse(x: int) -> float:
        return 1 / x

    r = RunnableLambda(inverse)
    for out in (
        r.batch(xs, {"max_concurrency": limit}, return_exceptions=True),
        asyncio.run(r.abatch(xs, {"max_concurrency": limit}, return_exceptions=True)),
    ):
        assert len(out) == len(xs)
        for x, result in zip(xs, out, strict=True):
            if x == 0:
                assert isinstance(result, ZeroDivisionError)
            else:
                assert result == 1 / x


def test_a_leaf_that_calls_a_chain_lends_its_permit_instead_of_deadlocking() -> None:
    inner = RunnableLambda(lambda x: x + 1)

    def outer(x: int) -> int:
        return inner.invoke(x) * 10  # nested work under the caller's permit

    async def ainner(x: int) -> int:
        return x + 1

    async def aouter(x: int) -> int:
        return (await RunnableLambda(ainner).ainvoke(x)) * 10

    def gen(x: int) -> Iterator[int]:
        yield inner.invoke(x)

    one = {"max_concurrency": 1}
    assert RunnableLambda(outer).invoke(1, one) == 20
    assert RunnableLambda(outer).batch([1, 2, 3], one) == [20, 30, 40]
    assert asyncio.run(RunnableLambda(aouter).abatch([1, 2], one)) == [20, 30]
    assert list(RunnableLambda(gen).stream(1, one)) == [2]


# -- generated nestings: batches, invokes and `each` started from inside leaves ---------------
#
# A plan is a tree: ("leaf",), ("parallel", [plans]), or ("call", how, with_config, items,
# plan): a function (itself a leaf) that runs the sub-plan's chain with ``how`` (invoke or
# batch of ``items`` copies, in the function's own kind), passing the config it was given or
# none (then the call inherits the caller's run). ("each", items, plan) maps the sub-plan
# over a list. Only the counted leaves at the bottom are measured.

Plan = tuple[Any, ...]


def plans(calls: tuple[str, ...]) -> st.SearchStrategy[Plan]:
    return st.recursive(
        st.just(("leaf",)),
        lambda inner: st.one_of(
            st.tuples(st.just("parallel"), st.lists(inner, min_size=1, max_size=3)),
            st.tuples(st.just("call"), st.sampled_from(calls), st.booleans(), st.integers(1, 3), inner),
            st.tuples(st.just("each"), st.integers(1, 3), inner),
        ),
        max_leaves=6,
    )


def leaves_in(plan: Plan) -> int:
    """How many counted leaf calls one run of the plan makes."""
    kind = plan[0]
    if kind == "leaf":
        return 1
    if kind == "parallel":
        return sum(leaves_in(child) for child in plan[1])
    if kind == "each":
        return plan[1] * leaves_in(plan[2])
    how, _, items, child = plan[1:]
    return (items if how.endswith("batch") else 1) * leaves_in(child)


def _ones(d: Any) -> int:
    return 1


def build(
    plan: Plan,
    counter: InFlight,
    leaf: Callable[[InFlight], Runnable[int, int]],
    call: Callable[[Plan, InFlight], Runnable[int, int]],
) -> Runnable[int, int]:
    """The plan's chain, with ``leaf`` for the counted leaves and ``call`` for the calls."""
    kind = plan[0]
    if kind == "leaf":
        return leaf(counter)
    if kind == "parallel":
        branches = {f"k{i}": build(child, counter, leaf, call) for i, child in enumerate(plan[1])}
        return RunnableParallel(branches) | RunnableLambda(_ones)
    if kind == "each":
        items, child = plan[1], build(plan[2], counter, leaf, call)
        return RunnableLambda(lambda x: [x] * items) | child.each() | RunnableLambda(len)
    return call(plan, counter)


def _sync_call(plan: Plan, counter: InFlight) -> Runnable[int, int]:
    how, with_config, items, child_plan = plan[1:]
    child = build_sync(child_plan, counter)

    def call(x: int, config: Any) -> int:
        given = config if with_config else None
        if how == "invoke":
            return child.invoke(x, given)
        return len(child.batch([x] * items, given))

    return RunnableLambda(call)


def _async_call(plan: Plan, counter: InFlight) -> Runnable[int, int]:
    how, with_config, items, child_plan = plan[1:]
    if how in ("invoke", "batch"):
        # An async function that calls a sync chain (blocking its loop while it runs).
        sync_child = build_sync(child_plan, counter)

        async def sync_call(x: int, config: Any) -> int:
            given = config if with_config else None
            if how == "invoke":
                return sync_child.invoke(x, given)
            return len(sync_child.batch([x] * items, given))

        return RunnableLambda(sync_call)
    child = build_async(child_plan, counter)

    async def call(x: int, config: Any) -> int:
        given = config if with_config else None
        if how == "ainvoke":
            return await child.ainvoke(x, given)
        return len(await child.abatch([x] * items, given))

    return RunnableLambda(call)


def build_sync(plan: Plan, counter: InFlight) -> Runnable[int, int]:
    return build(plan, counter, sync_leaf, _sync_call)


def build_async(plan: Plan, counter: InFlight) -> Runnable[int, int]:
    return build(plan, counter, async_leaf, _async_call)


@settings(max_examples=25, deadline=None)
@given(plans(("invoke", "batch")), st.integers(1, 3), st.integers(1, 4))
def test_max_concurrency_bounds_leaves_under_generated_sync_nestings(plan: Plan, limit: int, items: int) -> None:
    counter = InFlight()
    chain = build_sync(plan, counter)
    chain.batch(list(range(items)), {"max_concurrency": limit})
    assert counter.total == items * leaves_in(plan)
    assert 1 <= counter.peak <= limit


@settings(max_examples=25, deadline=None)
@given(plans(("ainvoke", "abatch")), st.integers(1, 3), st.integers(1, 4))
def test_max_concurrency_bounds_leaves_under_generated_async_nestings(plan: Plan, limit: int, items: int) -> None:
    counter = InFlight()
    chain = build_async(plan, counter)
    asyncio.run(chain.abatch(list(range(items)), {"max_concurrency": limit}))
    assert counter.total == items * leaves_in(plan)
    assert 1 <= counter.peak <= limit


@settings(max_examples=15, deadline=None)
@given(plans(("invoke", "batch")), st.integers(1, 3), st.integers(1, 3), st.sampled_from(["invoke", "batch"]))
def test_max_concurrency_bounds_sync_leaves_called_from_inside_abatch(
    plan: Plan, limit: int, items: int, how: str
) -> None:
    # `batch` inside `invoke` inside `abatch`, and deeper.
    counter = InFlight()
    chain = build_async(("call", how, True, 2, plan), counter)
    asyncio.run(chain.abatch(list(range(items)), {"max_concurrency": limit}))
    assert counter.total == items * leaves_in(("call", how, True, 2, plan))
    assert 1 <= counter.peak <= limit


@pytest.mark.parametrize("with_config", [True, False])
def test_a_nested_abatch_in_a_lambda_is_bounded(with_config: bool) -> None:
    counter = InFlight()
    leaf = async_leaf(counter)

    async def fan(x: int, config: Any) -> list[int]:
        return await leaf.abatch([x] * 4, config if with_config else None)

    out = asyncio.run(RunnableLambda(fan).abatch([1, 2, 3], {"max_concurrency": 2}))
    assert out == [[2] * 4, [3] * 4, [4] * 4]
    assert counter.peak == 2


def test_abatch_under_max_concurrency_holds_no_task_per_waiting_input() -> None:
    # 1,000 inputs at max_concurrency 10: at most 10 items are in flight, so no task,
    # coroutine or frame is held for each waiting input (memory stays flat in the count).
    tasks_seen: list[int] = []

    async def leaf(x: int) -> int:
        tasks_seen.append(len(asyncio.all_tasks()))
        await asyncio.sleep(0)
        if x == 700:
            raise ValueError("seven hundred")
        return x

    r = RunnableLambda(leaf)
    out = asyncio.run(r.abatch(list(range(1000)), {"max_concurrency": 10}, return_exceptions=True))
    assert out[:700] == list(range(700)) and out[701:] == list(range(701, 1000))
    assert isinstance(out[700], ValueError)
    assert max(tasks_seen) <= 10 + 1  # the workers and the caller's own task
    with pytest.raises(ValueError, match="seven hundred"):
        asyncio.run(r.abatch(list(range(1000)), {"max_concurrency": 10}))


@pytest.mark.parametrize("watch", ["events_v2", "events_v1", "log"])
def test_a_consumer_that_awaits_between_items_never_stalls_a_long_stream(watch: str) -> None:
    # While the consumer awaits (sending an event over the network, say), the run fills
    # the hand-off buffer past its high-water mark and waits for room: the next read must
    # take what is there, not wait for a wake-up that already happened.
    from effects._runtime.effect_stream import HIGH_WATER

    chunks = 3 * HIGH_WATER

    async def source(inputs: AsyncIterator[None]) -> AsyncIterator[int]:
        async for _ in inputs:
            pass
        for i in range(chunks):
            yield i

    chain = RunnableGenerator(source)

    async def consume() -> list[object]:
        if watch == "log":
            stream: AsyncIterator[object] = chain.astream_log(None)
        else:
            stream = chain.astream_events(None, version="v2" if watch == "events_v2" else "v1")
        seen: list[object] = []
        async for item in stream:
            seen.append(item)
            await asyncio.sleep(0)
        return seen

    seen = asyncio.run(asyncio.wait_for(consume(), timeout=20))
    assert len(seen) >= chunks  # one stream event or log patch per chunk, at least
