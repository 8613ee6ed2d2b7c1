"""Strategies for plain values: ``values_of(type)`` and ``functions(a, b)``.

Values are small and readable (ints in [-1000, 1000], text over ``"ab c"``), so a
shrunk counterexample is easy to read.

>>> from hypothesis import find
>>> find(values_of(list[int]), lambda xs: sum(xs) > 5)
[6]
>>> find(functions(int, int), lambda f: f(3) == 6).__name__
'double'
"""

from __future__ import annotations

import collections.abc as cabc
import types
import typing
from collections.abc import Callable
from typing import Any, Final, Literal, TypeVar, Union, get_args, get_origin, get_type_hints, is_typeddict, overload

from hypothesis import strategies as st

from combinators.testing.catalog import FUNCTIONS
from combinators.testing.steps import GENERIC_FUNCTIONS, type_name

T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")

ints: Final = st.integers(min_value=-1000, max_value=1000)
"""Small ints (the int inputs of generated chains)."""

texts: Final = st.text(alphabet="ab c", min_size=1, max_size=12)
"""Short non-empty texts over ``"ab c"`` (letters that the text steps swap, and spaces)."""

VOCABULARY: Final = ("fog", "bay", "lamp", "keeper", "tide", "harbor", "light", "storm")
"""The words of ``sentences``: model replies, document contents and retriever queries."""

sentences: Final = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=4).map(" ".join)
"""Short texts over ``VOCABULARY`` (``"fog bay"``)."""


@overload
def values_of(tp: type[T]) -> st.SearchStrategy[T]: ...


@overload
def values_of(tp: object) -> st.SearchStrategy[Any]: ...


def values_of(tp: object) -> st.SearchStrategy[Any]:
    """Values of a type: scalars, lists, tuples, dicts, TypedDicts, unions, literals.

    Other types fall back to ``hypothesis.strategies.from_type``.

    >>> from hypothesis import find
    >>> from combinators.testing.steps import Record
    >>> find(values_of(Record), lambda r: r["a"] > r["b"])
    {'a': 0, 'b': -1}
    >>> find(values_of(tuple[int, str]), lambda p: True)
    (0, 'a')
    """
    if tp is Any or tp is object:
        return st.one_of(st.none(), ints, texts)
    if tp is None or tp is type(None):
        return st.none()
    if tp is bool:
        return st.booleans()
    if tp is int:
        return ints
    if tp is float:
        return st.floats(min_value=-1000, max_value=1000, allow_nan=False)
    if tp is str:
        return texts
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Union or origin is types.UnionType:
        return st.one_of([values_of(a) for a in args])
    if origin is Literal:
        return st.sampled_from(args)
    if origin in (list, cabc.Sequence, cabc.Iterable):
        return st.lists(values_of(args[0] if args else Any), max_size=5)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(values_of(args[0]), max_size=5).map(tuple)
        return st.tuples(*(values_of(a) for a in args))
    if origin in (dict, cabc.Mapping):
        value = args[1] if len(args) == 2 else Any
        return st.dictionaries(st.text(alphabet="abc", min_size=1, max_size=3), values_of(value), max_size=3)
    if isinstance(tp, type) and is_typeddict(tp):
        hints = get_type_hints(tp)
        required: frozenset[str] = getattr(tp, "__required_keys__", frozenset(hints))
        return st.fixed_dictionaries(
            {k: values_of(v) for k, v in hints.items() if k in required},
            optional={k: values_of(v) for k, v in hints.items() if k not in required},
        )
    if isinstance(tp, type) or get_origin(tp) is not None:
        return st.from_type(typing.cast("type[Any]", tp))
    raise TypeError(f"values_of needs a type, got {tp!r}")


def functions(input_type: type[A], output_type: type[B]) -> st.SearchStrategy[Callable[[A], B]]:
    """Named functions from one value type of generated chains to another.

    For ``functions(object, object)``, the functions that take anything
    (``identity``, ``singleton_list``, ``pair_with_self``, ``boxed``, ``kind_of``, ``repr``).

    >>> from hypothesis import find
    >>> find(functions(str, int), lambda f: True).__name__
    'length'
    >>> functions(str, float)
    Traceback (most recent call last):
    ...
    ValueError: functions() has none from str to float; pairs with functions: int -> int, ...
    """
    if input_type is object and output_type is object:
        generic: st.SearchStrategy[Any] = st.sampled_from(GENERIC_FUNCTIONS)
        return generic
    found = FUNCTIONS.get((input_type, output_type))
    if not found:
        known = ", ".join(f"{type_name(a)} -> {type_name(b)}" for a, b in FUNCTIONS)
        raise ValueError(
            f"functions() has none from {type_name(input_type)} to {type_name(output_type)};"
            f" pairs with functions: {known}"
        )
    return st.sampled_from(found)
