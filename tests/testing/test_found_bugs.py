"""Library bugs the shipped strategies found, kept as regression tests (all fixed)."""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any

import attrs
import pytest
from hypothesis.vendor.pretty import pretty

from combinators import Runnable, RunnableLambda, RunnableParallel, RunnablePick
from combinators.testing import assert_laws, check_laws
from combinators.testing import steps
from effects.authoring import Scope


def boom(x: int) -> int:
    raise ValueError("upstream")


def test_stream_keeps_an_error_raised_before_a_retry_step() -> None:
    chain = RunnableLambda(boom) | RunnableLambda(steps.inc).with_retry(
        stop_after_attempt=2, wait_exponential_jitter=False
    )
    with pytest.raises(ValueError, match="upstream"):
        list(chain.stream(1))


def test_stream_keeps_an_error_raised_before_a_fallbacks_step() -> None:
    chain = RunnableLambda(boom) | RunnableLambda(steps.inc).with_fallbacks([RunnableLambda(steps.inc)])
    with pytest.raises(ValueError, match="upstream"):
        list(chain.stream(1))


def test_events_stay_nested_when_the_input_of_a_retry_fails() -> None:
    chain = RunnableLambda(boom) | RunnableLambda(steps.inc).with_retry(
        stop_after_attempt=2, wait_exponential_jitter=False
    )
    assert_laws(chain, laws=["events"], max_examples=5)


def test_picking_several_keys_streams_chunks_that_add_up() -> None:
    # Once fixed: add RunnablePick(["a", "b"]) to the (Record, Record) leaves in catalog.py.
    chain = RunnableParallel(a=RunnableLambda(steps.inc), b=RunnableLambda(steps.double)) | RunnablePick(["a", "b"])
    assert check_laws(chain | RunnableLambda(steps.add_parts), laws=["stream"], max_examples=5).holds


def test_a_configured_runnable_pickles() -> None:
    chain = RunnableLambda(steps.inc).with_config(tags=["generated"])
    assert pickle.loads(pickle.dumps(chain)) == chain


def test_a_wrapped_sequence_prints_as_its_expression() -> None:
    chain = (RunnableLambda(steps.inc) | RunnableLambda(steps.double)).with_retry()
    assert repr(chain).startswith("(RunnableLambda(inc) | RunnableLambda(double)).with_retry(")


def test_hypothesis_prints_a_users_runnable_by_its_repr() -> None:
    @attrs.frozen(repr=False)
    class Shout(Runnable[str, str]):
        def __repr__(self) -> str:
            return "Shout()"

        def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> str:
            return input.upper()

    assert pretty(Shout()) == "Shout()"


def test_parallel_branches_see_their_input_fail_and_do_not_start_late() -> None:
    import asyncio

    from combinators import RunnablePassthrough
    from tests.unit.effects.projections.test_projections_live_events import check_well_nested

    chain = (
        RunnableLambda(boom)
        | RunnablePassthrough[int]()
        | RunnableParallel(a=RunnablePassthrough[int](), b=RunnablePassthrough[int]())
    )
    seen: list[dict[str, Any]] = []

    async def main() -> None:
        async for event in chain.astream_events(1):
            seen.append(dict(event))

    with pytest.raises(ValueError):
        asyncio.run(main())
    check_well_nested(seen)
    assert not [e for e in seen if e["name"] == "RunnablePassthrough" and e["parent_ids"][-1:] != [seen[0]["run_id"]]]
