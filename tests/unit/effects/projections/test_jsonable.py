"""to_jsonable: one JSON form for every value, never raising, deterministic, idempotent."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
from collections import OrderedDict
from types import MappingProxyType
from typing import NoReturn
from uuid import UUID

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from effects.projections.jsonable import (
    MAX_REPR_CHARS,
    REDACTED,
    JsonValue,
    is_secret,
    redacted_form,
    safe_repr,
    to_jsonable,
)
from tests.unit.effects.projections.script import Message, Piece, Secret
from tests.unit.effects.projections.strategies import SECRET_TEXT, any_values


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


@attrs.frozen
class Tagged:
    type: str
    value: int
    cache: str = attrs.field(default="internal", repr=False)


@dataclasses.dataclass
class Point:
    x: int
    type: str = "pt"
    hidden: str = dataclasses.field(default="h", repr=False)


class Token:
    def __init__(self, value: str) -> None:
        self.value = value

    def __redacted__(self) -> str:
        return self.value[:2] + "****"


class BrokenRedaction:
    def __redacted__(self) -> str:
        raise RuntimeError("no")


class SelfRedaction:
    def __redacted__(self) -> object:
        return self


class ApiSecret(Secret):
    pass


class Shape:
    def __init__(self, corners: int) -> None:
        self.corners = corners

    def __jsonable__(self) -> object:
        return {"corners": self.corners}


class BadHook:
    def __jsonable__(self) -> object:
        raise ValueError("no form")


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr fails")


class LongRepr:
    def __repr__(self) -> str:
        return "x" * (MAX_REPR_CHARS + 50)


class BadMapping(dict[str, int]):
    def items(self) -> NoReturn:
        raise RuntimeError("cannot iterate")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        (True, True),
        (-3, -3),
        (2.5, 2.5),
        ("é", "é"),
        (float("nan"), "NaN"),
        (float("inf"), "Infinity"),
        (float("-inf"), "-Infinity"),
        ((1, [2, (3,)]), [1, [2, [3]]]),
        (
            {1: "a", None: "b", 1.5: "d", UUID(int=1): "e"},
            {"1": "a", "null": "b", "1.5": "d", "00000000-0000-0000-0000-000000000001": "e"},
        ),
        ({False: 0, float("nan"): 1}, {"false": 0, "NaN": 1}),
        ({"b": 1, "a": 2}, {"b": 1, "a": 2}),
        (OrderedDict(z=1), {"z": 1}),
        (MappingProxyType({"k": (1,)}), {"k": [1]}),
        ({3, 1, 2}, [1, 2, 3]),
        (frozenset({"b", "a"}), ["a", "b"]),
        (range(3), [0, 1, 2]),
        (b"hi", {"type": "bytes", "base64": "aGk="}),
        (bytearray(b"\x00"), {"type": "bytes", "base64": "AA=="}),
        (memoryview(b"ab"), {"type": "bytes", "base64": "YWI="}),
        (UUID(int=7), "00000000-0000-0000-0000-000000000007"),
        (dt.datetime(2025, 1, 2, 3, 4, 5, tzinfo=dt.UTC), "2025-01-02T03:04:05+00:00"),
        (dt.date(2025, 1, 2), "2025-01-02"),
        (dt.time(3, 4), "03:04:00"),
        (Color.RED, "red"),
        (Level.HIGH, 3),
        (ValueError("boom"), {"type": "error", "error_type": "ValueError", "message": "boom"}),
        (KeyError("k"), {"type": "error", "error_type": "KeyError", "message": "'k'"}),
        (Piece("a"), {"type": "Piece", "text": "a"}),
        (Message("hi", "m1"), {"type": "Message", "content": "hi", "id": "m1"}),
        (Shape(4), {"corners": 4}),
    ],
)
def test_json_form(value: object, expected: JsonValue) -> None:
    assert to_jsonable(value) == expected
    json.dumps(to_jsonable(value), allow_nan=False)


def test_attrs_and_dataclass_fields_named_type_yield_to_the_class_name_and_hidden_fields_stay_out() -> None:
    assert to_jsonable(Tagged("kind", 1)) == {"type": "Tagged", "type_": "kind", "value": 1}
    assert to_jsonable(Point(1)) == {"type": "Point", "x": 1, "type_": "pt"}


def test_str_and_int_subclasses_become_plain_values() -> None:
    class Name(str):
        def __str__(self) -> str:
            return "overridden"

    class Count(int):
        pass

    encoded = to_jsonable([Name("n"), Count(3)])
    assert encoded == ["n", 3]
    assert isinstance(encoded, list) and type(encoded[0]) is str and type(encoded[1]) is int


def test_secrets_are_redacted_everywhere() -> None:
    value = {"a": Secret(SECRET_TEXT), "b": [ApiSecret(SECRET_TEXT)], Secret(SECRET_TEXT): 1, "t": Token("abcdef")}
    encoded = to_jsonable(value)
    assert encoded == {"a": REDACTED, "b": [REDACTED], REDACTED: 1, "t": "ab****"}
    assert SECRET_TEXT not in json.dumps(encoded)


def test_redaction_that_fails_or_loops_falls_back_to_the_marker() -> None:
    assert to_jsonable(BrokenRedaction()) == REDACTED
    assert to_jsonable(SelfRedaction()) == REDACTED
    assert is_secret(Token("x")) and is_secret(ApiSecret("x")) and not is_secret("x")
    assert redacted_form(Token("abcd")) == "ab****"


def test_secret_inside_attrs_field_is_redacted() -> None:
    @attrs.frozen
    class Credentials:
        user: str
        password: object

    assert to_jsonable(Credentials("ann", Secret(SECRET_TEXT))) == {
        "type": "Credentials",
        "user": "ann",
        "password": REDACTED,
    }


def test_fallbacks_never_raise() -> None:
    assert to_jsonable(BadRepr()) == {"type": "repr", "repr": "<unrepresentable BadRepr>"}
    assert to_jsonable(BadHook()) == {"type": "repr", "repr": safe_repr(BadHook())}
    long = to_jsonable(LongRepr())
    assert isinstance(long, dict) and long["repr"] == "x" * MAX_REPR_CHARS + "..."
    assert to_jsonable(BadMapping(a=1)) == {"type": "repr", "repr": "{'a': 1}"}


def test_default_reprs_lose_their_memory_address() -> None:
    class Plain:
        pass

    first, second = to_jsonable(Plain()), to_jsonable(Plain())
    assert first == second
    assert isinstance(first, dict) and " at 0x" not in str(first["repr"])


def test_cycles_and_deep_nesting_are_cut() -> None:
    loop: list[object] = [1]
    loop.append(loop)
    assert to_jsonable(loop) == [1, {"type": "repr", "repr": "<cycle>"}]
    deep: list[object] = []
    for _ in range(500):
        deep = [deep]
    json.dumps(to_jsonable(deep))


def test_a_hook_returning_itself_is_shown_by_repr() -> None:
    class Selfish:
        def __jsonable__(self) -> object:
            return self

        def __repr__(self) -> str:
            return "Selfish()"

    assert to_jsonable(Selfish()) == {"type": "repr", "repr": "Selfish()"}


weird_values = st.one_of(
    any_values,
    st.builds(BadRepr),
    st.builds(LongRepr),
    st.builds(Tagged, st.text(max_size=3), st.integers()),
    st.builds(Point, st.integers()),
    st.sets(st.one_of(st.integers(), st.text(max_size=2)), max_size=4),
    st.dictionaries(st.one_of(st.integers(), st.none(), st.booleans(), st.text(max_size=2)), st.integers(), max_size=4),
    st.binary(max_size=4),
    st.uuids(),
    st.datetimes(timezones=st.just(dt.UTC)),
    st.floats(),
    st.builds(Color, st.just("red")),
)


@given(st.lists(weird_values, max_size=4))
def test_every_value_maps_to_strict_json_deterministically(values: list[object]) -> None:
    encoded = to_jsonable(values)
    text = json.dumps(encoded, allow_nan=False, sort_keys=True)
    assert json.dumps(to_jsonable(values), allow_nan=False, sort_keys=True) == text
    assert json.loads(text) == encoded


@given(weird_values)
def test_the_json_form_is_a_fixed_point(value: object) -> None:
    once = to_jsonable(value)
    assert to_jsonable(once) == once


@given(any_values)
def test_secrets_never_leak(value: object) -> None:
    assert SECRET_TEXT not in json.dumps(to_jsonable({"v": value}))


def test_secrets_in_exception_arguments_are_redacted() -> None:
    assert to_jsonable(ValueError(Secret(SECRET_TEXT))) == {
        "type": "error",
        "error_type": "ValueError",
        "message": REDACTED,
    }
    key_error = to_jsonable(KeyError(Secret(SECRET_TEXT)))
    assert isinstance(key_error, dict) and SECRET_TEXT not in str(key_error["message"])


def _named(error: BaseException) -> JsonValue:
    return {"type": "error", "error_type": type(error).__name__, "message": "hidden"}


@dataclasses.dataclass
class _Holding:
    error: Exception


class _Hooked:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def __jsonable__(self) -> object:
        return {"inner": to_jsonable([self.error])}  # a hook that encodes by itself


def test_an_error_form_writes_every_exception_at_any_depth() -> None:
    error = ValueError("https://internal.example/?key=sk-live-1")
    value = {"set": {error}, "keys": {1: error}, "record": _Holding(error), "hook": _Hooked(error), "bare": error}
    encoded = json.dumps(to_jsonable(value, error_form=_named))
    assert "sk-live" not in encoded and encoded.count('"message": "hidden"') == 5
    assert "sk-live" in json.dumps(to_jsonable(value))  # without a form: the default, as before
    deep: object = {"error": error, "holder": _Holding(error)}
    for _ in range(120):  # past the walk's depth limit, where other values are shown by their repr
        deep = [deep]
    assert "sk-live" not in json.dumps(to_jsonable(deep, error_form=_named))
    assert "sk-live" in json.dumps(to_jsonable(deep))


def test_an_error_form_that_raises_redacts_the_message() -> None:
    def broken(error: BaseException) -> NoReturn:
        raise RuntimeError(str(error))

    assert to_jsonable([KeyError("sk-live-1")], error_form=broken) == [
        {"type": "error", "error_type": "KeyError", "message": REDACTED}
    ]
    assert to_jsonable(KeyError("k")) == {"type": "error", "error_type": "KeyError", "message": "'k'"}  # reset


class _Leaky:
    def __repr__(self) -> str:
        return "_Leaky(key='sk-live-1')"


class _Refused(Exception):
    pass


def _refuse(value: object) -> JsonValue:
    raise _Refused(type(value).__name__)


def test_other_form_writes_every_value_that_would_be_a_repr() -> None:
    @dataclasses.dataclass
    class Box:
        item: object

    def named(value: object) -> JsonValue:
        return {"named": type(value).__name__}

    value = {"a": [_Leaky()], "b": {_Leaky()}.pop(), "c": Box(_Leaky()), (1, "x"): 2}
    assert to_jsonable(value, other_form=named) == {
        "a": [{"named": "_Leaky"}],
        "b": {"named": "_Leaky"},
        "c": {"type": "Box", "item": {"named": "_Leaky"}},
        "(1, 'x')": 2,  # a tuple of plain data keeps its repr: it shows only that data
    }
    assert "sk-live" in str(to_jsonable(value))  # without it, unchanged: the repr


def test_what_other_form_raises_propagates_from_any_depth_and_from_keys() -> None:
    for value in ([[{"k": _Leaky()}]], {_Leaky(): 1}, {(1, _Leaky()): 1}, (_Leaky(),)):
        with pytest.raises(_Refused):
            to_jsonable(value, other_form=_refuse)


def test_a_failing_jsonable_hook_goes_to_other_form() -> None:
    class Broken:
        def __jsonable__(self) -> object:
            raise RuntimeError("sk-live-1")

    assert to_jsonable([Broken()], other_form=lambda v: "unwritable") == ["unwritable"]


def test_with_other_form_depth_and_cycles_are_refused_not_placeheld() -> None:
    @dataclasses.dataclass
    class Node:
        next: object

    deep: object = None
    for _ in range(150):
        deep = Node(deep)
    looped = Node(None)
    looped.next = looped
    shown = to_jsonable(looped)
    assert isinstance(shown, dict) and shown["next"] == {"type": "repr", "repr": "<cycle>"}  # unchanged without it
    with pytest.raises(RecursionError):
        to_jsonable(deep, other_form=_refuse)
    with pytest.raises(ValueError, match="cycle"):
        to_jsonable(looped, other_form=_refuse)
