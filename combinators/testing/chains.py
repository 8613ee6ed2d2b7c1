"""``runnables(...)``: well-typed random chains built from the library's own nodes.

A chain is drawn for a pair of value types (``int``, ``str``, ``list[int]``,
``Record``, ``tuple[int, str]``) and a number of leaves. Composite nodes split the
leaves among their children; every child is drawn for the types its place needs,
so every chain type-checks by construction. Shrinking goes towards fewer leaves
and simpler nodes, and a shrunk chain prints as the expression that builds it.

>>> from hypothesis import find
>>> find(runnables(int, str), lambda chain: True)
RunnableLambda(show)
>>> chain = find(runnables(int, int, max_leaves=4), lambda c: "RunnableParallel" in repr(c))
>>> chain.invoke(3) == chain.batch([3])[0]
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast, overload

from hypothesis import strategies as st

from combinators import (
    RetryPolicy,
    Runnable,
    RunnableBranch,
    RunnableLambda,
    RunnableParallel,
    RunnablePassthrough,
    parallel,
    pure,
)
from combinators.testing.catalog import CONDITIONS, FUNCTIONS, LEAVES, check_value_type, route
from combinators.testing.inputs import declare_input_type
from combinators.testing.law import Tested
from combinators.testing.nodes import Flaky, Switch
from combinators.testing.steps import VALUE_TYPES, Record, fail_on_odd_size
from combinators.testing.plain_values import values_of

A = TypeVar("A")
B = TypeVar("B")

Builder = Callable[[st.DrawFn, object, object, int, bool], Tested]


def _draw_type(draw: st.DrawFn) -> object:
    return draw(st.sampled_from(VALUE_TYPES))


def _split(draw: st.DrawFn, size: int) -> tuple[int, int]:
    left = draw(st.integers(1, size - 1))
    return left, size - left


def _leaf(draw: st.DrawFn, a: object, b: object) -> Tested:
    options: list[Tested] = list(LEAVES.get((a, b), ()))
    if a == b:
        options.insert(0, RunnablePassthrough())
    if not options:
        path = route(a, b)
        chain: Tested = _leaf(draw, path[0], path[1])
        for here, there in zip(path[1:], path[2:]):
            chain = chain | _leaf(draw, here, there)
        return chain
    index = draw(st.integers(0, len(options)))  # the last index stands for pure(value)
    if index == len(options):
        return pure(draw(values_of(b)))
    return options[index]


def _chain(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    if size <= 1:
        return _leaf(draw, a, b)
    kinds = [name for name, (applies, _) in _KINDS.items() if applies(a, b, size, failures)]
    _, build = _KINDS[draw(st.sampled_from(kinds))]
    return build(draw, a, b, size, failures)


def _sequence(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    middle = _draw_type(draw)
    left, right = _split(draw, size)
    return _chain(draw, a, middle, left, failures) | _chain(draw, middle, b, right, failures)


def _mapped(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    middle = draw(st.sampled_from([t for t in VALUE_TYPES if (t, b) in FUNCTIONS]))
    function = draw(st.sampled_from(FUNCTIONS[(middle, b)]))
    return _chain(draw, a, middle, size - 1, failures).map(function)


def _branch(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    left, right = _split(draw, size)
    chosen = _chain(draw, a, b, left, failures)
    return RunnableBranch((RunnableLambda(CONDITIONS[a]), chosen), _chain(draw, a, b, right, failures))


def _bind(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    middle = _draw_type(draw)
    first = draw(st.integers(1, size - 2))
    even = draw(st.integers(1, size - 1 - first))
    odd = size - first - even
    step = _chain(draw, a, middle, first, failures)
    return step.bind(Switch(_chain(draw, a, b, even, failures), _chain(draw, a, b, odd, failures)))


def _parallel_dict(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    left, right = _split(draw, size)
    return RunnableParallel(a=_chain(draw, a, int, left, failures), b=_chain(draw, a, int, right, failures))


def _parallel_tuple(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    left, right = _split(draw, size)
    return parallel(_chain(draw, a, int, left, failures), _chain(draw, a, str, right, failures))


def _assign(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    if a is Record and draw(st.booleans()):
        return RunnablePassthrough.assign(c=_chain(draw, Record, int, size - 1, failures))
    left, right = _split(draw, size)
    return _records(draw, a, left, failures).assign(c=_chain(draw, Record, int, right, failures))


def _pick(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    key = draw(st.sampled_from(["a", "b"]))
    return _records(draw, a, size - 1, failures).pick(key)


def _records(draw: st.DrawFn, a: object, size: int, failures: bool) -> Runnable[Any, Record]:
    # A chain drawn to give Records gives Records (its steps are chosen by type), which
    # no check can show on the value: its type parameter is told.
    return cast("Runnable[Any, Record]", _chain(draw, a, Record, size, failures))


def _each(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    return _chain(draw, int, int, size - 1, failures).each()


def _retry(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    return _chain(draw, a, b, size - 1, failures).with_retry(RetryPolicy(max_attempts=2))


def _fallbacks(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    # The primary never fails here: a stream falls back only before its first chunk,
    # so a primary failing mid-stream would make stream and invoke differ by design.
    left, right = _split(draw, size)
    return _chain(draw, a, b, left, False).with_fallbacks([_chain(draw, a, b, right, failures)])


def _configured(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    return _chain(draw, a, b, size - 1, failures).with_config(tags=["generated"])


def _flaky_retry(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    times = draw(st.integers(1, 2))
    inner = Flaky(_chain(draw, a, b, size - 1, False), failures=times)
    return inner.with_retry(RetryPolicy(max_attempts=times + 1))


def _refused(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    return RunnableLambda(fail_on_odd_size) | _chain(draw, a, b, size - 1, failures)


def _refused_fallback(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    left, right = _split(draw, size)
    primary: Tested = RunnableLambda(fail_on_odd_size) | _chain(draw, a, b, left, False)
    return primary.with_fallbacks([_chain(draw, a, b, right, False)])


def _refused_retry(draw: st.DrawFn, a: object, b: object, size: int, failures: bool) -> Tested:
    primary: Tested = RunnableLambda(fail_on_odd_size) | _chain(draw, a, b, size - 1, False)
    return primary.with_retry(RetryPolicy(max_attempts=2))


Applies = Callable[[object, object, int, bool], bool]


def _always(a: object, b: object, size: int, failures: bool) -> bool:
    return True


def _with_failures(a: object, b: object, size: int, failures: bool) -> bool:
    return failures


# Simplest first: hypothesis shrinks a choice towards the start of this table.
_KINDS: Final[dict[str, tuple[Applies, Builder]]] = {
    "sequence": (_always, _sequence),
    "map": (_always, _mapped),
    "branch": (_always, _branch),
    "bind": (lambda a, b, size, failures: size >= 3, _bind),
    "parallel": (lambda a, b, size, failures: b is Record, _parallel_dict),
    "parallel_tuple": (lambda a, b, size, failures: b == tuple[int, str], _parallel_tuple),
    "assign": (lambda a, b, size, failures: b is Record, _assign),
    "pick": (lambda a, b, size, failures: b is int, _pick),
    "each": (lambda a, b, size, failures: a == b == list[int], _each),
    "retry": (_always, _retry),
    "fallbacks": (_always, _fallbacks),
    "config": (_always, _configured),
    "flaky_retry": (_with_failures, _flaky_retry),
    "refused": (_with_failures, _refused),
    "refused_fallback": (_with_failures, _refused_fallback),
    "refused_retry": (_with_failures, _refused_retry),
}


@overload
def runnables(
    input_type: type[A], output_type: type[B], *, max_leaves: int = 8, failures: bool = True
) -> st.SearchStrategy[Runnable[A, B]]: ...


@overload
def runnables(
    input_type: type[A], output_type: None = None, *, max_leaves: int = 8, failures: bool = True
) -> st.SearchStrategy[Runnable[A, object]]: ...


@overload
def runnables(
    input_type: None = None, output_type: None = None, *, max_leaves: int = 8, failures: bool = True
) -> st.SearchStrategy[Tested]: ...


def runnables(
    input_type: object = None,
    output_type: object = None,
    *,
    max_leaves: int = 8,
    failures: bool = True,
) -> st.SearchStrategy[Tested]:
    """Random chains from ``input_type`` to ``output_type`` with at most ``max_leaves`` leaves.

    The types are among ``int``, ``str``, ``list[int]``, ``Record`` and
    ``tuple[int, str]`` (drawn when not given). Nodes: lambdas and generator steps,
    sequences, ``RunnableParallel`` and ``parallel``, branches, passthrough, assign,
    pick, ``map``, ``bind``, ``each``, config, retry and fallbacks. With
    ``failures=True`` they include scripted failures: ``Flaky`` steps under retry
    (always recovered), and ``fail_on_odd_size`` steps (deterministic) that fail
    bare, under retry, or caught by fallbacks. Every chain is deterministic: the
    laws of ``check_laws`` hold for it. ``inputs_for(chain)`` draws its inputs.

    >>> from hypothesis import find, settings
    >>> once = settings(database=None, derandomize=True)  # the same shrunk chain every run
    >>> find(runnables(str, int, max_leaves=3), lambda c: "Flaky" in repr(c), settings=once)
    Flaky(RunnableLambda(length), failures=1).with_retry(RetryPolicy(max_attempts=2))
    """
    if input_type is not None:
        check_value_type(input_type, "input_type")
    if output_type is not None:
        check_value_type(output_type, "output_type")
    if max_leaves < 1:
        raise ValueError(f"runnables() needs max_leaves >= 1, got {max_leaves}")

    @st.composite
    def chains(draw: st.DrawFn) -> Tested:
        a = input_type if input_type is not None else _draw_type(draw)
        b = output_type if output_type is not None else _draw_type(draw)
        size = draw(st.integers(1, max_leaves))
        chain = _chain(draw, a, b, size, failures)
        declare_input_type(chain, a)
        return chain

    return chains()
