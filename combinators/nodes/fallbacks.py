"""``RunnableWithFallbacks``: try the primary, then each fallback, on the original input.

With ``exception_key`` each fallback gets a *copy* of the input dict with the
last error under that key; the caller's dict is never changed. When all fail,
the primary's error is raised with the fallbacks' errors recorded as notes.
Streams fall back only before their first chunk; an empty stream is a result.

As the peer's, an attribute the wrapper lacks is read from the primary, and a method
of the primary that returns a runnable (``bind_tools``, ``with_structured_output``, ...)
is applied to the primary and to every fallback, giving the same fallbacks over the
results (hidden from the type checkers: typed code calls the method on each model).

>>> from combinators import RunnableLambda
>>> def broken(x: dict) -> str:
...     raise KeyError("primary")
>>> def explain(x: dict) -> str:
...     return f"fallback saw {type(x['error']).__name__}"
>>> data = {"q": 1}
>>> RunnableLambda(broken).with_fallbacks([RunnableLambda(explain)], exception_key="error").invoke(data)
'fallback saw KeyError'
>>> data
{'q': 1}
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeGuard, TypeVar, final

import attrs

from combinators._support.reprs import keyword_reprs
from combinators._support.rereadable import astream_tries, stream_tries
from combinators.runnable.composing import Runnable
from combinators.runnable.hooks import declares, first_declared
from effects.errors import InputError
from effects.authoring import Scope, closing

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)


def _is_method(value: object) -> TypeGuard[Callable[..., object]]:
    return callable(value) and not isinstance(value, Runnable)


@final
@attrs.frozen(repr=False)
class RunnableWithFallbacks(Runnable[In, Out]):
    """``runnable``, then ``fallbacks`` in order, for errors of ``exceptions_to_handle``."""

    runnable: Runnable[In, Out]
    fallbacks: tuple[Runnable[In, Out], ...]
    exceptions_to_handle: tuple[type[BaseException], ...] = (Exception,)
    exception_key: str | None = None

    is_leaf = False
    relays_chunks = True  # as the peer's: the chosen candidate's run shows the chunks

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """The primary's, as the peer's; when it does not say, the first fallback's that does."""
        return first_declared(self.runnables, which)

    def input_draw(self) -> InputDraw:
        """What the first of its runnables that can say draws."""
        from combinators.runnable.draws import DrawFirstKnown  # loaded when asked

        return DrawFirstKnown(self.runnables)

    def input_schema(self) -> dict[str, Any]:
        """The input schema of the runnable ``declared_type`` answers from: the primary's,
        as the peer's, unless only a fallback says what it takes.

        >>> from combinators.prompts import PromptTemplate
        >>> PromptTemplate("{topic}").with_fallbacks([PromptTemplate("{topic}!")]).input_schema()["required"]
        ['topic']
        """
        for runnable in self.runnables:
            if declares(runnable, "input"):
                return runnable.input_schema()
        return super().input_schema()

    def output_schema(self) -> dict[str, Any]:
        """The output schema of the runnable ``declared_type`` answers from: the primary's,
        as the peer's, unless only a fallback says what it gives.

        >>> from combinators.output_parsers import StrOutputParser
        >>> StrOutputParser().with_fallbacks([StrOutputParser()]).output_schema()
        {'title': 'StrOutputParserOutput', 'type': 'string'}
        """
        for runnable in self.runnables:
            if declares(runnable, "output"):
                return runnable.output_schema()
        return super().output_schema()

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """A conditional fork: the primary, then each fallback in turn."""
        labels = ["primary", *(f"fallback {i}" for i in range(1, len(self.fallbacks) + 1))]
        tried = [(label, graph.child(r, place)) for label, r in zip(labels, self.runnables)]
        return graph.fork(self, place, tried, conditional=True)

    @property
    def runnables(self) -> tuple[Runnable[In, Out], ...]:
        """The primary, then the fallbacks."""
        return (self.runnable, *self.fallbacks)

    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            return self._forwarded(name)

    def _forwarded(self, name: str) -> object:
        """The primary's ``name``; a method returning a runnable applies to every candidate.

        >>> from combinators import RunnableLambda
        >>> both = RunnableLambda(str.upper).with_fallbacks([RunnableLambda(str.lower)])
        >>> both._forwarded("with_types")(input_type=str).fallbacks[0].input_type
        <class 'str'>
        """
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            primary = object.__getattribute__(self, "runnable")
        except AttributeError:  # not built yet (unpickling)
            raise AttributeError(name) from None
        found: object = getattr(primary, name)
        if not _is_method(found):
            return found
        method = found

        @functools.wraps(method)
        def on_every_candidate(*args: object, **kwargs: object) -> object:
            result = method(*args, **kwargs)
            if not isinstance(result, Runnable):
                return result
            fallbacks = tuple(getattr(f, name)(*args, **kwargs) for f in self.fallbacks)
            return attrs.evolve(self, runnable=result, fallbacks=fallbacks)

        return on_every_candidate

    def __repr__(self) -> str:
        shown = [
            repr(list(self.fallbacks)),
            *keyword_reprs(
                exceptions_to_handle=(self.exceptions_to_handle, (Exception,)),
                exception_key=(self.exception_key, None),
            ),
        ]
        return f"{self.runnable.receiver_repr()}.with_fallbacks({', '.join(shown)})"

    def _input_for(self, input: In, error: BaseException | None) -> Any:
        if self.exception_key is None or error is None:
            return input
        if not isinstance(input, Mapping):
            raise InputError(
                f"{self.name} with exception_key={self.exception_key!r} expects a dict input,"
                f" got {type(input).__name__}"
            )
        given: Mapping[str, object] = input  # pyright: ignore[reportUnknownVariableType]
        return {**given, self.exception_key: error}  # a copy: never the caller's dict

    def _handled(self, error: BaseException) -> bool:
        return isinstance(error, Exception) and isinstance(error, self.exceptions_to_handle)

    @staticmethod
    def _give_up(errors: list[BaseException]) -> BaseException:
        primary = errors[0]
        for number, error in enumerate(errors[1:], start=1):
            primary.add_note(f"fallback {number} failed: {type(error).__name__}: {error}")
        return primary

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        errors: list[BaseException] = []
        for candidate in self.runnables:
            given = self._input_for(input, errors[-1] if errors else None)
            try:
                return scope.invoke(candidate, given, None, kwargs)
            except BaseException as error:
                if not self._handled(error):
                    raise
                errors.append(error)
        raise self._give_up(errors)

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        errors: list[BaseException] = []
        for candidate in self.runnables:
            given = self._input_for(input, errors[-1] if errors else None)
            try:
                return await scope.ainvoke(candidate, given, None, kwargs)
            except BaseException as error:
                if not self._handled(error):
                    raise
                errors.append(error)
        raise self._give_up(errors)

    def _next_candidate(
        self, candidates: Iterator[Runnable[In, Out]], errors: list[BaseException], error: BaseException | None
    ) -> Runnable[In, Out]:
        """The stream to try after ``error`` (``None`` before the first); or raise: an error
        not handled, or, when every candidate failed, the primary's error."""
        if error is not None:
            if not self._handled(error):
                raise error
            errors.append(error)
        candidate = next(candidates, None)
        if candidate is None:
            raise self._give_up(errors)
        return candidate

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        candidates = iter(self.runnables)
        errors: list[BaseException] = []

        def start(reader: Iterator[In], error: BaseException | None) -> Iterator[Out]:
            candidate = self._next_candidate(candidates, errors, error)
            if errors and self.exception_key is not None:
                last = errors[-1]
                reader = (self._input_for(chunk, last) for chunk in reader)
            return scope.stream(candidate, reader, None, kwargs)

        return stream_tries(inputs, start)

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        candidates = iter(self.runnables)
        errors: list[BaseException] = []

        async def start(reader: AsyncIterator[In], error: BaseException | None) -> AsyncIterator[Out]:
            candidate = self._next_candidate(candidates, errors, error)
            if errors and self.exception_key is not None:
                reader = self._with_error(reader, errors[-1])
            return scope.astream(candidate, reader, None, kwargs)

        return astream_tries(inputs, start)

    async def _with_error(self, reader: AsyncIterator[In], error: BaseException) -> AsyncIterator[In]:
        async with closing(reader) as stream:
            async for chunk in stream:
                yield self._input_for(chunk, error)
