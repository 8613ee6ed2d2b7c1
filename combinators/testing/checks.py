"""``check_laws`` and ``assert_laws``: search for the smallest input that breaks each law.

Each law runs under ``hypothesis.find``: it draws examples from your inputs until one
breaks the law, then shrinks it to the smallest such example. The report lists every
law with its outcome; ``assert_laws`` raises ``AssertionError`` naming the broken laws.

>>> from hypothesis import strategies as st
>>> from combinators import RunnableLambda
>>> def total(xs: list[int]) -> int:
...     return sum(xs)
>>> report = check_laws(RunnableLambda(total), st.lists(st.integers()), max_examples=5)
>>> report.holds
True
>>> print(report)  # doctest: +NORMALIZE_WHITESPACE
laws of RunnableLambda(total): all 6 hold
  holds   batch: batch(xs) and abatch(xs) equal [invoke(x) for x in xs]
  holds   stream: the chunks of stream(x) add up to invoke(x)
  holds   async: ainvoke(x) equals invoke(x), and astream(x) adds up to it too
  holds   events: astream_events(x) and stream_events(x) are well nested and end with the root's output or error
  holds   log: the run log's patches replay to its final state, whose final_output is what stream(x) adds up to
  holds   return_exceptions: batch(xs, return_exceptions=True) keeps one result per input, in order, as invoke(x) gives it
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict, TypeVar, Unpack, final

import attrs
import hypothesis
from hypothesis import strategies as st
from hypothesis.errors import Flaky, NoSuchExample

from combinators import Runnable
from combinators.testing.algebra import ALGEBRAIC_LAWS
from combinators.testing.inputs import inputs_for
from combinators.testing.law import Law, Tested
from combinators.testing.outcomes import Same, Total, sum_of_chunks, same_value
from combinators.testing.runtime_laws import RUNTIME_LAWS
from effects.guards import is_list_or_tuple

In = TypeVar("In")

_ = ALGEBRAIC_LAWS  # registered here too, so that Law.named finds every law


def show(example: object) -> str:
    """An example as it reads in a report: functions by name, everything else by ``repr``.

    >>> show((0, len, [abs]))
    '(0, len, [abs])'
    """
    if is_list_or_tuple(example):
        items = [show(item) for item in example]
        if isinstance(example, list):
            return f"[{', '.join(items)}]"
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    name = getattr(example, "__name__", None)
    if callable(example) and isinstance(name, str):
        return name
    return repr(example)


@final
@attrs.frozen
class Counterexample:
    """The smallest example found that breaks a law, and how it breaks it.

    >>> Counterexample([0], "batch(xs)[0] is 1, but invoke(xs[0]) returned 0").example
    [0]
    """

    example: object
    why: str


@final
@attrs.frozen
class LawOutcome:
    """One law's result: ``counterexample`` is ``None`` when no example broke it.

    >>> print(LawOutcome(Law.named("async"), Counterexample(3, "ainvoke(x) returned -3, but invoke(x) returned 3")))
    BROKEN  async: ainvoke(x) equals invoke(x), and astream(x) adds up to it too
              smallest example: 3
              ainvoke(x) returned -3, but invoke(x) returned 3
    """

    law: Law
    counterexample: Counterexample | None = None

    @property
    def holds(self) -> bool:
        """Whether no example broke the law."""
        return self.counterexample is None

    def __str__(self) -> str:
        head = f"{self.law.key}: {self.law.statement}"
        if self.counterexample is None:
            return f"holds   {head}"
        return (
            f"BROKEN  {head}\n"
            f"          smallest example: {show(self.counterexample.example)}\n"
            f"          {self.counterexample.why}"
        )


@final
@attrs.frozen
class LawReport:
    """Every checked law of one runnable, with its outcome (``str()`` gives a readable table).

    >>> report = LawReport("RunnableLambda(abs)", (LawOutcome(Law.named("stream")),))
    >>> report.holds, report.broken
    (True, ())
    >>> print(report)
    laws of RunnableLambda(abs): all 1 hold
      holds   stream: the chunks of stream(x) add up to invoke(x)
    """

    subject: str
    outcomes: tuple[LawOutcome, ...]

    @property
    def holds(self) -> bool:
        """Whether every law holds."""
        return all(o.holds for o in self.outcomes)

    @property
    def broken(self) -> tuple[LawOutcome, ...]:
        """The outcomes of the laws that broke."""
        return tuple(o for o in self.outcomes if not o.holds)

    def __str__(self) -> str:
        broken = len(self.broken)
        verdict = f"all {len(self.outcomes)} hold" if not broken else f"{broken} of {len(self.outcomes)} broken"
        lines = [f"laws of {self.subject}: {verdict}", *(f"  {o}" for o in self.outcomes)]
        return "\n".join(lines)


def _resolve(laws: Iterable[Law | str]) -> tuple[Law, ...]:
    return tuple(law if isinstance(law, Law) else Law.named(law) for law in laws)


def _settings(max_examples: int) -> hypothesis.settings:
    return hypothesis.settings(max_examples=max_examples, deadline=None, database=None)


def _check_one(
    law: Law,
    runnable: Tested,
    inputs: st.SearchStrategy[object],
    same: Same,
    total: Total,
    settings: hypothesis.settings,
) -> LawOutcome:
    first: list[Counterexample] = []

    def broken(example: object) -> bool:
        why = law.violation(runnable, example, same=same, stream_total=total)
        if why is not None and not first:
            first.append(Counterexample(example, why))
        return why is not None

    try:
        smallest = hypothesis.find(law.examples(inputs), broken, settings=settings)
    except NoSuchExample:
        return LawOutcome(law)
    except Flaky:
        seen = first[0]
        return LawOutcome(law, Counterexample(seen.example, f"{seen.why} ({_NOT_DETERMINISTIC})"))
    why = law.violation(runnable, smallest, same=same, stream_total=total)
    return LawOutcome(law, Counterexample(smallest, why or _NOT_DETERMINISTIC))


_NOT_DETERMINISTIC = "it broke once but not when tried again: the runnable is not deterministic"


def check_laws(
    runnable: Runnable[In, object],
    inputs: st.SearchStrategy[In] | None = None,
    *,
    laws: Iterable[Law | str] = RUNTIME_LAWS,
    max_examples: int = 25,
    same: Same = same_value,
    stream_total: Total = sum_of_chunks,
    settings: hypothesis.settings | None = None,
) -> LawReport:
    """Check ``laws`` (by default ``RUNTIME_LAWS``) on ``runnable`` over ``inputs``.

    ``inputs`` defaults to ``inputs_for(runnable)``. ``laws`` takes ``Law`` values or
    their keys; ``ALGEBRAIC_LAWS`` are the combinators' laws around ``runnable``.
    ``same`` compares output values (default: ``==``, a streamed message chunk read
    as a message); ``stream_total`` makes a stream's output from its chunks
    (``sum_of_chunks`` with ``+``, or ``last_chunk`` for a JSON parser's cumulative
    partial values). ``settings`` replaces the default ``max_examples`` per law, no
    deadline, no example database. The runnable must be deterministic.

    Call it from a plain test, not inside ``@given`` (Hypothesis does not nest its
    searches well); inside ``@given``, use ``law.violation(runnable, example)``.

    >>> from hypothesis import strategies as st
    >>> from combinators import RunnableLambda
    >>> calls = []
    >>> def counter(x: int) -> int:
    ...     calls.append(x)
    ...     return len(calls)
    >>> report = check_laws(RunnableLambda(counter), st.integers(), laws=["batch"], max_examples=5)
    >>> print(report)  # doctest: +ELLIPSIS
    laws of RunnableLambda(counter): 1 of 1 broken
      BROKEN  batch: batch(xs) and abatch(xs) equal [invoke(x) for x in xs]
                smallest example: [0]
                batch(xs)[0] is ..., but invoke(xs[0]) returned ...
    """
    strategy: st.SearchStrategy[object] = inputs if inputs is not None else inputs_for(runnable)
    chosen = settings if settings is not None else _settings(max_examples)
    outcomes = tuple(_check_one(law, runnable, strategy, same, stream_total, chosen) for law in _resolve(laws))
    return LawReport(repr(runnable), outcomes)


class LawOptions(TypedDict, total=False):
    """``check_laws``'s keyword parameters, as ``assert_laws`` takes them.

    >>> LawOptions(laws=["batch"], max_examples=5)
    {'laws': ['batch'], 'max_examples': 5}
    """

    laws: Iterable[Law | str]
    max_examples: int
    same: Same
    stream_total: Total
    settings: hypothesis.settings | None


def assert_laws(
    runnable: Runnable[In, object], inputs: st.SearchStrategy[In] | None = None, **options: Unpack[LawOptions]
) -> None:
    """``check_laws``, raising ``AssertionError`` with the report when a law breaks.

    >>> from hypothesis import strategies as st
    >>> from combinators import RunnableLambda
    >>> def fragile(x: int) -> int:
    ...     return 100 // x
    >>> assert_laws(RunnableLambda(fragile), st.integers(1, 9), max_examples=5)
    >>> def chunks(x: int):
    ...     yield [x]
    ...     yield {"x": x}
    >>> assert_laws(RunnableLambda(chunks), st.integers(), laws=["stream"], max_examples=5)
    Traceback (most recent call last):
    ...
    AssertionError: laws of RunnableLambda(chunks): 1 of 1 broken
      BROKEN  stream: the chunks of stream(x) add up to invoke(x)
                smallest example: 0
                stream(x): chunks do not add up: [0] + {'x': 0}
    """
    report = check_laws(runnable, inputs, **options)
    if not report.holds:
        raise AssertionError(str(report))
