"""``RunnableParallel``: named branches on the same input, output a dict.

Streaming yields one-key ``AddableDict`` chunks as the branches produce them;
adding them up rebuilds the ``invoke`` output.

>>> from combinators import RunnableLambda, RunnableParallel
>>> par = RunnableParallel({"up": RunnableLambda(str.upper), "n": RunnableLambda(len)})
>>> par.invoke("ab")
{'up': 'AB', 'n': 2}
>>> par.name
'RunnableParallel<up,n>'
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Any, Literal, TYPE_CHECKING, TypeAlias, TypeVar, final

import attrs

from combinators.addable import AddableDict
from combinators._support.fan_out import (
    TaggedBranch,
    ainvoke_branches,
    astream_branches,
    invoke_branches,
    stream_branches,
)
from combinators._support.declared import init_fields
from combinators.runnable.composing import Runnable
from combinators.runnable.hooks import first_declared

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace
    from combinators.nodes.passthrough import RunnablePassthrough
from effects.authoring import Scope, closing
from effects.guards import is_list_of, is_str_mapping

In = TypeVar("In", contravariant=True)

Branch: TypeAlias = "RunnablePassthrough[Any] | Runnable[In, object] | Callable[[In], object]"
"""A branch of a dict-parallel taking ``In`` (a ``RunnablePassthrough()`` takes what the
others take: its own type is not known until then)."""

BranchLike: TypeAlias = "Branch[In] | Mapping[str, object]"


@final
@attrs.frozen(init=False, repr=False, hash=False)
class RunnableParallel(Runnable[In, dict[str, Any]]):
    """Runs each branch on the input; the output maps each key to its branch's output."""

    steps: Mapping[str, Runnable[In, object]]

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """As the peer: the first branch that declares its input type gives the fan-out's
        (the quickstart's ``{"context": retriever | fmt, "question": passthrough}`` takes
        a str). Its output schema is drawn branch by branch (``output_schema``)."""
        if which == "output":
            return super().declared_type(which)
        return first_declared(self.steps.values(), which)

    def input_draw(self) -> InputDraw:
        """What the first of its branches that can say draws."""
        from combinators.runnable.draws import DrawFirstKnown  # loaded when asked

        return DrawFirstKnown(tuple(self.steps.values()))

    def input_schema(self) -> dict[str, Any]:
        """As the peer's: the object whose properties are its branches' (each branch gets
        the same input), when they take objects; else the schema of ``declared_type``.

        >>> from combinators.prompts import PromptTemplate
        >>> both = RunnableParallel(a=PromptTemplate("{x}"), b=PromptTemplate("{y}"))
        >>> both.input_schema()["required"]
        ['x', 'y']
        """
        properties: dict[str, object] = {}
        required: list[str] = []
        for branch in self.steps.values():
            schema = branch.input_schema()
            if schema.get("type") != "object":
                if set(schema) - {"title", "description"}:
                    return super().input_schema()  # a branch takes a string, or anything
                continue
            given, named = schema.get("properties"), schema.get("required", ())
            properties.update(given if is_str_mapping(given) else {})
            required.extend(name for name in (named if is_list_of(named, str) else ()) if name not in required)
        if not properties:
            return super().input_schema()
        merged: dict[str, object] = {"title": f"{self.name}Input", "type": "object", "properties": properties}
        return merged | ({"required": required} if required else {})

    def output_schema(self) -> dict[str, Any]:
        """An object with a required property per branch: the branch's own output schema,
        titled as the peer's (after its key).

        >>> def size(text: str) -> int:
        ...     return len(text)
        >>> RunnableParallel(n_chars=size).output_schema()
        {'title': 'RunnableParallel<n_chars>Output', 'type': 'object', 'properties': {'n_chars': {'type': 'integer', 'title': 'N Chars'}}, 'required': ['n_chars']}
        """
        properties = {key: _titled(step.output_schema(), key) for key, step in self.steps.items()}
        return {"title": f"{self.name}Output", "type": "object", "properties": properties, "required": list(self.steps)}

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """A fork into every branch, joined."""
        keyed = [(None, graph.child(s, place, f"map:key:{k}")) for k, s in self.steps.items()]
        return graph.fork(self, place, keyed, conditional=False)

    def __init__(
        self,
        steps: Mapping[str, BranchLike[In]] | None = None,
        /,
        **named: BranchLike[In],
    ) -> None:
        from combinators._support.coerce import coerce_to_runnable

        merged = {**(steps or {}), **named}
        if not merged:
            raise ValueError("RunnableParallel needs at least one branch")
        coerced = {str(k): coerce_to_runnable(v) for k, v in merged.items()}
        init_fields(self, coerced)

    is_leaf = False
    input_known_at_start = False

    def __hash__(self) -> int:
        return hash(tuple(self.steps.items()))

    @property
    def name(self) -> str:
        return f"RunnableParallel<{','.join(self.steps)}>"

    def __repr__(self) -> str:
        body = ", ".join(f"{k!r}: {v!r}" for k, v in self.steps.items())
        return f"RunnableParallel({{{body}}})"

    @functools.cached_property
    def _branches(self) -> tuple[TaggedBranch[In], ...]:
        return tuple((step, f"map:key:{key}") for key, step in self.steps.items())

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> dict[str, Any]:
        values = invoke_branches(scope, self._branches, input)
        return dict(zip(self.steps, values, strict=True))

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> dict[str, Any]:
        values = await ainvoke_branches(scope, self._branches, input)
        return dict(zip(self.steps, values, strict=True))

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[dict[str, Any]]:
        keys = list(self.steps)
        for i, chunk in stream_branches(scope, self._branches, inputs):
            yield AddableDict({keys[i]: chunk})

    async def step_astream(
        self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[dict[str, Any]]:
        keys = list(self.steps)
        async with closing(astream_branches(scope, self._branches, inputs)) as stream:
            async for i, chunk in stream:
                yield AddableDict({keys[i]: chunk})


def _untitled(schema: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in schema.items() if key != "title"}


def _titled(schema: dict[str, object], key: str) -> dict[str, object]:
    # As pydantic titles a field: "n_chars" -> "N Chars".
    return _untitled(schema) | {"title": key.title().replace("_", " ")}
