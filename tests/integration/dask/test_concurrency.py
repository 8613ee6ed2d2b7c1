"""DaskExecutor: max_concurrency as a window of items, and cancellation."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from uuid import UUID

import pytest
from distributed import Client

from combinators import RunnableLambda
from combinators.integrations.dask import DaskExecutor
from effects import Effect, RunEnded, RunStarted
from tests.integration.dask.conftest import batch_tasks, until


def nap(x: int) -> int:
    time.sleep(0.2)
    return x


def most_at_once(effects: Sequence[Effect], parent: UUID) -> int:
    """The largest number of the parent's child runs open at one time, from their effects."""
    marks: list[tuple[float, int]] = []
    for effect in effects:
        if effect.run.parent_id == parent:
            if isinstance(effect, RunStarted):
                marks.append((effect.at, 1))
            elif isinstance(effect, RunEnded):
                marks.append((effect.at, -1))
    open_runs = peak = 0
    for _, step in sorted(marks):  # at equal times an end (-1) sorts before a start
        open_runs += step
        peak = max(peak, open_runs)
    return peak


@pytest.mark.parametrize("limit", [1, 2])
def test_max_concurrency_is_the_number_of_items_in_flight(dask_client: Client, limit: int) -> None:
    executor = DaskExecutor(dask_client)
    each = RunnableLambda(nap).each()
    effects = list(each.stream_effects(list(range(8)), config={"executor": executor, "max_concurrency": limit}))
    root = effects[0].run.run_id
    assert sum(isinstance(e, RunEnded) and e.run.parent_id == root for e in effects) == 8
    # Exact: never more than the limit, and the limit is used (the cluster has 2 workers).
    assert most_at_once(effects, root) == limit


def test_a_chunk_runs_its_items_one_after_another(dask_client: Client) -> None:
    executor = DaskExecutor(dask_client, chunk_size=4)
    effects = list(RunnableLambda(nap).each().stream_effects(list(range(8)), config={"executor": executor}))
    workers = {e.run.metadata["worker"] for e in effects if e.run.parent_ids}
    assert len(workers) == 2  # two chunks, one per worker
    assert most_at_once(effects, effects[0].run.run_id) == 2


def started(folder: Path, prefix: str) -> set[int]:
    return {int(p.name.split("-")[1]) for p in folder.iterdir() if p.name.startswith(prefix)}


# With chunks of 6, the first result is a whole chunk: both workers have run 6 items by
# then, and each began a next chunk; the event stops those after their current item.
@pytest.mark.parametrize(("chunk_size", "count", "most"), [(1, 12, 4), (6, 24, 14)])
def test_items_queued_when_the_consumer_stops_never_start(
    dask_client: Client, tmp_path: Path, chunk_size: int, count: int, most: int
) -> None:
    def mark_then_nap(x: int) -> int:
        (tmp_path / f"start-{x}").touch()
        time.sleep(0.4)
        return x

    pairs = RunnableLambda(mark_then_nap).batch_as_completed(
        list(range(count)), executor=DaskExecutor(dask_client, chunk_size=chunk_size)
    )
    first = next(pairs)
    pairs.close()  # the consumer stops: the rest is cancelled
    until(lambda: not batch_tasks(dask_client))
    time.sleep(1.0)  # long enough for a queued item to have started, were it going to
    begun = started(tmp_path, "start-")
    assert first[0] in begun
    # What was running when the consumer stopped (one per worker, and at most the one
    # each worker took up meanwhile) finishes; nothing queued ever starts.
    assert len(begun) <= most < count
    time.sleep(0.5)
    assert started(tmp_path, "start-") == begun


def test_a_cancelled_chain_stops_at_the_next_step_boundary(dask_client: Client, tmp_path: Path) -> None:
    def step(name: str, seconds: float) -> RunnableLambda[int, int]:
        def run(x: int) -> int:
            (tmp_path / f"{name}-{x}").touch()
            time.sleep(seconds)
            (tmp_path / f"{name}done-{x}").touch()
            return x

        return RunnableLambda(run, name=name)

    chain = step("one", 1.0) | step("two", 0.0) | step("three", 0.0)

    async def main() -> None:
        task = asyncio.ensure_future(chain.abatch([0, 1], executor=DaskExecutor(dask_client)))
        while len(started(tmp_path, "one-")) < 2:  # both items are in their first step
            await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    # The first steps were in flight: they finish (a Dask limit); the next ones never start.
    until(lambda: started(tmp_path, "onedone-") == {0, 1})
    time.sleep(0.5)
    assert started(tmp_path, "two-") == set() and started(tmp_path, "three-") == set()
    assert not batch_tasks(dask_client)


def _count_watchers() -> None:
    """On a worker: count the cancellation watchers made from now on."""
    from combinators.integrations.dask import worker

    made = getattr(worker, "watchers_made", None)
    if made is None:
        made = worker.watchers_made = [0]  # type: ignore[attr-defined]
        start = worker._Watch.start

        def counted(self: worker._Watch) -> None:
            made[0] += 1
            start(self)

        worker._Watch.start = counted  # type: ignore[method-assign]
    made[0] = 0


def _watchers_made() -> int:
    from combinators.integrations.dask import worker

    made: list[int] = worker.watchers_made  # type: ignore[attr-defined]
    return made[0]


def test_the_chunks_of_a_batch_share_one_watcher_per_worker(dask_client: Client) -> None:
    # Each new watcher costs a round trip to the scheduler; short chunks land one after
    # another with nothing running between them, and must not each pay it.
    dask_client.run(_count_watchers)
    executor = DaskExecutor(dask_client, chunk_size=1)
    assert RunnableLambda(abs).batch([-x for x in range(300)], executor=executor) == list(range(300))
    made = dask_client.run(_watchers_made)
    assert set(made.values()) <= {0, 1}  # one per worker that ran any (it was 100+ each)
    assert sum(made.values()) >= 1
