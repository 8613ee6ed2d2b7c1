"""``RunnableEach``: a runnable applied to every element of a list (LangChain's ``.map()``).

>>> from combinators import RunnableLambda
>>> RunnableLambda(str.upper).each().invoke(["a", "b"])
['A', 'B']
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, final

import attrs

from combinators.runnable.composing import Runnable
from effects.authoring import Scope, aeach_on_executor, each_on_executor, gather_structured, run_indexed

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace

A = TypeVar("A")
B = TypeVar("B")


@final
@attrs.frozen(repr=False)
class RunnableEach(Runnable[Sequence[A], list[B]], Generic[A, B]):
    """Runs ``bound`` on each element (concurrently, results in order; on the config's
    ``executor`` when there is one)."""

    bound: Runnable[A, B]

    is_leaf = False

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """A list of what its runnable takes or gives (``list[Any]`` when it does not say)."""
        return types.GenericAlias(list, (self.bound.declared_type(which),))

    def input_draw(self) -> InputDraw:
        """Lists of what its runnable draws."""
        from combinators.runnable.draws import DrawListOf  # loaded when asked

        return DrawListOf(self.bound)

    def input_schema(self) -> dict[str, Any]:
        """An array of its runnable's input schema (untitled).

        >>> from combinators.prompts import PromptTemplate
        >>> PromptTemplate("{topic}").map().input_schema()["items"]["required"]
        ['topic']
        """
        items = {key: value for key, value in self.bound.input_schema().items() if key != "title"}
        return {"title": f"{self.name}Input", "type": "array", "items": items}

    def output_schema(self) -> dict[str, Any]:
        """An array of its runnable's output schema (untitled).

        >>> from combinators.output_parsers import StrOutputParser
        >>> StrOutputParser().map().output_schema()["items"]
        {'type': 'string'}
        """
        items = {key: value for key, value in self.bound.output_schema().items() if key != "title"}
        return {"title": f"{self.name}Output", "type": "array", "items": items}

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """The runnable run on each element, in a group."""
        with graph.grouped("each (per element)", "each"):
            return graph.child(self.bound, place)

    @property
    def name(self) -> str:
        return f"RunnableEach<{self.bound.name}>"

    def __repr__(self) -> str:
        return f"{self.bound.receiver_repr()}.each()"

    def step_invoke(self, input: Sequence[A], scope: Scope, kwargs: Mapping[str, object]) -> list[B]:
        items = list(input)
        executor = scope.config.executor
        if executor is not None:
            return each_on_executor(scope, executor, self.bound, items, kwargs)
        return run_indexed(lambda i: scope.invoke(self.bound, items[i], None, kwargs), len(items), limit=None)

    async def step_ainvoke(self, input: Sequence[A], scope: Scope, kwargs: Mapping[str, object]) -> list[B]:
        items = list(input)
        executor = scope.config.executor
        if executor is not None:
            return await aeach_on_executor(scope, executor, self.bound, items, kwargs)
        results: dict[int, B] = {}

        async def one(i: int) -> None:
            output = await scope.ainvoke(self.bound, items[i], None, kwargs)
            results[i] = output

        await gather_structured([one(i) for i in range(len(items))])
        return [results[i] for i in range(len(items))]
