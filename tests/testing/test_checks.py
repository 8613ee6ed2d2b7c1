"""``check_laws`` / ``assert_laws``: each law catches its breach and shows the smallest input."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

import attrs
import pytest
from hypothesis import strategies as st

from combinators import Runnable, RunnableLambda
from combinators.components.models.fakes import GenericFakeChatModel, Script
from combinators.testing import (
    ALGEBRAIC_LAWS,
    RUNTIME_LAWS,
    Flaky,
    Law,
    LawReport,
    ScriptedFailure,
    assert_laws,
    check_laws,
    last_chunk,
    runnables,
)
from combinators.testing import steps
from combinators.testing.nesting import nesting_problem, root_problem
from combinators.testing.outcomes import Raised, Returned, same_value
from effects.authoring import Scope

ints = st.integers(-100, 100)


def broken(report: LawReport) -> dict[str, Any]:
    return {o.law.key: o.counterexample for o in report.broken}


@attrs.frozen
class StreamsWrongFromFive(Runnable[int, int]):
    """Invoke doubles; its stream is off by one from 5 on."""

    def step_invoke(self, input: int, scope: Scope, kwargs: Mapping[str, Any]) -> int:
        return input * 2

    def step_stream(self, inputs: Iterator[int], scope: Scope, kwargs: Mapping[str, Any]) -> Iterator[int]:
        for x in inputs:
            yield x * 2 + (1 if x >= 5 else 0)


@attrs.frozen
class AsyncDisagrees(Runnable[int, int]):
    def step_invoke(self, input: int, scope: Scope, kwargs: Mapping[str, Any]) -> int:
        return input

    async def step_ainvoke(self, input: int, scope: Scope, kwargs: Mapping[str, Any]) -> int:
        return -input

    async def step_astream(
        self, inputs: AsyncIterator[int], scope: Scope, kwargs: Mapping[str, Any]
    ) -> AsyncIterator[int]:
        async for x in inputs:
            yield -x


@attrs.frozen
class Counter(Runnable[int, int]):
    """Not deterministic: each call answers how many calls came before."""

    calls: Iterator[int] = attrs.field(factory=itertools.count, eq=False)

    def step_invoke(self, input: int, scope: Scope, kwargs: Mapping[str, Any]) -> int:
        return next(self.calls)


def test_a_deterministic_chain_keeps_every_law() -> None:
    report = check_laws(RunnableLambda(steps.inc) | RunnableLambda(steps.show), ints, max_examples=10)
    assert report.holds and report.broken == ()
    assert [o.law for o in report.outcomes] == list(RUNTIME_LAWS)
    assert str(report).startswith("laws of RunnableLambda(inc) | RunnableLambda(show): all 6 hold")


def test_a_broken_stream_is_reported_with_the_smallest_input() -> None:
    report = check_laws(StreamsWrongFromFive(), ints, max_examples=50)
    found = broken(report)
    assert set(found) == {"stream", "async", "events"}  # the log shows what was streamed: it agrees
    assert found["stream"].example == 5
    assert found["stream"].why == "stream(x)'s chunks added up to 11, but invoke(x) returned 10"
    assert "smallest example: 5" in str(report)


def test_sync_and_async_disagreeing_is_reported() -> None:
    found = broken(check_laws(AsyncDisagrees(), ints, laws=["async", "batch"], max_examples=20))
    assert found["async"].example == 1
    assert found["async"].why == "ainvoke(x) returned -1, but invoke(x) returned 1"
    assert found["batch"].example == [1]


def test_a_stateful_runnable_breaks_batch_and_return_exceptions() -> None:
    found = broken(check_laws(Counter(), ints, laws=["batch", "return_exceptions"], max_examples=10))
    assert set(found) == {"batch", "return_exceptions"}
    assert found["batch"].example == [0]


def test_a_runnable_that_breaks_only_once_is_called_not_deterministic() -> None:
    seen: set[str] = set()

    def first_time(question: str) -> bool:
        new = question not in seen
        seen.add(question)
        return new

    report = check_laws(RunnableLambda(first_time), st.sampled_from(["a", "b"]), laws=["batch"], max_examples=20)
    assert "the runnable is not deterministic" in str(report)


def test_errors_agree_by_type_and_return_exceptions_keeps_them_in_place() -> None:
    def reciprocal(x: int) -> float:
        return 1 / x

    assert check_laws(RunnableLambda(reciprocal), st.integers(-3, 3), max_examples=20).holds


def test_assert_laws_names_the_broken_law() -> None:
    with pytest.raises(AssertionError, match=r"BROKEN  stream: .*\n.*smallest example: 5"):
        assert_laws(StreamsWrongFromFive(), ints, laws=["stream"], max_examples=50)
    assert_laws(RunnableLambda(steps.inc), ints, max_examples=5)


def test_laws_are_chosen_by_value_or_key() -> None:
    report = check_laws(RunnableLambda(steps.inc), ints, laws=[Law.named("stream"), "log"], max_examples=3)
    assert [o.law.key for o in report.outcomes] == ["stream", "log"]
    with pytest.raises(ValueError, match="no law is named 'nope'"):
        check_laws(RunnableLambda(steps.inc), ints, laws=["nope"])


def test_inputs_default_to_inputs_for() -> None:
    assert check_laws(RunnableLambda(steps.digits), max_examples=5).holds
    with pytest.raises(TypeError, match="inputs_for cannot tell"):
        check_laws(RunnableLambda(lambda x: x))


def test_a_cumulative_stream_is_totalled_by_its_last_chunk() -> None:
    def partials(text: str) -> Iterator[dict[str, int]]:
        for n in range(1, len(text) + 1):
            yield {"length": n}

    chain = RunnableLambda(partials)
    assert set(broken(check_laws(chain, laws=["stream"], max_examples=5))) == {"stream"}
    assert check_laws(chain, stream_total=last_chunk, max_examples=5).holds


def test_a_model_failing_its_first_call_is_recovered_by_retry_and_keeps_the_laws() -> None:
    model = GenericFakeChatModel(Script(["fog over the bay"], cycle=True))
    chain = Flaky(model, failures=1).with_retry(stop_after_attempt=2, wait_exponential_jitter=False)
    assert check_laws(chain, max_examples=10).holds


def test_a_custom_comparison_of_outputs() -> None:
    def noisy(x: int) -> float:
        return x + 1e-12 * (x % 3)

    def close(a: float, b: float) -> bool:
        return abs(a - b) < 1e-9

    assert check_laws(RunnableLambda(noisy), ints, same=close, max_examples=10).holds


def test_check_laws_works_inside_a_running_event_loop() -> None:
    async def main() -> bool:
        return check_laws(RunnableLambda(steps.inc), ints, max_examples=3).holds

    assert asyncio.run(main())


# ----------------------------------------------------------------------------- algebra


@attrs.frozen
class Shout(Runnable[str, str]):
    """A user's own runnable."""

    def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> str:
        return input.upper() + "!"


def test_a_custom_runnable_keeps_the_algebraic_laws() -> None:
    report = check_laws(Shout(), laws=ALGEBRAIC_LAWS, max_examples=10)
    assert report.holds, str(report)
    assert [o.law.key for o in report.outcomes] == [law.key for law in ALGEBRAIC_LAWS]


def test_a_stateful_runnable_breaks_the_algebraic_laws_with_readable_examples() -> None:
    report = check_laws(Counter(), ints, laws=["map_identity", "map_fusion"], max_examples=10)
    assert set(broken(report)) == {"map_identity", "map_fusion"}
    assert "smallest example: (0, identity, identity, 0)" in str(report)


def test_generated_chains_are_checked_from_a_plain_test() -> None:
    from hypothesis import find

    chain = find(runnables(int, str, max_leaves=5, failures=False), lambda c: "bind" in repr(c))
    assert check_laws(chain, max_examples=5).holds


# ----------------------------------------------------------------------------- event checks


def event(kind: str, run: str, parents: list[str], **data: object) -> dict[str, Any]:
    return {"event": f"on_chain_{kind}", "run_id": run, "name": run, "parent_ids": parents, "data": data}


@pytest.mark.parametrize(
    ("events", "problem"),
    [
        ([event("start", "r", []), event("start", "c", ["r"]), event("end", "c", ["r"]), event("end", "r", [])], None),
        ([event("start", "r", []), event("start", "r", [])], "run r started twice"),
        ([event("start", "c", ["r"])], "run c (c) started outside its open parents ['r']"),
        (
            [event("start", "r", []), event("start", "c", ["r"]), event("end", "r", [])],
            "run r (r) ended before its children ['c']",
        ),
        ([event("stream", "r", [])], "run r streamed while not open"),
        ([event("end", "r", [])], "run r ended while not open"),
        ([event("start", "r", [])], "run r started but never ended"),
        ([{"event": "on_custom_event", "run_id": "r"}], "a custom event of run r came while that run was not open"),
    ],
)
def test_nesting_problems_are_named(events: list[dict[str, Any]], problem: str | None) -> None:
    assert nesting_problem(events) == problem


def test_the_root_must_end_as_invoke_does() -> None:
    start, end = event("start", "r", []), event("end", "r", [], output=2)
    assert root_problem([start, end], None, Returned(2), same_value) is None
    assert root_problem([start, end], None, Returned(3), same_value) == (
        "the root's end event has output 2, but invoke(x) returned 3"
    )
    failed = Raised(ScriptedFailure("x"))
    assert root_problem([start, event("error", "r", [])], ScriptedFailure("x"), failed, same_value) is None
    assert root_problem([start, end], None, failed, same_value) == (
        "the event stream ended, but invoke(x) raised ScriptedFailure('x')"
    )
    assert root_problem([], None, Returned(1), same_value) == "no events (the stream was empty)"
