"""Checks over a list of v2 events: runs are well nested, the root ends as invoke does.

>>> start = {"event": "on_chain_start", "run_id": "r", "parent_ids": [], "data": {"input": 1}}
>>> end = {"event": "on_chain_end", "run_id": "r", "parent_ids": [], "data": {"output": 2}}
>>> nesting_problem([start, end]) is None
True
>>> nesting_problem([start])
'run r started but never ended'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from combinators.testing.outcomes import Outcome, Raised, Same, describe
from effects.guards import is_list_or_tuple, is_mapping


def _parents(event: Mapping[str, object]) -> list[str]:
    found = event.get("parent_ids")
    return [str(p) for p in found] if is_list_or_tuple(found) else []


def nesting_problem(events: Sequence[Mapping[str, object]]) -> str | None:
    """What breaks nesting: a run that starts twice, outside its parents, outlives a
    parent, streams or ends while not open, or never ends; ``None`` when all is well."""
    open_runs: dict[str, list[str]] = {}
    closed: set[str] = set()
    for event in events:
        name = str(event["event"])
        run_id = str(event["run_id"])
        parents = _parents(event)
        if name == "on_custom_event":
            if run_id not in open_runs:
                return f"a custom event of run {run_id} came while that run was not open"
            continue
        kind = name.rsplit("_", 1)[-1]
        if kind == "start":
            if run_id in open_runs or run_id in closed:
                return f"run {run_id} started twice"
            missing = [p for p in parents if p not in open_runs]
            if missing:
                return f"run {run_id} ({event.get('name')}) started outside its open parents {missing}"
            open_runs[run_id] = parents
        elif kind == "stream":
            if run_id not in open_runs:
                return f"run {run_id} streamed while not open"
        elif kind in ("end", "error"):
            if run_id not in open_runs:
                return f"run {run_id} ended while not open"
            if open_runs.pop(run_id) != parents:
                return f"run {run_id} ended with other parents than it started with"
            closed.add(run_id)
            children = [other for other, their in open_runs.items() if run_id in their]
            if children:
                return f"run {run_id} ({event.get('name')}) ended before its children {children}"
        else:
            return f"unknown event {name!r}"
    if open_runs:
        return f"run {', '.join(open_runs)} started but never ended"
    return None


def root_problem(
    events: Sequence[Mapping[str, object]], error: Exception | None, invoked: Outcome, same: Same
) -> str | None:
    """Whether the events start and end with the root run, as ``invoke`` ended."""
    if not events:
        return f"no events (the stream {'raised ' + repr(error) if error else 'was empty'})"
    first, last = events[0], events[-1]
    if not str(first["event"]).endswith("_start") or _parents(first) != []:
        return f"the first event is {first['event']} of {first.get('name')}, not the root's start"
    if last["run_id"] != first["run_id"]:
        return f"the last event is {last['event']} of {last.get('name')}, not the root's end"
    if isinstance(invoked, Raised):
        if error is None or type(error) is not type(invoked.error):
            ended = "ended" if error is None else f"raised {error!r}"
            return f"the event stream {ended}, but invoke(x) {describe(invoked)}"
        if not str(last["event"]).endswith("_error"):
            return f"the root's last event is {last['event']}, but the run failed"
        return None
    if error is not None:
        return f"the event stream raised {error!r}, but invoke(x) {describe(invoked)}"
    if not str(last["event"]).endswith("_end"):
        return f"the root's last event is {last['event']}, not its end"
    data = last.get("data")
    output = data.get("output") if is_mapping(data) else None
    if not same(output, invoked.value):
        return f"the root's end event has output {output!r}, but invoke(x) {describe(invoked)}"
    return None
