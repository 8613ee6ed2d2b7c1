"""``RunnableRetry``: run ``bound`` again when it fails, by a ``RetryPolicy``.

Attempts after the first are child runs tagged ``retry:attempt:N``. Streamed inside
a chain, the retry is no run of its own, as the peer's: each attempt is a run at its
place (its step tag; later ones add ``retry:attempt:N``). The last
error is raised with the earlier ones recorded on it as notes. A stream is
retried only until its first chunk: after that an error propagates, so nothing
is ever duplicated.

A batch of the retried step itself is retried as a whole, as the peer does: each
attempt runs every input not yet done, and the first error in input order decides
whether there is another attempt (so an input whose own error is not retryable is run
again when an earlier input's error is). Inputs that succeeded are never run again;
the others keep their last error. (Inside a larger chain's batch, each input is retried
on its own error.)

>>> from combinators import RunnableLambda
>>> tries = []
>>> def flaky(x: int) -> int:
...     tries.append(x)
...     if len(tries) < 3:
...         raise ConnectionError(f"try {len(tries)}")
...     return x
>>> RunnableLambda(flaky).with_retry(wait_exponential_jitter=False).invoke(7), len(tries)
(7, 3)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar, final

import attrs

from combinators._support.reprs import callable_repr
from combinators._support.rereadable import astream_tries, stream_tries
from combinators.retry_policy import RetryPolicy
from combinators.runnable.composing import Runnable
from effects.authoring import Scope, gather_structured, run_indexed

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)


class _NotRunError(Exception):
    """An input of a batch not run yet (a slot is an error until its input succeeds)."""


_NOT_RUN: Final = _NotRunError("not run yet")


def _record(final_error: BaseException, earlier: list[BaseException]) -> None:
    for number, error in enumerate(earlier, start=1):
        final_error.add_note(f"attempt {number} failed: {type(error).__name__}: {error}")


@final
@attrs.define
class _Attempts:
    """One call's attempts so far: their number, the time waited, the errors before the
    last (recorded on the error that ends them)."""

    policy: RetryPolicy
    on_failed_attempt: Callable[[BaseException, object, int], None] | None
    scope: Scope
    number: int = 1
    waited: float = 0.0
    earlier: list[BaseException] = attrs.field(factory=list[BaseException])

    @property
    def tag(self) -> str | None:
        """The tag of this attempt's run (none on the first)."""
        return None if self.number == 1 else f"retry:attempt:{self.number}"

    def failed(self, error: BaseException, input: object) -> float:
        """The wait before the next attempt, which is now counted; or raise ``error`` when
        there is none."""
        if not self.policy.should_retry(error):
            _record(error, self.earlier)
            raise error
        if self.on_failed_attempt is not None:
            self.on_failed_attempt(error, input, self.number)
        delay = self.policy.delay_before(self.number + 1, self.scope.clock.random)
        if not self.policy.allows(self.number + 1, self.waited + delay):
            _record(error, self.earlier)
            raise error
        self.earlier.append(error)
        self.waited += delay
        self.number += 1
        return delay

    def rounds(self, inputs: Sequence[object], outcomes: Sequence[object]) -> Iterator[tuple[float, list[int]]]:
        """A batch's attempts: before each, the wait and the indexes of the inputs not done
        (the caller runs them, filling ``outcomes``). The first error in input order decides
        whether there is another; when there is none, each failed input keeps its last error."""
        delay = 0.0
        while True:
            yield delay, [i for i, outcome in enumerate(outcomes) if isinstance(outcome, Exception)]
            first = next(((i, outcome) for i, outcome in enumerate(outcomes) if isinstance(outcome, Exception)), None)
            if first is None:
                return
            index, error = first
            try:
                delay = self.failed(error, inputs[index])
            except Exception:
                return


@final
@attrs.frozen(repr=False)
class RunnableRetry(Runnable[In, Out]):
    """``bound`` retried by ``policy``; ``on_failed_attempt(error, input, attempt)`` sees each failure
    (a stream's input is the text ``"<stream>"``: what it read is gone, so the hook takes ``object``)."""

    bound: Runnable[In, Out]
    policy: RetryPolicy
    on_failed_attempt: Callable[[BaseException, object, int], None] | None = None

    is_leaf = False
    input_known_at_start = False
    streams_in_place = True

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """What the retried runnable takes and gives."""
        return self.bound.declared_type(which)

    def input_draw(self) -> InputDraw:
        """What the retried runnable draws."""
        from combinators.runnable.draws import DrawThrough  # loaded when asked

        return DrawThrough((self.bound,))

    def input_schema(self) -> dict[str, Any]:
        """The retried runnable's input schema.

        >>> from combinators.prompts import PromptTemplate
        >>> PromptTemplate("{topic}").with_retry().input_schema()["required"]
        ['topic']
        """
        return self.bound.input_schema()

    def output_schema(self) -> dict[str, Any]:
        """The retried runnable's output schema.

        >>> from combinators.output_parsers import StrOutputParser
        >>> StrOutputParser().with_retry().output_schema()
        {'title': 'StrOutputParserOutput', 'type': 'string'}
        """
        return self.bound.output_schema()

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """The retried runnable, in a group that says how many attempts."""
        with graph.grouped(f"retry ({self.policy.max_attempts} attempts)", "retry"):
            return graph.child(self.bound, place)

    @property
    def name(self) -> str:
        return self.bound.name

    def __repr__(self) -> str:
        shown = repr(self.policy)
        if self.on_failed_attempt is not None:
            shown += f", on_failed_attempt={callable_repr(self.on_failed_attempt)}"
        return f"{self.bound.receiver_repr()}.with_retry({shown})"

    def _attempts(self, scope: Scope) -> _Attempts:
        return _Attempts(self.policy, self.on_failed_attempt, scope)

    def step_batch(
        self, inputs: Sequence[In], scopes: Sequence[Scope], kwargs: Mapping[str, object]
    ) -> list[Out | Exception]:
        outcomes: list[Out | Exception] = [_NOT_RUN] * len(inputs)
        attempts = self._attempts(scopes[0])
        for delay, todo in attempts.rounds(inputs, outcomes):
            if delay:
                scopes[0].clock.sleep(delay)

            def run(k: int, todo: list[int] = todo, tag: str | None = attempts.tag) -> Out:
                return scopes[todo[k]].invoke(self.bound, inputs[todo[k]], tag, kwargs)

            for i, outcome in zip(todo, run_indexed(run, len(todo), limit=None, return_exceptions=True), strict=True):
                outcomes[i] = outcome
        return outcomes

    async def step_abatch(
        self, inputs: Sequence[In], scopes: Sequence[Scope], kwargs: Mapping[str, object]
    ) -> list[Out | Exception]:
        outcomes: list[Out | Exception] = [_NOT_RUN] * len(inputs)
        attempts = self._attempts(scopes[0])
        for delay, todo in attempts.rounds(inputs, outcomes):
            if delay:
                await scopes[0].clock.asleep(delay)

            async def run(i: int, tag: str | None = attempts.tag) -> None:
                try:
                    output: Out = await scopes[i].ainvoke(self.bound, inputs[i], tag, kwargs)
                    outcomes[i] = output
                except Exception as error:
                    outcomes[i] = error

            await gather_structured([run(i) for i in todo])
        return outcomes

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        try:
            return scope.invoke(self.bound, input, None, kwargs)  # the first attempt: no bookkeeping
        except BaseException as error:
            attempts = self._attempts(scope)
            delay = attempts.failed(error, input)
        while True:
            if delay:
                scope.clock.sleep(delay)
            try:
                return scope.invoke(self.bound, input, attempts.tag, kwargs)
            except BaseException as error:
                delay = attempts.failed(error, input)

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        try:
            return await scope.ainvoke(self.bound, input, None, kwargs)
        except BaseException as error:
            attempts = self._attempts(scope)
            delay = attempts.failed(error, input)
        while True:
            if delay:
                await scope.clock.asleep(delay)
            try:
                return await scope.ainvoke(self.bound, input, attempts.tag, kwargs)
            except BaseException as error:
                delay = attempts.failed(error, input)

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        attempts = self._attempts(scope)

        def start(reader: Iterator[In], error: BaseException | None) -> Iterator[Out]:
            if error is not None:  # what a stream read is gone: the hook sees "<stream>"
                delay = attempts.failed(error, "<stream>")
                if delay:
                    scope.clock.sleep(delay)
            return scope.stream(self.bound, reader, attempts.tag, kwargs)

        return stream_tries(inputs, start)

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        attempts = self._attempts(scope)

        async def start(reader: AsyncIterator[In], error: BaseException | None) -> AsyncIterator[Out]:
            if error is not None:
                delay = attempts.failed(error, "<stream>")
                if delay:
                    await scope.clock.asleep(delay)
            return scope.astream(self.bound, reader, attempts.tag, kwargs)

        return astream_tries(inputs, start)
