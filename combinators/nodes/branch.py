"""``RunnableBranch``: the first branch whose condition holds runs, else the default.

Conditions are tried in order on the original input (tags ``condition:N``); the
chosen branch runs with ``branch:N`` or ``branch:default``.

>>> from combinators import RunnableBranch, RunnableLambda
>>> sign = RunnableBranch(
...     (lambda x: x > 0, RunnableLambda(lambda x: "positive")),
...     (lambda x: x < 0, RunnableLambda(lambda x: "negative")),
...     RunnableLambda(lambda x: "zero"),
... )
>>> sign.batch([3, -1, 0])
['positive', 'negative', 'zero']
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Literal, TypeVar, final

import attrs

from combinators._support.declared import init_fields
from combinators.runnable.composing import AnyRunnable, Runnable
from combinators.runnable.hooks import first_declared, union_declared
from effects.authoring import Scope, aiter_of, arun_on_total, closing, run_on_total
from effects.guards import is_list_of

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace

A = TypeVar("A")
B = TypeVar("B")
In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)

Condition = Runnable[A, object] | Callable[[A], object]
Target = Runnable[A, B] | Callable[[A], B]


@final
@attrs.frozen(init=False, repr=False)
class RunnableBranch(Runnable[In, Out]):
    """Condition/branch pairs and a default, chosen by truthiness of the conditions."""

    branches: tuple[tuple[Runnable[In, object], Runnable[In, Out]], ...]
    default: Runnable[In, Out]

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """A conditional fork: one arm per condition (labelled by it), then the default."""
        arms: list[tuple[str | None, Fragment]] = []
        for i, (condition, target) in enumerate(self.branches, 1):
            shown = graph.name_of(condition)
            label = f"condition {i}" if shown == "RunnableLambda" else shown
            arms.append((label, graph.child(target, place, f"branch:{i}")))
        arms.append(("default", graph.child(self.default, place, "branch:default")))
        return graph.fork(self, place, arms, conditional=True)

    def __init__(
        self,
        *args: tuple[Condition[In], Target[In, Out]] | Target[In, Out],
    ) -> None:
        # One typed signature, no catch-all overload: a branch whose input or output
        # does not fit is a type error here (untyped callers are checked at runtime).
        from combinators._support.coerce import coerce_to_runnable

        given: tuple[object, ...] = args
        if len(given) < 2:
            raise ValueError(
                "RunnableBranch requires at least two branches: one or more (condition, runnable) pairs, then a default"
            )
        *pairs, default = given
        if isinstance(default, tuple):
            raise TypeError("RunnableBranch's last argument is the default runnable, not a pair")
        coerced: list[tuple[AnyRunnable, AnyRunnable]] = []
        for pair in pairs:
            if not is_list_of(pair, object) or isinstance(pair, list) or len(pair) != 2:
                raise TypeError(
                    f"RunnableBranch takes (condition, runnable) pairs before the default, got {type(pair).__name__}"
                )
            condition, target = pair
            coerced.append((coerce_to_runnable(condition), coerce_to_runnable(target)))
        init_fields(self, tuple(coerced), coerce_to_runnable(default))

    is_leaf = False

    def input_draw(self) -> InputDraw:
        """What the first of its conditions, then arms, then default that can say draws."""
        from combinators.runnable.draws import DrawFirstKnown  # loaded when asked

        return DrawFirstKnown((*(c for c, _ in self.branches), *(arm for _, arm in self.branches), self.default))

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """Its input as the peer's: the first declared of the default's, the branches', the
        conditions'. Its output: the union of what the branches and the default give, when
        each says (the peer says nothing)."""
        arms = [*(target for _, target in self.branches), self.default]
        if which == "input":
            asked = [self.default, *arms[:-1], *(condition for condition, _ in self.branches)]
            return first_declared(asked, "input")
        return union_declared(arms, "output")

    @property
    def name(self) -> str:
        return "RunnableBranch"

    def __repr__(self) -> str:
        pairs = ", ".join(f"({c!r}, {r!r})" for c, r in self.branches)
        return f"RunnableBranch({pairs}, {self.default!r})"

    def _choose(self, input: In, scope: Scope) -> tuple[Runnable[In, Out], str]:
        for i, (condition, target) in enumerate(self.branches, start=1):
            if scope.invoke(condition, input, f"condition:{i}"):
                return target, f"branch:{i}"
        return self.default, "branch:default"

    async def _achoose(self, input: In, scope: Scope) -> tuple[Runnable[In, Out], str]:
        for i, (condition, target) in enumerate(self.branches, start=1):
            if await scope.ainvoke(condition, input, f"condition:{i}"):
                return target, f"branch:{i}"
        return self.default, "branch:default"

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        target, tag = self._choose(input, scope)
        return scope.invoke(target, input, tag, kwargs)

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        target, tag = await self._achoose(input, scope)
        return await scope.ainvoke(target, input, tag, kwargs)

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        def run(total: In) -> Iterator[Out]:
            target, tag = self._choose(total, scope)
            return scope.stream(target, iter((total,)), tag, kwargs)

        return run_on_total(inputs, run)

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        async def run(total: In) -> AsyncIterator[Out]:
            target, tag = await self._achoose(total, scope)
            async with closing(scope.astream(target, aiter_of((total,)), tag, kwargs)) as outputs:
                async for out in outputs:
                    yield out

        return arun_on_total(inputs, run)
