"""DaskExecutor: the remote items' effects reach the caller's projections, nested in place."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from typing import Any

from distributed import Client

from combinators import RunnableLambda, RunnableParallel
from combinators.integrations.dask import DaskExecutor
from combinators import adispatch_custom_event
from effects.projections.listeners import Run


def inc(x: int) -> int:
    return x + 1


async def announce(x: int) -> int:
    await adispatch_custom_event("seen", {"x": x})
    return x


ITEM = RunnableLambda(inc) | RunnableParallel(same=RunnableLambda(announce), double=lambda x: x * 2)


def shapes(events: Sequence[dict[str, Any]]) -> Counter[tuple[Any, ...]]:
    """Each event as (kind, name, the names of its ancestors, data), ids and timing aside."""
    names = {e["run_id"]: e["name"] for e in events if e["event"].endswith("_start")}
    return Counter(
        (e["event"], e["name"], tuple(names[p] for p in e["parent_ids"]), repr(sorted(e["data"].items())))
        for e in events
    )


def test_remote_items_show_in_astream_events_as_local_ones_do(dask_client: Client) -> None:
    executor = DaskExecutor(dask_client)
    inputs = [1, 2, 3, 4]

    async def events(config: dict[str, Any]) -> list[dict[str, Any]]:
        return [e async for e in ITEM.each().astream_events(inputs, config=config)]

    local = asyncio.run(events({}))
    remote = asyncio.run(events({"executor": executor}))
    assert shapes(remote) == shapes(local)
    assert (
        remote[-1]["data"]["output"]
        == local[-1]["data"]["output"]
        == [{"same": x + 1, "double": 2 * (x + 1)} for x in inputs]
    )
    root = remote[0]["run_id"]
    items = [e for e in remote if e["event"] == "on_chain_start" and e["parent_ids"] == [root]]
    assert len(items) == 4
    workers = set(dask_client.scheduler_info()["workers"])
    for event in remote:
        if event["run_id"] != root:
            assert event["metadata"]["executor"] == "dask"
            assert event["metadata"]["worker"] in workers
    customs = [e for e in remote if e["event"] == "on_custom_event"]
    assert sorted(e["data"]["x"] for e in customs) == [2, 3, 4, 5]
    assert all(len(e["parent_ids"]) == 3 for e in customs)  # announce below each, item, parallel


def test_remote_items_show_in_the_run_log(dask_client: Client) -> None:
    executor = DaskExecutor(dask_client)

    async def final_state(config: dict[str, Any]) -> dict[str, Any]:
        state: Any = None
        async for log in ITEM.each().astream_log([5, 6], config=config, diff=False):
            state = log.state
        return dict(state)

    local, remote = asyncio.run(final_state({})), asyncio.run(final_state({"executor": executor}))
    assert remote["final_output"] == local["final_output"]

    def entries(state: dict[str, Any]) -> Counter[tuple[str, str]]:
        return Counter((entry["name"], repr(entry["final_output"])) for entry in state["logs"].values())

    assert entries(remote) == entries(local)
    assert {entry["metadata"].get("executor") for entry in remote["logs"].values()} == {"dask"}


def test_a_batch_inside_a_step_nests_below_that_step(dask_client: Client) -> None:
    executor = DaskExecutor(dask_client)

    def fan_out(xs: list[int]) -> list[int]:
        return RunnableLambda(inc).batch(xs, executor=executor)

    async def afan_out(xs: list[int]) -> list[int]:
        return await RunnableLambda(inc).abatch(xs, executor=executor)

    async def aeffects() -> list[Any]:
        outer = RunnableLambda(lambda xs: xs) | RunnableLambda(afan_out)
        return [e async for e in outer.astream_effects([1, 2, 3])]

    sync = list((RunnableLambda(lambda xs: xs) | RunnableLambda(fan_out)).stream_effects([1, 2, 3]))
    for effects, name in ((sync, "fan_out"), (asyncio.run(aeffects()), "afan_out")):
        fan = next(e.run for e in effects if e.run.name == name)
        items = {e.run.run_id: e.run for e in effects if e.run.name == "inc"}
        assert len(items) == 3
        assert all(run.parent_ids == (*fan.parent_ids, fan.run_id) for run in items.values())
        assert effects[-1].output == [2, 3, 4]


def test_listeners_of_the_batched_runnable_run_here_with_the_remote_runs(dask_client: Client) -> None:
    ended: list[Run] = []
    watched = ITEM.with_listeners(on_end=ended.append)
    assert asyncio.run(watched.abatch([1, 2], executor=DaskExecutor(dask_client))) == [
        {"same": 2, "double": 4},
        {"same": 3, "double": 6},
    ]
    assert sorted(run.outputs["same"] for run in ended if run.outputs) == [2, 3]
    assert all({child.name for child in run.child_runs} == {"inc", "RunnableParallel<same,double>"} for run in ended)


def test_the_callers_tags_and_metadata_travel_and_the_workers_add_where(dask_client: Client) -> None:
    config = {"executor": DaskExecutor(dask_client), "tags": ["nightly"], "metadata": {"run": 7}}
    effects = list(RunnableLambda(inc).each().stream_effects([1, 2], config=config))
    items = [e.run for e in effects if e.run.parent_ids]
    assert len(items) == 4 and all("nightly" in run.tags for run in items)
    assert all(dict(run.metadata).keys() == {"run", "executor", "worker"} for run in items)
    assert effects[-1].output == [2, 3]  # type: ignore[union-attr]


def test_traced_spans_show_the_remote_items_below_the_batch_span(dask_client: Client) -> None:
    from combinators.integrations.otel import OtelConfig
    from tests.integration.otel.support import Traced, parent_of

    traced = Traced()
    config = OtelConfig(metadata_keys=["executor", "worker"])
    each = (RunnableLambda(inc) | RunnableLambda(inc)).each(executor=DaskExecutor(dask_client))
    assert each.with_tracing(traced.tracer, config).invoke([1, 2]) == [3, 4]
    spans = traced.spans
    roots = [span for span in spans if span.parent is None]
    assert len(roots) == 1 and len(spans) == 1 + 2 * 3  # the each, and per item: the sequence, two steps
    workers = set(dask_client.scheduler_info()["workers"])
    for span in spans:
        if span is roots[0]:
            continue
        attributes = span.attributes or {}
        assert attributes["lcel.metadata.executor"] == "dask"
        assert attributes["lcel.metadata.worker"] in workers
        parent = parent_of(span, spans)
        assert parent is not None
        assert (
            parent is roots[0]
            if span.name.startswith("RunnableSequence")
            else parent.name.startswith("RunnableSequence")
        )


def test_a_batch_on_dask_shows_its_progress_here(dask_client: Client, capsys: Any) -> None:
    executor = DaskExecutor(dask_client)
    got = RunnableLambda(lambda x: 1 // x).batch([1, 0, 2], progress=True, return_exceptions=True, executor=executor)
    assert got[0] == 1 and isinstance(got[1], ZeroDivisionError) and got[2] == 0
    shown = capsys.readouterr().err
    assert "3/3" in shown and "failed=1" in shown
    pairs = sorted(RunnableLambda(inc).batch_as_completed([1, 2], progress=True, executor=executor))
    assert pairs == [(0, 2), (1, 3)] and "2/2" in capsys.readouterr().err
