"""Batches as the runtime runs them: results in input order, exceptions as results (never a BaseException),
one config per input, a given run id for the first input only, results as they complete."""

from __future__ import annotations

import asyncio

import pytest
from returns.result import Failure, Success

from combinators import RunConfig, RunnableLambda


def inc(x: int) -> int:
    return x + 1


def inverse(x: int) -> float:
    return 1 / x


def test_batch_keeps_order_and_types_exceptions() -> None:
    r = RunnableLambda(inverse)
    assert r.batch([1, 2, 4]) == [1.0, 0.5, 0.25]
    out = r.batch([1, 0, 2], return_exceptions=True)
    assert out[0] == 1.0 and out[2] == 0.5
    assert isinstance(out[1], ZeroDivisionError)
    with pytest.raises(ZeroDivisionError):
        r.batch([1, 0, 2])
    assert r.batch([]) == []


def test_batch_results_are_returns_results() -> None:
    results = RunnableLambda(inverse).batch_results([2, 0])
    assert results[0] == Success(0.5)
    assert isinstance(results[1], Failure)
    assert isinstance(results[1].failure(), ZeroDivisionError)


def test_base_exceptions_are_never_captured_as_results() -> None:
    def stop(x: int) -> int:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        RunnableLambda(stop).batch([1, 2], return_exceptions=True)


def test_batch_configs_list_must_match_inputs() -> None:
    seen: list[tuple[str, ...]] = []

    def tags(x: int, config: RunConfig) -> int:
        seen.append(config.tags)
        return x

    RunnableLambda(tags).batch([1, 2], [{"tags": ["a"]}, {"tags": ["b"]}])
    assert sorted(seen) == [("a",), ("b",)]
    with pytest.raises(ValueError, match="2 configs for 3 inputs"):
        RunnableLambda(tags).batch([1, 2, 3], [{}, {}])


def test_batch_run_id_applies_to_the_first_input_only() -> None:
    import uuid

    given = uuid.uuid4()
    seen: dict[int, uuid.UUID] = {}
    watched = RunnableLambda(inc).with_listeners(on_end=lambda run: seen.update({run.inputs["input"]: run.id}))
    with pytest.warns(RuntimeWarning, match="first input only"):
        assert watched.batch([1, 2], {"run_id": given}) == [2, 3]
    assert seen[1] == given
    assert seen[2] != given and isinstance(seen[2], uuid.UUID)


def test_abatch_order_and_return_exceptions() -> None:
    async def slow_inverse(x: int) -> float:
        await asyncio.sleep(0.001 * (3 - x) if x >= 0 else 0)
        return 1 / x

    r = RunnableLambda(slow_inverse)

    async def main() -> list[float | Exception]:
        return await r.abatch([1, 0, 2], return_exceptions=True)

    out = asyncio.run(main())
    assert out[0] == 1.0 and out[2] == 0.5 and isinstance(out[1], ZeroDivisionError)


def test_batch_as_completed_yields_every_index_once() -> None:
    pairs = list(RunnableLambda(inc).batch_as_completed([10, 20, 30]))
    assert sorted(pairs) == [(0, 11), (1, 21), (2, 31)]

    async def main() -> list[tuple[int, int | Exception]]:
        return [p async for p in RunnableLambda(inc).abatch_as_completed([1, 2], return_exceptions=True)]

    assert sorted(asyncio.run(main()), key=lambda p: p[0]) == [(0, 2), (1, 3)]  # type: ignore[arg-type, return-value]
