"""The algebraic laws of the combinators, checked on one runnable (yours, say).

Each law builds two chains around ``r`` that the combinators promise to be the
same (``(r | f) | g`` and ``r | (f | g)``, ``r.map(f).map(g)`` and
``r.map(g . f)``, ``pure(v).bind(k)`` and ``k(v)``, ...) and compares them on an
input. The functions ``f``, ``g`` take values of any type (``identity``,
``singleton_list``, ``pair_with_self``, ``boxed``, ``kind_of``, ``repr``), so the laws
apply to a runnable whatever its output type.

>>> from combinators import RunnableLambda
>>> from combinators.testing import steps
>>> MAP_FUSION.violation(RunnableLambda(steps.inc), (1, steps.boxed, repr, 0)) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from hypothesis import strategies as st

from combinators import RunnableLambda, RunnablePassthrough, pure
from combinators.testing.law import Law, Tested, law
from combinators.testing.outcomes import Comparison, Outcome, Same, agree, aoutcome_of, describe, outcome_of
from combinators.testing.steps import GENERIC_FUNCTIONS, identity

Function = Callable[[Any], object]
Example = tuple[object, Function, Function, int]
"""An input ``x``, two functions ``f`` and ``g``, and a small value ``v``."""


def _examples(inputs: st.SearchStrategy[object]) -> st.SearchStrategy[Example]:
    functions = st.sampled_from(GENERIC_FUNCTIONS)
    return st.tuples(inputs, functions, functions, st.integers(0, 9))


def _name(f: Function) -> str:
    return str(getattr(f, "__name__", repr(f)))


def compose(f: Function, g: Function) -> Function:
    """``g`` after ``f``, named ``g_after_f`` (so chains that use it read well).

    >>> compose(len, str)("abc"), compose(len, str).__name__
    ('3', 'str_after_len')
    """

    def composed(value: object) -> object:
        return g(f(value))

    composed.__name__ = composed.__qualname__ = f"{_name(g)}_after_{_name(f)}"
    return composed


def pair_with(value: object) -> Function:
    """The function ``y -> (y, value)``, named ``pair_with_<value>``."""

    def paired(y: object) -> tuple[object, object]:
        return (y, value)

    paired.__name__ = paired.__qualname__ = f"pair_with_{value!r}"
    return paired


def _both(runnable: Tested, input: object) -> tuple[Outcome, Outcome]:
    return outcome_of(lambda: runnable.invoke(input)), aoutcome_of(lambda: runnable.ainvoke(input))


def _same_runs(left: Tested, right: Tested, input: object, same: Same) -> str | None:
    for way, (got, wanted) in zip(("invoke", "ainvoke"), zip(_both(left, input), _both(right, input))):
        if not agree(got, wanted, same):
            return f"{left!r} {way}(x) {describe(got)}, but {right!r} {describe(wanted)}"
    return None


def _pipe_identity(r: Tested, example: Example, how: Comparison) -> str | None:
    x = example[0]
    unit: Tested = RunnablePassthrough()
    return _same_runs(unit | r, r, x, how.same) or _same_runs(r | unit, r, x, how.same)


def _pipe_associativity(r: Tested, example: Example, how: Comparison) -> str | None:
    x, f, g, _ = example
    step_f: Tested = RunnableLambda(f)
    step_g: Tested = RunnableLambda(g)
    before: Tested = RunnableLambda(identity)
    for left, right in (
        ((r | step_f) | step_g, r | (step_f | step_g)),
        ((before | r) | step_f, before | (r | step_f)),
    ):
        if left != right:
            return f"{left!r} and {right!r} are not equal values"
        problem = _same_runs(left, right, x, how.same)
        if problem is not None:
            return problem
    return None


def _map_identity(r: Tested, example: Example, how: Comparison) -> str | None:
    return _same_runs(r.map(identity), r, example[0], how.same)


def _map_fusion(r: Tested, example: Example, how: Comparison) -> str | None:
    x, f, g, _ = example
    return _same_runs(r.map(f).map(g), r.map(compose(f, g)), x, how.same)


def _then(r: Tested, f: Function) -> Callable[[object], Tested]:
    def then(value: object) -> Tested:
        return r.map(f).map(pair_with(value))

    then.__name__ = then.__qualname__ = f"then_{_name(f)}"
    return then


def _bind_left_identity(r: Tested, example: Example, how: Comparison) -> str | None:
    x, f, _, v = example
    k = _then(r, f)
    return _same_runs(pure(v).bind(k), k(v), x, how.same)


def _bind_right_identity(r: Tested, example: Example, how: Comparison) -> str | None:
    return _same_runs(r.bind(pure), r, example[0], how.same)


def _bind_associativity(r: Tested, example: Example, how: Comparison) -> str | None:
    x, f, g, _ = example
    k1, k2 = _then(r, f), _then(r, g)

    def nested(value: object) -> Tested:
        return k1(value).bind(k2)

    nested.__name__ = f"{k1.__name__}_bind_{k2.__name__}"
    return _same_runs(r.bind(k1).bind(k2), r.bind(nested), x, how.same)


PIPE_IDENTITY: Final = law(
    "pipe_identity", "RunnablePassthrough() | r and r | RunnablePassthrough() run as r", _examples, _pipe_identity
)
PIPE_ASSOCIATIVITY: Final = law(
    "pipe_associativity", "(r | f) | g equals r | (f | g), as values and when run", _examples, _pipe_associativity
)
MAP_IDENTITY: Final = law("map_identity", "r.map(identity) runs as r", _examples, _map_identity)
MAP_FUSION: Final = law("map_fusion", "r.map(f).map(g) runs as r.map(g after f)", _examples, _map_fusion)
BIND_LEFT_IDENTITY: Final = law("bind_left_identity", "pure(v).bind(k) runs as k(v)", _examples, _bind_left_identity)
BIND_RIGHT_IDENTITY: Final = law("bind_right_identity", "r.bind(pure) runs as r", _examples, _bind_right_identity)
BIND_ASSOCIATIVITY: Final = law(
    "bind_associativity",
    "r.bind(k1).bind(k2) runs as r.bind(lambda y: k1(y).bind(k2))",
    _examples,
    _bind_associativity,
)

ALGEBRAIC_LAWS: Final[tuple[Law, ...]] = (
    PIPE_IDENTITY,
    PIPE_ASSOCIATIVITY,
    MAP_IDENTITY,
    MAP_FUSION,
    BIND_LEFT_IDENTITY,
    BIND_RIGHT_IDENTITY,
    BIND_ASSOCIATIVITY,
)
"""The combinators' laws, checked around one runnable: ``check_laws(r, laws=ALGEBRAIC_LAWS)``."""
