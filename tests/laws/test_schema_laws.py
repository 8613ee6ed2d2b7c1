"""Laws of the schema hook: a wrapper that keeps ``[In, Out]`` keeps its inner runnable's types."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from combinators import AnyRunnable, ConfigurableField, Runnable, RunnableBranch, RunnableLambda

_TYPES: list[object] = [int, str, float, bool, list[int], dict[str, float], tuple[int, str], int | None]


def _typed(takes: object, gives: object) -> RunnableLambda[Any, Any]:
    def step(x: Any) -> Any:
        return x

    step.__annotations__ = {"x": takes, "return": gives}
    return RunnableLambda(step)


def _untyped() -> RunnableLambda[Any, Any]:
    return RunnableLambda(lambda x: x)


def _ignored(run: object) -> None:
    pass


Wrap = Callable[[Runnable[Any, Any], int], Runnable[Any, Any]]

_WRAPPERS: list[Wrap] = [
    lambda r, _: r.with_retry(),
    lambda r, _: r.with_fallbacks([_untyped()]),
    lambda r, depth: r.configurable_alternatives(ConfigurableField(id=f"pick{depth}"), other=_untyped()),
    lambda r, depth: r.with_config(tags=[f"t{depth}"]),
    lambda r, _: r.bind(stop="x"),
    lambda r, _: r.with_listeners(on_start=_ignored),
    lambda r, _: RunnableBranch((lambda x: True, r), r),
]


def _untitled(schema: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in schema.items() if key != "title"}


@given(st.sampled_from(_TYPES), st.sampled_from(_TYPES), st.lists(st.sampled_from(_WRAPPERS), min_size=1, max_size=4))
def test_wrapping_never_loses_the_inner_types(takes: object, gives: object, wraps: list[Wrap]) -> None:
    inner = _typed(takes, gives)
    wrapped: Runnable[Any, Any] = inner
    for depth, wrap in enumerate(wraps):
        wrapped = wrap(wrapped, depth)
    shown: AnyRunnable = wrapped
    assert shown.declared_type("input") == takes and shown.declared_type("output") == gives
    assert _untitled(wrapped.input_schema()) == _untitled(inner.input_schema())
    assert _untitled(wrapped.output_schema()) == _untitled(inner.output_schema())
    each = wrapped.each()
    assert _untitled(each.input_schema()) == {"type": "array", "items": _untitled(inner.input_schema())}
