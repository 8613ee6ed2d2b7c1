"""Test nodes: ``Flaky`` (transient scripted failures) and ``Switch`` (a ``bind`` continuation).

>>> from combinators import RunnableLambda
>>> from combinators.testing.steps import inc
>>> step = Flaky(RunnableLambda(inc), failures=1)
>>> step
Flaky(RunnableLambda(inc), failures=1)
>>> step.with_retry(stop_after_attempt=2, wait_exponential_jitter=False).invoke(1)
2
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Generic, Protocol, TypeVar, final

import attrs

from combinators.runnable.composing import Runnable
from combinators.runnable.draws import DrawThrough, InputDraw
from combinators.testing.steps import ScriptedFailure
from effects.authoring import Scope, closing, is_a

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
A = TypeVar("A")
B = TypeVar("B")


@final
class CallCounter:
    """A thread-safe count of calls (the one moving part of a ``Flaky`` value).

    >>> counter = CallCounter()
    >>> counter.take(), counter.take(), counter.calls
    (1, 2, 2)
    """

    __slots__ = ("calls", "_lock")

    def __init__(self, calls: int = 0) -> None:
        self.calls = calls
        self._lock = threading.Lock()

    def take(self) -> int:
        """Count one more call and return its number (1 for the first)."""
        with self._lock:
            self.calls += 1
            return self.calls

    def __reduce__(self) -> tuple[type[CallCounter], tuple[int]]:
        return (CallCounter, (self.calls,))

    def __repr__(self) -> str:
        return f"CallCounter({self.calls})"


def _check_failures(_instance: object, _attribute: object, value: int) -> None:
    if not is_a(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"Flaky needs failures >= 0, got {value!r}")


@final
@attrs.frozen(repr=False)
class Flaky(Runnable[In, Out]):
    """``bound``, except that its first ``failures`` calls raise ``ScriptedFailure``.

    A transient failure, scripted: under ``with_retry(stop_after_attempt > failures)``
    every call succeeds whatever the concurrency, so the laws still hold. A stream
    fails before its first chunk (where retry and fallbacks can still act). The
    count of calls is state, so equality and ``repr`` leave it out.

    >>> from combinators import RunnableLambda
    >>> from combinators.testing.steps import inc
    >>> flaky = Flaky(RunnableLambda(inc), failures=1)
    >>> flaky.invoke(1)
    Traceback (most recent call last):
    ...
    combinators.testing.steps.ScriptedFailure: scripted failure: call 1 of Flaky<inc> (it fails 1 time)
    >>> flaky.invoke(1)
    2
    """

    bound: Runnable[In, Out]
    failures: int = attrs.field(default=1, validator=_check_failures)
    counter: CallCounter = attrs.field(factory=CallCounter, eq=False, repr=False)

    is_leaf = False
    input_known_at_start = False

    @property
    def name(self) -> str:
        return f"Flaky<{self.bound.name}>"

    def __repr__(self) -> str:
        return f"Flaky({self.bound!r}, failures={self.failures})"

    def input_draw(self) -> InputDraw:
        """What its bound runnable draws."""
        return DrawThrough((self.bound,))

    def _call(self) -> None:
        number = self.counter.take()
        if number <= self.failures:
            plural = "" if self.failures == 1 else "s"
            raise ScriptedFailure(
                f"scripted failure: call {number} of {self.name} (it fails {self.failures} time{plural})"
            )

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        self._call()
        result: Out = scope.invoke(self.bound, input, None, kwargs)
        return result

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        self._call()
        result: Out = await scope.ainvoke(self.bound, input, None, kwargs)
        return result

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        self._call()  # a generator: this runs at the first next(), before any chunk
        yield from scope.stream(self.bound, inputs, None, kwargs)

    async def step_astream(
        self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[Out]:
        self._call()
        async with closing(scope.astream(self.bound, inputs, None, kwargs)) as outputs:
            async for chunk in outputs:
                yield chunk


@final
@attrs.frozen(repr=False)
class Switch(Generic[A, B]):
    """A ``bind`` continuation: ``even`` when ``str(value)`` has even length, else ``odd``.

    >>> from combinators import RunnableLambda, pure
    >>> from combinators.testing.steps import inc, show
    >>> chain = RunnableLambda(show).bind(Switch(RunnableLambda(inc), pure(0)))
    >>> chain
    RunnableLambda(show).bind(Switch(RunnableLambda(inc), pure(0)))
    >>> chain.batch([10, 5])
    [11, 0]
    """

    even: Runnable[A, B]
    odd: Runnable[A, B]

    def __call__(self, value: object) -> Runnable[A, B]:
        return self.even if len(str(value)) % 2 == 0 else self.odd

    def __repr__(self) -> str:
        return f"Switch({self.even!r}, {self.odd!r})"

    def _repr_pretty_(self, printer: _Printer, cycle: bool) -> None:
        printer.text(repr(self))


class _Printer(Protocol):
    """What IPython and hypothesis hand to ``_repr_pretty_``."""

    def text(self, text: str) -> None: ...
