"""``Law``: one property every runnable (or every combinator) should have, as a value.

A law draws its examples from a strategy of inputs (one input, a list of inputs,
or an input with functions to compose) and judges a runnable on one example:
``None`` when the law holds there, otherwise a sentence saying how it broke. Inside
your own ``@given`` test, call ``law.violation(runnable, example)`` on an example
drawn from ``law.examples(inputs)``; ``check_laws`` does the search and shrinking.

>>> from combinators import RunnableLambda
>>> from combinators.testing import steps
>>> law = Law.named("stream")
>>> law
Law.named('stream')
>>> law.violation(RunnableLambda(steps.inc), 1) is None
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator
from typing import Any, Final, TypeAlias, final

import attrs
from hypothesis import strategies as st

from combinators import Runnable
from combinators.testing.outcomes import Comparison, Same, Total, sum_of_chunks, same_value
from effects.clock import SYSTEM_CLOCK, FakeClock, current_clock, use_clock

Tested: TypeAlias = "Runnable[Any, object]"
"""A runnable under test: run on drawn inputs whose type is not known statically, its
outputs only compared."""

Judge = Callable[[Tested, Any, Comparison], "str | None"]
"""Judges a runnable on one example (of the type its law draws): ``None`` when the law
holds, else why it broke."""

Examples = Callable[[st.SearchStrategy[object]], st.SearchStrategy[object]]
"""Turns a strategy of inputs into the strategy of a law's examples."""

_REGISTRY: Final[dict[str, Law]] = {}


def one_input(inputs: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    """A law judged on one input."""
    return inputs


def input_lists(inputs: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    """A law judged on a list of inputs (batches)."""
    return st.lists(inputs, max_size=4)


@final
@attrs.frozen(repr=False)
class Law:
    """A named law: its statement, how to draw its examples, and how to judge one.

    >>> from hypothesis import strategies as st
    >>> from combinators import RunnableLambda
    >>> def same_twice(runnable, x, how):
    ...     return None if runnable.invoke(x) == runnable.invoke(x) else "invoke(x) changed"
    >>> idempotent = Law("twice", "invoke(x) gives the same twice", lambda inputs: inputs, same_twice)
    >>> idempotent.violation(RunnableLambda(abs), -1) is None
    True
    """

    key: str
    statement: str
    examples: Examples = attrs.field(eq=False)
    judge: Judge = attrs.field(eq=False)

    def __repr__(self) -> str:
        return f"Law.named({self.key!r})"

    def violation(
        self,
        runnable: Tested,
        example: object,
        *,
        same: Same = same_value,
        stream_total: Total = sum_of_chunks,
    ) -> str | None:
        """How the law breaks for ``runnable`` on ``example``, or ``None`` when it holds.

        ``same`` compares outputs; ``stream_total`` makes a stream's output from its
        chunks (``sum_of_chunks``, or ``last_chunk`` for cumulative partial values). Waits
        (retry back-off, model delays) go through a ``FakeClock`` unless the caller
        installed a clock with ``use_clock``, so judging never really sleeps.

        >>> from combinators import RunnableLambda
        >>> Law.named("async").violation(RunnableLambda(abs), -2) is None
        True
        """
        with _test_clock():
            return self.judge(runnable, example, Comparison(same, stream_total))

    @staticmethod
    def named(key: str) -> Law:
        """The law with this key (see ``RUNTIME_LAWS`` and ``ALGEBRAIC_LAWS``).

        >>> Law.named("batch").statement
        'batch(xs) and abatch(xs) equal [invoke(x) for x in xs]'
        >>> Law.named("nope")
        Traceback (most recent call last):
        ...
        ValueError: no law is named 'nope'; the laws are: async, batch, bind_associativity, bind_left_identity, bind_right_identity, events, log, map_fusion, map_identity, pipe_associativity, pipe_identity, return_exceptions, stream
        """
        try:
            return _REGISTRY[key]
        except KeyError:
            names = ", ".join(sorted(_REGISTRY))
            raise ValueError(f"no law is named {key!r}; the laws are: {names}") from None


@contextlib.contextmanager
def _test_clock() -> Generator[None]:
    if current_clock() is not SYSTEM_CLOCK:
        yield
        return
    with use_clock(FakeClock()):
        yield


def law(key: str, statement: str, examples: Examples, judge: Judge) -> Law:
    """Make a law and register it under ``key`` (for ``Law.named`` and ``check_laws(laws=[key])``)."""
    made = Law(key, statement, examples, judge)
    _REGISTRY[key] = made
    return made
