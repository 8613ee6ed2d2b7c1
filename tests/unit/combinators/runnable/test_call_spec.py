"""The call surface generated from ``combinators/runnable/call_spec.py``: the reader bind (the keyword bind is in
``tests/unit/combinators/nodes/test_binding.py``), batches over any sequence, and what a ``str`` batch does at run time."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from types import FrameType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators import Runnable, RunnableLambda, pure


def test_map_of_nothing_is_langchains_element_wise_map_and_map_of_f_the_functor_map() -> None:
    double = RunnableLambda(lambda x: x * 2)
    assert double.map() == double.each()
    assert double.map().invoke([1, 2, 3]) == [2, 4, 6]
    assert asyncio.run(double.map().ainvoke([4])) == [8]
    assert double.map(str).invoke(21) == "42"


def test_bind_of_a_function_is_the_reader_bind() -> None:
    def choose(n: int) -> Runnable[int, int]:
        return pure(0) if n < 0 else RunnableLambda(lambda x: x * 100)

    chained = RunnableLambda(lambda x: x - 1).bind(choose)
    assert chained.batch([0, 2]) == [0, 200]


def test_bind_of_a_function_and_keywords_is_refused_naming_both() -> None:
    with pytest.raises(TypeError, match=r"not both: got .*choose.* and \['stop'\]"):

        def choose(n: int) -> Runnable[int, int]:
            return pure(n)

        RunnableLambda(abs).bind(choose, stop=["\n"])  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue]


class Inputs(Sequence[int]):
    """A sequence that is neither a list nor a tuple."""

    def __init__(self, *items: int) -> None:
        self._items = items

    def __getitem__(self, index: int) -> int:  # type: ignore[override]  # slices are not asked for here
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)


@given(st.lists(st.integers(), max_size=20))
def test_every_batch_takes_any_sequence_and_keeps_input_order(xs: list[int]) -> None:
    r = RunnableLambda(lambda x: x * 2)
    inputs = Inputs(*xs)
    expected = [x * 2 for x in xs]
    assert r.batch(inputs) == expected
    assert [out.unwrap() for out in r.batch_results(inputs)] == expected
    assert sorted(r.batch_as_completed(inputs)) == list(enumerate(expected))
    assert asyncio.run(r.abatch(inputs)) == expected

    async def completed() -> list[tuple[int, int]]:
        return sorted([pair async for pair in r.abatch_as_completed(inputs)])

    assert asyncio.run(completed()) == list(enumerate(expected))


def test_a_range_and_a_deque_are_batches_too() -> None:
    assert RunnableLambda(lambda x: x + 1).batch(range(3)) == [1, 2, 3]
    assert RunnableLambda(lambda x: x + 1).batch(deque([5])) == [6]


def test_a_str_batch_runs_once_per_character_as_its_deprecation_says() -> None:
    # The checkers flag it (a @deprecated overload); at run time it is a sequence like any other.
    assert RunnableLambda(str.upper).batch("ab") == ["A", "B"]  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]


def test_the_spec_keeps_pick_required_honest_at_run_time() -> None:
    def counts(text: str) -> Mapping[str, int]:
        return {"chars": len(text)}

    picked = RunnableLambda(counts).pick(["chars", "words"], required=True)
    with pytest.raises(Exception, match="missing the key 'words'"):
        picked.invoke("abc")


def _python_frames(call: Callable[[], object]) -> list[str]:
    """The Python functions entered while ``call()`` runs, in order (module:function)."""
    import sys

    entered: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            entered.append(f"{frame.f_globals.get('__name__')}:{frame.f_code.co_name}")

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return [name for name in entered if name.startswith(("combinators", "effects"))]


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("invoke", lambda r: r.invoke(1)),
        ("ainvoke", lambda r: asyncio.run(r.ainvoke(1))),
        ("stream", lambda r: list(r.stream(1))),
        ("batch", lambda r: r.batch([1])),
    ],
)
def test_a_call_goes_straight_from_the_generated_method_into_the_runtime(
    name: str, call: Callable[[Runnable[int, int]], object]
) -> None:
    # "The hot paths gain no frame": the surface is one frame (the generated method),
    # whose next frame is already the runtime's function of the same name.
    r = RunnableLambda(abs)
    frames = _python_frames(lambda: call(r))
    assert frames[:2] == [f"combinators.runnable.calls:{name}", f"effects._runtime.{_home(name)}:{name}"]


def _home(name: str) -> str:
    return "batches" if "batch" in name else "calls"
