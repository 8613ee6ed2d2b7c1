"""Issue 13, item 9: ``repr`` rebuilds the value it shows."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Iterator
from typing import Any

from hypothesis import given, settings

import combinators
import combinators.testing.steps as steps
from combinators import (
    ExponentialWait,
    RetryPolicy,
    Runnable,
    RunnableGenerator,
    RunnableLambda,
    RunnablePassthrough,
    RunnableSequence,
)
from combinators.testing import runnables
from combinators.testing.nodes import Flaky, Switch


def namespace() -> dict[str, Any]:
    names: dict[str, Any] = {name: getattr(combinators, name) for name in combinators.__all__}
    names.update({k: v for k, v in vars(steps).items() if not k.startswith("_")})
    names.update(Flaky=Flaky, Switch=Switch, math=math)
    return names


def rebuilt(value: object) -> object:
    return eval(repr(value), namespace())


@settings(max_examples=80, deadline=None)
@given(runnables(max_leaves=7))
def test_eval_of_repr_of_a_generated_chain_equals_it(chain: Runnable[Any, Any]) -> None:
    assert rebuilt(chain) == chain, repr(chain)


def test_fallbacks_show_their_exceptions_and_key() -> None:
    chain = RunnableLambda(steps.inc).with_fallbacks(
        [RunnableLambda(steps.double)], exceptions_to_handle=(ValueError, KeyError), exception_key="error"
    )
    assert repr(chain) == (
        "RunnableLambda(inc).with_fallbacks([RunnableLambda(double)], "
        "exceptions_to_handle=(ValueError, KeyError), exception_key='error')"
    )
    assert rebuilt(chain) == chain


async def _ainc(x: int) -> int:
    return x + 1


def test_a_lambda_shows_its_afunc_name_and_thread() -> None:
    step = RunnableLambda(steps.inc, afunc=_ainc, name="plus", in_thread=False)
    assert repr(step) == "RunnableLambda(inc, afunc=_ainc, name='plus', in_thread=False)"
    assert eval(repr(step), {**namespace(), "_ainc": _ainc}) == step


def test_retry_policy_reads_as_python() -> None:
    policy = RetryPolicy(max_attempts=4, wait=ExponentialWait(jitter=0.5), retry_on=(TimeoutError,), max_delay=math.inf)
    assert repr(policy) == (
        "RetryPolicy(max_attempts=4, wait=ExponentialWait(jitter=0.5), retry_on=(TimeoutError,), max_delay=float('inf'))"
    )
    assert rebuilt(policy) == policy
    assert repr(RetryPolicy()) == "RetryPolicy()"


def test_inline_lambdas_show_their_source() -> None:
    step = RunnableLambda(lambda x: x + 1) | (lambda y: y * 2)
    assert repr(step) == "RunnableLambda(lambda x: x + 1) | RunnableLambda(lambda y: y * 2)"
    assert rebuilt(step).invoke(1) == 4


def test_a_lambda_without_source_shows_its_qualified_name() -> None:
    made = eval("lambda x: x")
    assert repr(RunnableLambda(made)) == "RunnableLambda(<lambda>)"


def _upper_chunks(chunks: Iterator[str]) -> Iterator[str]:
    for chunk in chunks:
        yield chunk.upper()


async def _aupper_chunks(chunks: AsyncIterator[str]) -> AsyncIterator[str]:
    async for chunk in chunks:
        yield chunk.upper()


def test_named_sequences_generators_and_passthroughs_rebuild() -> None:
    values: list[object] = [
        RunnableSequence(RunnableLambda(steps.inc), RunnableLambda(steps.show), name="pair"),
        RunnableGenerator(_upper_chunks, name="upper"),
        RunnableGenerator(_aupper_chunks),
        RunnablePassthrough(steps.inc),
        RunnableLambda(str.upper).with_listeners(on_end=steps.inc).with_types(input_type=str),
        RunnableLambda(steps.inc).with_config(tags=["t"], metadata={"k": 1}),
    ]
    for value in values:
        names = {**namespace(), "_upper_chunks": _upper_chunks, "_aupper_chunks": _aupper_chunks}
        assert eval(repr(value), names) == value, repr(value)
