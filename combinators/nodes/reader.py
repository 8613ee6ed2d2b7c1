"""``RunnableBind`` and ``pure``: the reader monad over runnables.

``r.bind(f)`` maps ``x`` to ``f(r(x))(x)``: ``f`` turns ``r``'s output into the
runnable that then runs on the same input. ``pure(v)`` ignores its input.

>>> from combinators import RunnableLambda, pure
>>> pure(3).bind(lambda n: RunnableLambda(lambda x: x * n)).invoke(5)
15
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, final

import attrs

from combinators._support.reprs import callable_repr
from combinators.runnable.composing import Runnable
from effects.errors import InputError
from effects.authoring import Scope, aiter_of, arun_on_total, closing, run_on_total
from effects.guards import is_a

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
V = TypeVar("V")


@final
@attrs.frozen(repr=False)
class RunnableBind(Runnable[In, Out]):
    """Runs ``first``, asks ``then`` for the next runnable, runs it on the same input."""

    first: Runnable[In, Any]
    then: Callable[[Any], Runnable[In, Out]]

    is_leaf = False
    input_known_at_start = False

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """Its first runnable's input; its output is the chosen runnable's, not known before."""
        return self.first.declared_type("input") if which == "input" else Any

    def input_draw(self) -> InputDraw:
        """What its first runnable draws."""
        from combinators.runnable.draws import DrawThrough  # loaded when asked

        return DrawThrough((self.first,))

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """The first runnable, then the step that chooses what runs next."""
        then = getattr(self.then, "__name__", "f")
        first = graph.child(self.first, place)
        return graph.series([first, graph.box(f"bind({then})", runnable=self, path=place.path)])

    def __repr__(self) -> str:
        return f"{self.first.receiver_repr()}.bind({callable_repr(self.then)})"

    def _next(self, value: object) -> Runnable[In, Out]:
        nxt = self.then(value)
        if not is_a(nxt, Runnable):
            raise InputError(f"bind's function must return a runnable, got {type(nxt).__name__}")
        return nxt

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        nxt = self._next(scope.invoke(self.first, input, None, kwargs))
        return scope.invoke(nxt, input)

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        nxt = self._next(await scope.ainvoke(self.first, input, None, kwargs))
        return await scope.ainvoke(nxt, input)

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        def run(total: In) -> Iterator[Out]:
            nxt = self._next(scope.invoke(self.first, total, None, kwargs))
            return scope.stream(nxt, iter((total,)))

        return run_on_total(inputs, run)

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        async def run(total: In) -> AsyncIterator[Out]:
            nxt = self._next(await scope.ainvoke(self.first, total, None, kwargs))
            async with closing(scope.astream(nxt, aiter_of((total,)))) as outputs:
                async for out in outputs:
                    yield out

        return arun_on_total(inputs, run)


@final
@attrs.frozen(repr=False)
class RunnablePure(Runnable[object, V]):
    """The constant runnable: any input gives ``value``.

    >>> RunnablePure(7).invoke("ignored")
    7
    """

    value: V

    @property
    def name(self) -> str:
        return "pure"

    def __repr__(self) -> str:
        return f"pure({self.value!r})"

    def step_invoke(self, input: object, scope: Scope, kwargs: Mapping[str, object]) -> V:
        return self.value


def pure(value: V) -> Runnable[object, V]:
    """The constant runnable (the monad's unit).

    >>> pure("x").invoke(None)
    'x'
    """
    return RunnablePure(value)
