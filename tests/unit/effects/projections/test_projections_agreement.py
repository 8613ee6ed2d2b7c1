"""Cross-projection laws: v1, v2 and the run log agree on the run tree; nothing leaks secrets."""

from __future__ import annotations

import json

from hypothesis import given

from effects.projections import EventFilter, run_log_patches, run_logs, stream_events_v1, stream_events_v2
from effects.projections.jsonable import to_jsonable
from effects.effect_values import Effect, RunEnded
from tests.unit.effects.projections.strategies import SECRET_TEXT, effect_trees, event_filters


def _started(events: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["run_id"], e["name"]) for e in events if str(e["event"]).endswith("_start")]


@given(effect_trees(), event_filters)
def test_v1_v2_and_the_log_show_the_same_runs(effects: list[Effect], raw: tuple[list[str] | None, ...]) -> None:
    names, types, tags, xnames, xtypes, xtags = raw
    # Chat models are "llm" in the log only, so type filters that name either are left out here.
    model_free = [t for t in (types or []) if t not in ("llm", "chat_model")] if types is not None else None
    x_model_free = [t for t in (xtypes or []) if t not in ("llm", "chat_model")] if xtypes is not None else None
    flt = EventFilter(names, model_free, tags, xnames, x_model_free, xtags)
    v2 = _started([dict(e) for e in stream_events_v2(effects, flt)])
    v1 = _started([dict(e) for e in stream_events_v1(effects, flt)])
    assert v1 == v2
    state = list(run_logs(effects, flt))[-1].state
    assert isinstance(state, dict) and isinstance(state["logs"], dict)
    root = effects[0].run
    logged = [(entry["id"], entry["name"]) for entry in state["logs"].values() if isinstance(entry, dict)]
    sub_runs = [started for started in v2 if started[0] != str(root.run_id)]
    assert sorted(logged, key=str) == sorted(sub_runs, key=str)
    # Ended runs agree on their end too.
    ended = {str(e.run.run_id) for e in effects if isinstance(e, RunEnded)}
    v2_ended = {e["run_id"] for e in stream_events_v2(effects, flt) if e["event"].endswith("_end")}
    assert v2_ended <= ended


@given(effect_trees())
def test_no_json_projection_shows_a_secret(effects: list[Effect]) -> None:
    ops = [op for patch in run_log_patches(effects) for op in patch.ops]
    assert SECRET_TEXT not in json.dumps(to_jsonable(ops))
    assert SECRET_TEXT not in json.dumps(to_jsonable(list(run_logs(effects))[-1].state))
