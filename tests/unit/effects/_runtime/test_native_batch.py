"""A step that batches by itself (step_batch / step_abatch): one call for every item of
batch and abatch, each item still a run of its own, errors per item, bindings unwrapped,
one max_concurrency permit, and the async call cut short at its deadline."""

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combinators import Runnable
from effects import Scope
from effects.errors import StepTimeout


@attrs.frozen
class Halves(Runnable[int, float]):
    """Halves every number in one call; an odd number fails its item only."""

    calls: list[list[int]] = attrs.field(factory=list, eq=False)
    delay: float = 0.0

    def step_invoke(self, input: int, scope: Scope, kwargs: Mapping[str, object]) -> float:
        raise AssertionError("one item at a time: the step's own batch was not used")

    def step_batch(self, inputs: Sequence[int], scopes: Sequence[Scope], kwargs: Mapping[str, object]) -> list[Any]:
        self.calls.append(list(inputs))
        return [ValueError(f"odd {i}") if i % 2 else i / 2 for i in inputs]

    async def step_abatch(
        self, inputs: Sequence[int], scopes: Sequence[Scope], kwargs: Mapping[str, object]
    ) -> list[Any]:
        await asyncio.sleep(self.delay)
        return self.step_batch(inputs, scopes, kwargs)


def test_one_call_for_every_item_outputs_in_order() -> None:
    step = Halves()
    assert step.batch([2, 4, 6]) == [1.0, 2.0, 3.0]
    assert asyncio.run(step.abatch([8, 10])) == [4.0, 5.0]
    assert step.calls == [[2, 4, 6], [8, 10]]
    assert step.batch([]) == [] and step.calls == [[2, 4, 6], [8, 10]]


def test_errors_are_per_item_and_the_first_is_raised_without_return_exceptions() -> None:
    outcomes = Halves().batch([2, 3], return_exceptions=True)
    assert outcomes[0] == 1.0 and isinstance(outcomes[1], ValueError)
    with pytest.raises(ValueError, match="odd 3"):
        Halves().batch([2, 3, 5])


def test_each_item_is_a_run_of_its_own_started_before_and_ended_after_the_call() -> None:
    seen: list[tuple[str, object]] = []
    step = Halves()
    watched = step.with_listeners(
        on_start=lambda run: seen.append(("start", run.inputs)),
        on_end=lambda run: seen.append(("end", run.outputs)),
        on_error=lambda run: seen.append(("error", type(run.error).__name__)),
    )
    assert watched.batch([2, 3], return_exceptions=True)[0] == 1.0
    assert step.calls == [[2, 3]]  # the listeners' binding is unwrapped: still one call
    assert seen == [("start", {"input": 2}), ("start", {"input": 3}), ("end", {"output": 1.0}), ("error", "ValueError")]


def test_the_call_holds_one_permit_of_max_concurrency() -> None:
    step = Halves()
    assert step.batch([2, 4, 6], {"max_concurrency": 1}) == [1.0, 2.0, 3.0]
    assert step.with_config(max_concurrency=1).batch([2, 4]) == [1.0, 2.0]
    assert step.calls == [[2, 4, 6], [2, 4]]


def test_the_async_call_is_cut_short_at_its_deadline() -> None:
    step = Halves(delay=30)
    with pytest.raises(StepTimeout):
        asyncio.run(step.with_timeout(0.1).abatch([2, 4]))
    assert step.calls == []


@attrs.frozen
class HalvesOneByOne(Runnable[int, float]):
    """The same step without a batch of its own: the runtime's per-item batch."""

    def step_invoke(self, input: int, scope: Scope, kwargs: Mapping[str, object]) -> float:
        if input % 2:
            raise ValueError(f"odd {input}")
        return input / 2


def _shown(outcomes: Sequence[object]) -> list[object]:
    return [repr(o) if isinstance(o, Exception) else o for o in outcomes]


@given(st.lists(st.integers(-50, 50), max_size=12), st.sampled_from([None, 1, 3]))
@settings(max_examples=60, deadline=None)
def test_a_native_batch_gives_what_the_per_item_batch_gives(inputs: list[int], limit: int | None) -> None:
    config: dict[str, Any] = {} if limit is None else {"max_concurrency": limit}
    native = Halves()
    assert _shown(native.batch(inputs, config, return_exceptions=True)) == _shown(
        HalvesOneByOne().batch(inputs, config, return_exceptions=True)
    )
    assert _shown(asyncio.run(native.abatch(inputs, config, return_exceptions=True))) == _shown(
        asyncio.run(HalvesOneByOne().abatch(inputs, config, return_exceptions=True))
    )
    assert native.calls == ([list(inputs)] * 2 if inputs else [])
