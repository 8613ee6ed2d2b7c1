"""Scope.adopt: effects made by another interpreter show as descendants of the local run."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, final
from uuid import UUID

import attrs
from hypothesis import given, settings, strategies as st

from combinators import Runnable, RunnableLambda
from combinators.testing import inputs_for, runnables
from effects import Effect, RunInfo, RunStarted, Scope
from effects._runtime.building import adopted


@final
@attrs.frozen
class Relay(Runnable[Any, Any]):
    """Runs ``far`` "elsewhere" (its own observed call) and adopts the effects it made."""

    far: Runnable[Any, Any]
    metadata: Mapping[str, object] = attrs.field(factory=dict[str, object])

    def step_invoke(self, input: Any, scope: Scope, kwargs: Mapping[str, Any]) -> Any:
        # A fresh context: no ambient run, as in another process.
        foreign = contextvars.Context().run(lambda: list(self.far.stream_effects(input)))
        scope.adopt(foreign, self.metadata)
        return foreign[-1].output if hasattr(foreign[-1], "output") else None


def inc(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


def lineage(effects: Sequence[Effect]) -> dict[UUID, tuple[UUID, ...]]:
    return {e.run.run_id: e.run.parent_ids for e in effects}


def test_a_foreign_root_becomes_a_child_and_keeps_its_subtree() -> None:
    far = RunnableLambda(inc) | RunnableLambda(double)
    seen = list(Relay(far, {"worker": "w1"}).stream_effects(1))
    relay = seen[0].run
    assert relay.name == "Relay" and relay.parent_ids == ()
    adopted_runs = [e.run for e in seen if e.run.run_id != relay.run_id]
    names = [r.name for r in adopted_runs]
    assert names[0] == "RunnableSequence" and {"inc", "double"} <= set(names)
    root = adopted_runs[0]
    assert root.parent_ids == (relay.run_id,)
    for run in adopted_runs[1:]:
        if run.run_id != root.run_id:
            assert run.parent_ids == (relay.run_id, root.run_id)
    assert all(dict(r.metadata)["worker"] == "w1" for r in adopted_runs)
    assert "worker" not in relay.metadata


def test_adopted_effects_reach_the_local_event_stream_with_parent_ids() -> None:
    far = RunnableLambda(inc) | RunnableLambda(double)

    async def main() -> list[dict[str, Any]]:
        return [e async for e in Relay(far).astream_events(3)]

    events = asyncio.run(main())
    relay_id = events[0]["run_id"]
    by_name = {e["name"]: e for e in events if e["event"].endswith("_start")}
    assert by_name["RunnableSequence"]["parent_ids"] == [relay_id]
    assert by_name["inc"]["parent_ids"][0] == relay_id and len(by_name["inc"]["parent_ids"]) == 2
    assert events[-1]["event"] == "on_chain_end" and events[-1]["data"]["output"] == 8


def test_nobody_observing_means_nothing_is_read_or_built() -> None:
    def never() -> Iterator[Effect]:
        raise AssertionError("adopt read effects nobody observes")
        yield  # pragma: no cover

    @final
    @attrs.frozen
    class Quiet(Runnable[int, int]):
        def step_invoke(self, input: int, scope: Scope, kwargs: Mapping[str, Any]) -> int:
            scope.adopt(never())
            return input

    assert Quiet().invoke(1) == 1
    assert Quiet().batch([1, 2]) == [1, 2]


def test_the_adopters_metadata_wins_over_a_foreign_key() -> None:
    far = RunInfo(UUID(int=2), (), "far", "chain", (), {"worker": "theirs", "kept": 1})
    moved = list(adopted([RunStarted(far, 0, 0.0)], None, {"worker": "ours"}))
    assert dict(moved[0].run.metadata) == {"worker": "ours", "kept": 1}
    assert moved[0].run.parent_ids == ()


@settings(max_examples=25, deadline=None)
@given(runnables(int, max_leaves=5), st.data())
def test_adoption_grafts_any_run_tree_unchanged_below_the_adopter(
    chain: Runnable[int, Any], data: st.DataObject
) -> None:
    x = data.draw(inputs_for(chain))
    try:
        foreign = list(chain.stream_effects(x))
    except Exception:
        return  # a failing chain's effects were all delivered before its error; not needed here
    under = RunInfo(UUID(int=77), (UUID(int=76),), "here", "chain", (), {})
    moved = list(adopted(foreign, under, {"executor": "test"}))
    assert [type(e) for e in moved] == [type(e) for e in foreign]
    assert [e.run.run_id for e in moved] == [e.run.run_id for e in foreign]
    assert [attrs.evolve(e, run=f.run) for e, f in zip(moved, foreign)] == foreign
    before, after = lineage(foreign), lineage(moved)
    assert after == {k: (UUID(int=76), UUID(int=77), *v) for k, v in before.items()}
    assert all(dict(e.run.metadata)["executor"] == "test" for e in moved)
