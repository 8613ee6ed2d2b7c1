"""No silent coercion: a tool's function gets each argument with its annotated type, or
the call is refused before the function runs. Checked over generated signatures and
generated argument values (values that fit, and any JSON at all)."""

from __future__ import annotations

import asyncio
import enum
import types
import inspect
from typing import Any, Literal, NotRequired, TypedDict, Union, get_args, get_origin, get_type_hints, is_typeddict

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combinators import ToolArgumentsError
from combinators.components.tools.message_tools import StructuredTool, tool


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.Enum):
    LOW = 1
    HIGH = 2


class Pair(TypedDict):
    name: str
    count: int
    note: NotRequired[str | None]


@attrs.frozen
class Point:
    x: int
    y: float


@attrs.frozen
class Shape:
    label: str
    points: list[Point]
    color: Color = Color.RED


@attrs.frozen
class Positive:
    value: int = attrs.field(validator=attrs.validators.gt(0))


BASE = [int, float, bool, str, type(None), Color, Level, Pair, Point, Shape, Positive, Literal["a", "b"], Literal[1, 2]]


def hints() -> st.SearchStrategy[Any]:
    return st.recursive(
        st.sampled_from(BASE),
        lambda inner: st.one_of(
            inner.map(lambda h: list[h]),  # type: ignore[valid-type]
            inner.map(lambda h: dict[str, h]),  # type: ignore[valid-type]
            inner.map(lambda h: h | None),
            st.tuples(inner, inner).map(lambda pair: tuple[pair[0], pair[1]]),  # type: ignore[valid-type]
            st.tuples(inner, inner).map(lambda pair: Union[pair[0], pair[1]]),  # noqa: UP007 - Union takes None on both sides, | does not
        ),
        max_leaves=4,
    )


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-3, 3, allow_nan=False)
    | st.sampled_from([1.0, 2.0, 0.0, "a", "red", "blue", "x", 1, 2])
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["x", "y", "name", "count", "note", "label", "points", "value", "z"]), inner, max_size=4
        )
    ),
    max_leaves=8,
)


def fitting(hint: Any) -> st.SearchStrategy[Any]:
    """JSON values valid for ``hint`` (as a model following the schema would send)."""
    if hint is int:
        return st.integers(-5, 5)
    if hint is float:
        return st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False)
    if hint is bool:
        return st.booleans()
    if hint is str:
        return st.text(max_size=4)
    if hint is type(None):
        return st.none()
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return st.sampled_from(args)
    if origin is Union or origin is types.UnionType:
        return st.one_of([fitting(arm) for arm in args])
    if origin is list:
        return st.lists(fitting(args[0]), max_size=3)
    if origin is dict:
        return st.dictionaries(st.text(max_size=2), fitting(args[1]), max_size=3)
    if origin is tuple:
        return st.tuples(*[fitting(arm) for arm in args]).map(list)
    if hint in (Color, Level):
        return st.sampled_from([member.value for member in hint])
    if hint is Pair:
        return st.fixed_dictionaries(
            {"name": fitting(str), "count": fitting(int)}, optional={"note": fitting(str | None)}
        )
    if hint is Point:
        return st.fixed_dictionaries({"x": fitting(int), "y": fitting(float)})
    if hint is Shape:
        return st.fixed_dictionaries(
            {"label": fitting(str), "points": fitting(list[Point])}, optional={"color": fitting(Color)}
        )
    if hint is Positive:
        return st.fixed_dictionaries({"value": st.integers(1, 5)})
    raise AssertionError(f"no strategy for {hint!r}")


def conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` is a value of type ``hint`` (exactly: no bool for int, no int for float)."""
    if hint is Any:
        return True
    if hint in (int, float, bool, str, type(None)):
        return type(value) is hint
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return any(type(value) is type(choice) and value == choice for choice in args)
    if args and origin is not None and origin not in (list, dict, tuple):
        return any(conforms(value, arm) for arm in args)  # a union
    if origin is list:
        return type(value) is list and all(conforms(item, args[0]) for item in value)
    if origin is dict:
        return type(value) is dict and all(type(k) is str and conforms(v, args[1]) for k, v in value.items())
    if origin is tuple:
        return type(value) is tuple and len(value) == len(args) and all(map(conforms, value, args))
    if is_typeddict(hint):
        found = get_type_hints(hint)
        required = {"name", "count"}
        return (
            type(value) is dict
            and required <= set(value) <= set(found)
            and all(conforms(v, found[k] if k != "note" else str | None) for k, v in value.items())
        )
    if attrs.has(hint):
        found = get_type_hints(hint)
        return type(value) is hint and all(conforms(getattr(value, f.name), found[f.name]) for f in attrs.fields(hint))
    return isinstance(value, hint)


def spy_tool(hint: Any) -> tuple[Any, list[Any]]:
    seen: list[Any] = []

    def body(**arguments: Any) -> str:
        seen.append(arguments["arg"])
        return "ran"

    body.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("arg", inspect.Parameter.KEYWORD_ONLY, annotation=hint)]
    )
    body.__annotations__ = {"arg": hint, "return": str}
    return StructuredTool.from_function(body, name="probe", description="A probe."), seen


@settings(max_examples=120, deadline=None)
@given(st.data(), hints())
def test_a_value_that_fits_reaches_the_function_with_the_annotated_type(data: st.DataObject, hint: Any) -> None:
    probe, seen = spy_tool(hint)
    value = data.draw(fitting(hint), label="value")
    assert probe.invoke({"arg": value}) == "ran"
    assert len(seen) == 1
    assert conforms(seen[0], hint), (hint, value, seen[0])


@settings(max_examples=200, deadline=None)
@given(st.data(), hints())
def test_any_json_either_arrives_typed_or_is_refused_before_the_function_runs(data: st.DataObject, hint: Any) -> None:
    probe, seen = spy_tool(hint)
    value = data.draw(json_values | fitting(hint), label="value")
    try:
        probe.invoke({"arg": value})
    except ToolArgumentsError:
        assert seen == []
        return
    assert len(seen) == 1
    assert conforms(seen[0], hint), (hint, value, seen[0])


# -- the cases named in the issue ------------------------------------------------------------


def test_a_float_for_an_int_is_refused() -> None:
    calls: list[int] = []

    @tool
    def triple(n: int) -> int:
        """Triple it."""
        calls.append(n)
        return n * 3

    with pytest.raises(ToolArgumentsError, match=r"\$\.n: 1\.0 is not of type 'integer'"):
        triple.invoke({"n": 1.0})
    with pytest.raises(ToolArgumentsError):
        triple.invoke({"n": True})
    assert calls == []
    assert triple.invoke({"n": 2}) == 6
    assert asyncio.run(triple.ainvoke({"n": 2})) == 6


def test_an_int_for_a_float_arrives_as_a_float() -> None:
    @tool
    def half(x: float) -> float:
        """Halve it."""
        assert type(x) is float
        return x / 2

    assert half.invoke({"x": 3}) == 1.5


def test_enums_nested_attrs_and_their_validators() -> None:
    got: list[Any] = []

    @tool
    def draw(shape: Shape, level: Level, positive: Positive) -> str:
        """Draw."""
        got.append((shape, level, positive))
        return "drawn"

    assert (
        draw.invoke({"shape": {"label": "t", "points": [{"x": 1, "y": 2}]}, "level": 2, "positive": {"value": 3}})
        == "drawn"
    )
    assert got == [(Shape("t", [Point(1, 2.0)]), Level.HIGH, Positive(3))]
    assert type(got[0][0].points[0].y) is float
    with pytest.raises(ToolArgumentsError, match=r"\$\.positive: Positive: "):
        draw.invoke({"shape": {"label": "t", "points": []}, "level": 1, "positive": {"value": 0}})
    with pytest.raises(ToolArgumentsError, match=r"\$\.shape\.points\[0\]\.z: Point has no member 'z'"):
        draw.invoke(
            {"shape": {"label": "t", "points": [{"x": 1, "y": 2, "z": 3}]}, "level": 1, "positive": {"value": 1}}
        )
    assert len(got) == 1


def test_a_typeddict_with_an_undeclared_key_is_refused() -> None:
    @tool
    def count(pair: Pair) -> int:
        """Count."""
        return pair["count"]

    assert count.invoke({"pair": {"name": "a", "count": 2}}) == 2
    with pytest.raises(ToolArgumentsError, match="Pair has no member 'extra'"):
        count.invoke({"pair": {"name": "a", "count": 2, "extra": 1}})
