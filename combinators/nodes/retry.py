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
from combinators._support.rereadable import AReplayable, Replayable
from combinators.retry_policy import RetryPolicy
from combinators.runnable.composing import Runnable
from effects.authoring import Scope, closing, gather_structured, run_indexed

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)


class _NotRunError(Exception):
    """An input of a batch not run yet (a slot is an error until its input succeeds)."""


_NOT_RUN: Final = _NotRunError("not run yet")


def _tag(attempt: int) -> str | None:
    return None if attempt == 1 else f"retry:attempt:{attempt}"


def _record(final_error: BaseException, earlier: list[BaseException]) -> None:
    for number, error in enumerate(earlier, start=1):
        final_error.add_note(f"attempt {number} failed: {type(error).__name__}: {error}")


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

    def _next_delay(
        self,
        error: BaseException,
        input: object,
        attempt: int,
        waited: float,
        scope: Scope,
        earlier: list[BaseException],
    ) -> float:
        """The wait before the next attempt, or raise ``error`` if there is none."""
        if not self.policy.should_retry(error):
            _record(error, earlier)
            raise error
        if self.on_failed_attempt is not None:
            self.on_failed_attempt(error, input, attempt)
        delay = self.policy.delay_before(attempt + 1, scope.clock.random)
        if not self.policy.allows(attempt + 1, waited + delay):
            _record(error, earlier)
            raise error
        earlier.append(error)
        return delay

    def _batch_delay(
        self,
        inputs: Sequence[In],
        outcomes: list[Out | Exception],
        attempt: int,
        waited: float,
        scope: Scope,
        earlier: list[BaseException],
    ) -> float | None:
        """The wait before the batch's next attempt, decided by its first error in input
        order; ``None`` when the batch is done (no error left, or no retry)."""
        first = next(((i, outcome) for i, outcome in enumerate(outcomes) if isinstance(outcome, Exception)), None)
        if first is None:
            return None
        index, error = first
        try:
            return self._next_delay(error, inputs[index], attempt, waited, scope, earlier)
        except Exception:
            return None  # no further attempt: each failed input keeps its last error

    def step_batch(
        self, inputs: Sequence[In], scopes: Sequence[Scope], kwargs: Mapping[str, object]
    ) -> list[Out | Exception]:
        outcomes: list[Out | Exception] = [_NOT_RUN] * len(inputs)
        earlier: list[BaseException] = []
        waited = 0.0
        attempt = 1
        while True:
            todo = [i for i, outcome in enumerate(outcomes) if isinstance(outcome, Exception)]

            def run(k: int, todo: list[int] = todo, attempt: int = attempt) -> Out:
                return scopes[todo[k]].invoke(self.bound, inputs[todo[k]], _tag(attempt), kwargs)

            for i, outcome in zip(todo, run_indexed(run, len(todo), limit=None, return_exceptions=True), strict=True):
                outcomes[i] = outcome
            delay = self._batch_delay(inputs, outcomes, attempt, waited, scopes[0], earlier)
            if delay is None:
                return outcomes
            if delay:
                scopes[0].clock.sleep(delay)
            waited += delay
            attempt += 1

    async def step_abatch(
        self, inputs: Sequence[In], scopes: Sequence[Scope], kwargs: Mapping[str, object]
    ) -> list[Out | Exception]:
        outcomes: list[Out | Exception] = [_NOT_RUN] * len(inputs)
        earlier: list[BaseException] = []
        waited = 0.0
        attempt = 1
        while True:
            todo = [i for i, outcome in enumerate(outcomes) if isinstance(outcome, Exception)]

            async def run(i: int, attempt: int = attempt) -> None:
                try:
                    output: Out = await scopes[i].ainvoke(self.bound, inputs[i], _tag(attempt), kwargs)
                    outcomes[i] = output
                except Exception as error:
                    outcomes[i] = error

            await gather_structured([run(i) for i in todo])
            delay = self._batch_delay(inputs, outcomes, attempt, waited, scopes[0], earlier)
            if delay is None:
                return outcomes
            if delay:
                await scopes[0].clock.asleep(delay)
            waited += delay
            attempt += 1

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        earlier: list[BaseException] = []
        waited = 0.0
        attempt = 1
        while True:
            try:
                return scope.invoke(self.bound, input, _tag(attempt), kwargs)
            except BaseException as error:
                delay = self._next_delay(error, input, attempt, waited, scope, earlier)
            if delay:
                scope.clock.sleep(delay)
            waited += delay
            attempt += 1

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        earlier: list[BaseException] = []
        waited = 0.0
        attempt = 1
        while True:
            try:
                return await scope.ainvoke(self.bound, input, _tag(attempt), kwargs)
            except BaseException as error:
                delay = self._next_delay(error, input, attempt, waited, scope, earlier)
            if delay:
                await scope.clock.asleep(delay)
            waited += delay
            attempt += 1

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        source = Replayable(inputs)
        earlier: list[BaseException] = []
        waited = 0.0
        attempt = 1
        while True:
            chunks = scope.stream(self.bound, source.reader(), _tag(attempt), kwargs)
            try:
                first = next(chunks)
            except StopIteration:
                return
            except BaseException as error:
                if source.error is not None:
                    raise  # the input failed, not this step: nothing to retry
                delay = self._next_delay(error, "<stream>", attempt, waited, scope, earlier)
                if delay:
                    scope.clock.sleep(delay)
                waited += delay
                attempt += 1
                continue
            yield first
            yield from chunks
            return

    async def step_astream(
        self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[Out]:
        source = AReplayable(inputs)
        async with closing(inputs):  # owned here: closed when the retried stream ends
            earlier: list[BaseException] = []
            waited = 0.0
            attempt = 1
            while True:
                chunks = scope.astream(self.bound, source.reader(), _tag(attempt), kwargs)
                try:
                    first = await anext(chunks)
                except StopAsyncIteration:
                    return
                except BaseException as error:
                    if source.error is not None:
                        raise  # the input failed, not this step: nothing to retry
                    delay = self._next_delay(error, "<stream>", attempt, waited, scope, earlier)
                    if delay:
                        await scope.clock.asleep(delay)
                    waited += delay
                    attempt += 1
                    continue
                async with closing(chunks) as stream:  # closed also if the consumer stops at `first`
                    yield first
                    async for chunk in stream:
                        yield chunk
                return
