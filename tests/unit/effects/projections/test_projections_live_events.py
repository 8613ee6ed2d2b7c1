"""Events and logs of live chains: nesting, replay, agreement between projections."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import given, settings

from combinators import (
    Runnable,
    RunnableLambda,
)
from effects.projections.events_v1 import EventsV1
from effects.projections.events_v2 import EventsV2
from effects.projections.jsonable import to_jsonable
from effects.projections.recording import record, replay
from effects.projections.run_log import RunLog, RunLogPatches
from effects.effect_values import Effect
from tests.strategies import int_chains, ints


def effects_of(chain: Runnable[Any, Any], value: Any) -> list[Effect]:
    async def main() -> list[Effect]:
        return [e async for e in chain.astream_effects(value)]

    return asyncio.run(main())


def events_v2(chain: Runnable[Any, Any], value: Any) -> list[dict[str, Any]]:
    async def main() -> list[dict[str, Any]]:
        return [dict(e) async for e in chain.astream_events(value)]

    return asyncio.run(main())


def check_well_nested(events: list[dict[str, Any]]) -> None:
    open_runs: dict[str, list[str]] = {}
    closed: set[str] = set()
    for event in events:
        kind = event["event"].rsplit("_", 1)[-1]
        run_id = event["run_id"]
        if event["event"] == "on_custom_event":
            assert run_id in open_runs
            continue
        if kind == "start":
            assert run_id not in open_runs and run_id not in closed
            for parent in event["parent_ids"]:
                assert parent in open_runs, "a child starts inside its open parents"
            open_runs[run_id] = list(event["parent_ids"])
        elif kind == "stream":
            assert run_id in open_runs
        else:
            assert kind in ("end", "error")
            assert open_runs.pop(run_id) == list(event["parent_ids"])
            closed.add(run_id)
            for other, parents in open_runs.items():
                assert run_id not in parents, f"{other} outlived its parent"
    assert open_runs == {}


@settings(max_examples=40)
@given(int_chains(), ints)
def test_events_are_well_nested_and_the_root_output_equals_invoke(chain: Runnable[int, int], x: int) -> None:
    events = events_v2(chain, x)
    check_well_nested(events)
    assert events[0]["event"] == "on_chain_start" and events[0]["parent_ids"] == []
    assert events[0]["data"] == {"input": x}
    assert events[-1]["data"]["output"] == chain.invoke(x)


@settings(max_examples=40)
@given(int_chains(), ints)
def test_log_patches_replay_to_the_final_log(chain: Runnable[int, int], x: int) -> None:
    async def main() -> tuple[list[Any], list[Any]]:
        patches = [p async for p in chain.astream_log(x)]
        logs = [log async for log in chain.astream_log(x, diff=False)]
        return patches, logs

    patches, logs = asyncio.run(main())
    total: Any = patches[0]
    for patch in patches[1:]:
        total = total + patch
    assert isinstance(total, RunLog)
    assert total.state["final_output"] == chain.invoke(x)
    final = logs[-1].state
    assert {k: v for k, v in final.items() if k not in ("id", "logs")} == {
        k: v for k, v in total.state.items() if k not in ("id", "logs")
    }
    assert sorted(final["logs"]) == sorted(total.state["logs"])


@settings(max_examples=30)
@given(int_chains(), ints)
def test_v1_v2_and_log_agree_on_the_run_tree(chain: Runnable[int, int], x: int) -> None:
    effects = effects_of(chain, x)
    v2 = _fold(EventsV2(), effects)
    v1 = _fold(EventsV1(), effects)
    starts_v2 = [(e["run_id"], e["name"]) for e in v2 if e["event"].endswith("_start")]
    starts_v1 = [(e["run_id"], e["name"]) for e in v1 if e["event"].endswith("_start")]
    assert starts_v1 == starts_v2
    patches = _fold(RunLogPatches(), effects)
    state: Any = patches[0]
    for p in patches[1:]:
        state = state + p
    log_ids = {entry["id"] for entry in state.state["logs"].values()}
    root_id = state.state["id"]
    assert {run_id for run_id, _ in starts_v2} == log_ids | {root_id}


def _fold(fold: Any, effects: list[Effect]) -> list[Any]:
    out: list[Any] = []
    for effect in effects:
        out.extend(fold.feed(effect))
    return out


@settings(max_examples=25)
@given(int_chains(), ints)
def test_a_recorded_run_replays_to_the_same_projections(chain: Runnable[int, int], x: int) -> None:
    live = effects_of(chain, x)
    lines = list(record(live))
    replayed = list(replay(lines))
    for make in (EventsV2, EventsV1):
        assert to_jsonable(_fold(make(), replayed)) == to_jsonable(_fold(make(), live))
    live_log = [p.ops for p in _fold(RunLogPatches(), live)]
    replayed_log = [p.ops for p in _fold(RunLogPatches(), replayed)]
    assert to_jsonable(live_log) == to_jsonable(replayed_log)
    assert all(json.loads(line) for line in lines)


def test_each_supports_astream_events() -> None:
    events = events_v2(RunnableLambda(abs).each(), [-1, -2])
    names = [(e["event"], e["name"]) for e in events]
    assert names[0] == ("on_chain_start", "RunnableEach<abs>")
    assert names.count(("on_chain_start", "abs")) == 2
    assert events[-1]["data"]["output"] == [1, 2]
