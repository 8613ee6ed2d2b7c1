"""``parallel(a, b, ...)``: positional branches on the same input, output a typed tuple.

>>> from combinators import RunnableLambda, parallel
>>> def length(s: str) -> int:
...     return len(s)
>>> both = parallel(RunnableLambda(str.upper), RunnableLambda(length))
>>> both.invoke("ab")
('AB', 2)
>>> both
parallel(RunnableLambda(str.upper), RunnableLambda(length))
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
import types
from typing import TYPE_CHECKING, Any, Literal, cast, final, overload

import attrs

from combinators._support.fan_out import TaggedBranch, ainvoke_branches, invoke_branches
from combinators.runnable.composing import Runnable
from combinators.runnable.hooks import A, B, C, D, E, In, Out, X, first_declared
from effects.authoring import Scope, checked

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace


@final
@attrs.frozen(repr=False)
class RunnableParallelTuple(Runnable[In, Out]):
    """Runs each branch on the input; the output is the tuple of their outputs.

    >>> from combinators import RunnableLambda
    >>> RunnableParallelTuple((RunnableLambda(abs), RunnableLambda(str))).invoke(-2)
    (2, '-2')
    """

    branches: tuple[Runnable[In, object], ...]

    is_leaf = False

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """Its input as a dict-parallel's (the first branch's that says); its output the
        tuple of its branches' outputs."""
        if which == "input":
            return first_declared(self.branches, "input")
        return types.GenericAlias(tuple, tuple(branch.declared_type("output") for branch in self.branches))

    def input_draw(self) -> InputDraw:
        """What the first of its branches that can say draws."""
        from combinators.runnable.draws import DrawFirstKnown  # loaded when asked

        return DrawFirstKnown(self.branches)

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """A fork into every branch, joined."""
        indexed = [(None, graph.child(s, place, f"map:key:{i}")) for i, s in enumerate(self.branches)]
        return graph.fork(self, place, indexed, conditional=False)

    @property
    def name(self) -> str:
        return f"RunnableParallel<{','.join(str(i) for i in range(len(self.branches)))}>"

    def __repr__(self) -> str:
        return f"parallel({', '.join(repr(b) for b in self.branches)})"

    @functools.cached_property
    def _tagged(self) -> tuple[TaggedBranch[In], ...]:
        return tuple((step, f"map:key:{i}") for i, step in enumerate(self.branches))

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        return cast(Out, tuple(invoke_branches(scope, self._tagged, input)))

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        return cast(Out, tuple(await ainvoke_branches(scope, self._tagged, input)))


@overload
def parallel(a: Runnable[X, A], b: Runnable[X, B], /) -> Runnable[X, tuple[A, B]]: ...


@overload
def parallel(a: Runnable[X, A], b: Runnable[X, B], c: Runnable[X, C], /) -> Runnable[X, tuple[A, B, C]]: ...


@overload
def parallel(
    a: Runnable[X, A], b: Runnable[X, B], c: Runnable[X, C], d: Runnable[X, D], /
) -> Runnable[X, tuple[A, B, C, D]]: ...


@overload
def parallel(
    a: Runnable[X, A],
    b: Runnable[X, B],
    c: Runnable[X, C],
    d: Runnable[X, D],
    e: Runnable[X, E],
    /,
) -> Runnable[X, tuple[A, B, C, D, E]]: ...


@overload
def parallel(*branches: Runnable[X, Any]) -> Runnable[X, tuple[Any, ...]]: ...


def parallel(*branches: Runnable[X, object]) -> Runnable[X, tuple[object, ...]]:
    """Run the branches on the same input; the output is the tuple of their outputs."""
    if len(branches) < 1:
        raise ValueError("parallel needs at least one branch")
    for branch in branches:
        checked(branch, Runnable, "parallel takes runnables")
    return RunnableParallelTuple(tuple(branches))
