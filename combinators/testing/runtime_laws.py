"""The laws every deterministic runnable keeps, whatever it is built from.

``batch == map(invoke)``; ``stream`` adds up to ``invoke``; sync and async agree;
events are well nested and end with the root's output; the run log replays to its
final state; ``return_exceptions`` keeps one result per input, in order. Outputs are
compared by value, errors by type.

>>> from combinators import RunnableLambda
>>> from combinators.testing import steps
>>> [law.violation(RunnableLambda(steps.inc), [1, 2]) for law in (BATCH, RETURN_EXCEPTIONS)]
[None, None]
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterable, Callable, Sequence
from typing import Any, Final, TypeVar

from combinators.testing.law import Law, Tested, input_lists, law, one_input
from combinators.testing.nesting import nesting_problem, root_problem
from combinators.testing.outcomes import (
    NO_CHUNKS,
    ChunksDoNotAdd,
    Comparison,
    Outcome,
    Raised,
    Returned,
    Same,
    agree,
    aoutcome_of,
    as_outcome,
    collect,
    describe,
    settle_json,
    outcome_of,
    run_async,
)
from effects.errors import EmptyStreamError
from effects.guards import is_list
from effects.projections.jsonable import to_jsonable
from effects.projections.run_log import RunLog, RunLogPatch, run_log_patches, run_logs
from effects.effect_values import Effect


T = TypeVar("T")


def _invoked(runnable: Tested, inputs: Sequence[object]) -> list[Outcome]:
    return [outcome_of(functools.partial(runnable.invoke, x)) for x in inputs]


def _as_list(value: object) -> list[object] | None:
    return value if is_list(value) else None


def _batch_problem(name: str, got: Outcome, expected: list[Outcome], same: Same) -> str | None:
    failed = [o.error for o in expected if isinstance(o, Raised)]
    if failed:
        if isinstance(got, Raised) and any(type(got.error) is type(e) for e in failed):
            return None
        return f"{name}(xs) {describe(got)}, but invoke raised {failed[0]!r} on one of them"
    if isinstance(got, Raised):
        return f"{name}(xs) {describe(got)}, but invoke returned on every input"
    return _results_problem(f"{name}(xs)", got.value, expected, same, Returned)


def _results_problem(
    call: str, value: object, expected: list[Outcome], same: Same, read: Callable[[object], Outcome]
) -> str | None:
    """How ``call``'s results (one per input, each ``read`` as an outcome) differ from
    what ``invoke`` did on each input, or ``None``."""
    items = _as_list(value)
    if items is None or len(items) != len(expected):
        return f"{call} returned {value!r}, not one result for each of the {len(expected)} inputs"
    for index, (item, wanted) in enumerate(zip(items, expected)):
        if not agree(read(item), wanted, same):
            return f"{call}[{index}] is {item!r}, but invoke(xs[{index}]) {describe(wanted)}"
    return None


def _batch(runnable: Tested, inputs: list[object], how: Comparison) -> str | None:
    expected = _invoked(runnable, inputs)
    batched = outcome_of(lambda: runnable.batch(inputs))
    return _batch_problem("batch", batched, expected, how.same) or _batch_problem(
        "abatch", aoutcome_of(lambda: runnable.abatch(inputs)), expected, how.same
    )


def _stream_problem(name: str, streamed: Outcome, invoked: Outcome, same: Same) -> str | None:
    if isinstance(streamed, Raised) and isinstance(streamed.error, ChunksDoNotAdd):
        return f"{name}(x): {streamed.error}"
    if isinstance(streamed, Returned) and streamed.value is NO_CHUNKS:
        if isinstance(invoked, Raised) and isinstance(invoked.error, EmptyStreamError):
            return None
        return f"{name}(x) gave no chunks, but invoke(x) {describe(invoked)}"
    if agree(streamed, invoked, same):
        return None
    shown = f"'s chunks added up to {streamed.value!r}" if isinstance(streamed, Returned) else f" {describe(streamed)}"
    return f"{name}(x){shown}, but invoke(x) {describe(invoked)}"


def _streamed(runnable: Tested, input: object, how: Comparison) -> Outcome:
    return outcome_of(lambda: how.total(runnable.stream(input)))


def _stream(runnable: Tested, input: object, how: Comparison) -> str | None:
    invoked = outcome_of(lambda: runnable.invoke(input))
    return _stream_problem("stream", _streamed(runnable, input, how), invoked, how.same)


def _async(runnable: Tested, input: object, how: Comparison) -> str | None:
    invoked = outcome_of(lambda: runnable.invoke(input))
    awaited = aoutcome_of(lambda: runnable.ainvoke(input))
    if not agree(awaited, invoked, how.same):
        return f"ainvoke(x) {describe(awaited)}, but invoke(x) {describe(invoked)}"
    chunks: list[object] = []

    async def gather() -> None:
        chunks.extend(await collect(runnable.astream(input)))

    ran = aoutcome_of(gather)
    astreamed = outcome_of(lambda: how.total(chunks)) if isinstance(ran, Returned) else ran
    return _stream_problem("astream", astreamed, invoked, how.same)


def _drained(stream: Callable[[], AsyncIterable[T]]) -> tuple[list[T], Exception | None]:
    """What an async stream (made inside the loop) gave before it ended or raised, and
    what it raised."""
    drained: list[T] = []

    async def gather() -> None:
        async for item in stream():
            drained.append(item)

    try:
        run_async(gather)
    except Exception as error:
        return drained, error
    return drained, None


def _async_events(runnable: Tested, input: object) -> tuple[list[dict[str, object]], Exception | None]:
    events, error = _drained(lambda: runnable.astream_events(input))
    return [dict(event) for event in events], error


def _sync_events(runnable: Tested, input: object) -> tuple[list[dict[str, object]], Exception | None]:
    events: list[dict[str, object]] = []
    try:
        for event in runnable.stream_events(input):
            events.append(dict(event))
    except Exception as error:
        return events, error
    return events, None


def _events(runnable: Tested, input: object, how: Comparison) -> str | None:
    invoked = outcome_of(lambda: runnable.invoke(input))
    for name, (events, error) in (
        ("astream_events", _async_events(runnable, input)),
        ("stream_events", _sync_events(runnable, input)),
    ):
        problem = nesting_problem(events) or root_problem(events, error, invoked, how.same)
        if problem is not None:
            return f"{name}(x): {problem}"
    return None


def _effects(runnable: Tested, input: object) -> tuple[list[Effect], Exception | None]:
    return _drained(lambda: runnable.astream_effects(input))


def _log_patches(runnable: Tested, input: object) -> tuple[list[RunLogPatch], Exception | None]:
    return _drained(lambda: runnable.astream_log(input))


def _replayed(patches: list[RunLogPatch]) -> RunLog:
    total = RunLog(state=None)
    for patch in patches:
        total = total + patch
    return total


def _log(runnable: Tested, input: object, how: Comparison) -> str | None:
    invoked = outcome_of(lambda: runnable.invoke(input))
    # The patches and the accumulated logs of one run (two projections of its effects)
    # must agree; another run, through astream_log, must end as invoke does.
    effects, _ = _effects(runnable, input)
    folded = _replayed(list(run_log_patches(effects)))
    states = list(run_logs(effects))
    if not states or folded.state != states[-1].state:
        final = states[-1].state if states else None
        return f"replaying the patches gives {folded.state!r}, but the final RunLog is {final!r}"
    patches, error = _log_patches(runnable, input)
    ran = Returned(None) if error is None else Raised(error)
    if not agree(ran, invoked, lambda a, b: True):
        return f"astream_log(x) {describe(ran)}, but invoke(x) {describe(invoked)}"
    if isinstance(invoked, Raised):
        return None
    state: dict[str, Any] = _replayed(patches).state  # type: ignore[assignment]  # a RunLog's root is an object
    open_runs = [key for key, entry in state["logs"].items() if entry["end_time"] is None]
    if open_runs:
        return f"the final log has runs that never ended: {open_runs}"
    streamed = _streamed(runnable, input, how)
    if isinstance(streamed, Returned):
        wanted = None if streamed.value is NO_CHUNKS else settle_json(to_jsonable(streamed.value))
        if settle_json(to_jsonable(state["final_output"])) != wanted:
            return f"the log's final_output is {state['final_output']!r}, but the stream adds up to {wanted!r}"
    return None


def _return_exceptions(runnable: Tested, inputs: list[object], how: Comparison) -> str | None:
    expected = _invoked(runnable, inputs)
    for name, results in (
        ("batch", outcome_of(lambda: runnable.batch(inputs, return_exceptions=True))),
        ("abatch", aoutcome_of(lambda: runnable.abatch(inputs, return_exceptions=True))),
    ):
        call = f"{name}(xs, return_exceptions=True)"
        if isinstance(results, Raised):
            return f"{call} {describe(results)}"
        problem = _results_problem(call, results.value, expected, how.same, as_outcome)
        if problem is not None:
            return problem
    return None


BATCH: Final = law("batch", "batch(xs) and abatch(xs) equal [invoke(x) for x in xs]", input_lists, _batch)
STREAM: Final = law("stream", "the chunks of stream(x) add up to invoke(x)", one_input, _stream)
ASYNC: Final = law("async", "ainvoke(x) equals invoke(x), and astream(x) adds up to it too", one_input, _async)
EVENTS: Final = law(
    "events",
    "astream_events(x) and stream_events(x) are well nested and end with the root's output or error",
    one_input,
    _events,
)
LOG: Final = law(
    "log",
    "the run log's patches replay to its final state, whose final_output is what stream(x) adds up to",
    one_input,
    _log,
)
RETURN_EXCEPTIONS: Final = law(
    "return_exceptions",
    "batch(xs, return_exceptions=True) keeps one result per input, in order, as invoke(x) gives it",
    input_lists,
    _return_exceptions,
)

RUNTIME_LAWS: Final[tuple[Law, ...]] = (BATCH, STREAM, ASYNC, EVENTS, LOG, RETURN_EXCEPTIONS)
"""The laws ``check_laws`` checks by default."""
