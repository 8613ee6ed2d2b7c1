"""``RunnableAssign``: a dict passed through with keys added by a parallel map.

>>> from combinators import RunnableLambda
>>> from combinators.nodes.assign import RunnableAssign
>>> RunnableAssign.of({"n": lambda d: len(d["s"])}).invoke({"s": "abc"})
{'s': 'abc', 'n': 3}
>>> RunnableAssign.of({"n": len}).invoke(5)
Traceback (most recent call last):
...
effects.errors.InputError: RunnableAssign<n> expects a dict input, got int
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import itertools
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, final

import attrs

from combinators.addable import AddableDict
from combinators.nodes.parallel import RunnableParallel
from combinators.runnable.composing import Runnable
from combinators._support.tee import AsyncTee
from effects.errors import InputError
from effects.guards import is_list_of, is_str_mapping
from effects.authoring import Scope, aclose_all, closing

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace

Input = Mapping[str, Any]
Mapper = Runnable[dict[str, Any], object] | Callable[[dict[str, Any]], object]
"""Computes one new key from the whole dict (a copy of the input, as a ``dict``)."""


def _require_dict(name: str, value: object) -> dict[str, object]:
    # A dict (an AddableDict chunk too) goes on as itself; another mapping as a dict copy.
    if isinstance(value, dict):
        return value  # pyright: ignore[reportUnknownVariableType]
    if not isinstance(value, Mapping):
        raise InputError(f"{name} expects a dict input, got {type(value).__name__}")
    return dict(value)  # pyright: ignore[reportUnknownArgumentType]


async def _adicts(name: str, chunks: AsyncIterator[object]) -> AsyncIterator[dict[str, object]]:
    async with closing(chunks) as stream:
        async for chunk in stream:
            yield _require_dict(name, chunk)


@final
@attrs.frozen(repr=False)
class RunnableAssign(Runnable[Input, dict[str, Any]]):
    """Runs ``mapper`` on the input dict and merges its output into a copy of it."""

    mapper: RunnableParallel[dict[str, Any]]

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """A fork into the mapper's branches and the input kept as it is, joined."""
        mapper = place.inner(self.mapper.name)
        keyed = [(None, graph.child(s, mapper, f"map:key:{k}")) for k, s in self.mapper.steps.items()]
        return graph.fork(self, place, [*keyed, (None, graph.box("RunnablePassthrough"))], conditional=False)

    @staticmethod
    def of(mappers: Mapping[str, Mapper]) -> RunnableAssign:
        """Build from named mappers (runnables or callables)."""
        return RunnableAssign(RunnableParallel(mappers))

    @property
    def name(self) -> str:
        return f"RunnableAssign<{','.join(self.mapper.steps)}>"

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.mapper.steps.items())
        return f"RunnablePassthrough.assign({body})"

    is_leaf = False
    input_known_at_start = False

    def input_draw(self) -> InputDraw:
        """What its parallel draws (the first of its branches that can say)."""
        from combinators.runnable.draws import DrawThrough  # loaded when asked

        return DrawThrough((self.mapper,))

    def input_schema_before(self, following: Callable[[], Mapping[str, object]]) -> dict[str, object]:
        """First in a sequence: the object the rest takes, less the keys it assigns (as the
        peer's, titled as the sequence); its own schema when the rest takes no object.

        >>> from combinators.prompts import PromptTemplate
        >>> (RunnableAssign.of({"a": lambda _: "1"}) | PromptTemplate("{a}{b}")).input_schema()
        {'title': 'RunnableSequenceInput', 'type': 'object', 'properties': {'b': {'title': 'B', 'type': 'string'}}, 'required': ['b']}
        """
        after = following()
        properties = after.get("properties")
        if after.get("type") != "object" or not is_str_mapping(properties):
            return self.input_schema()
        kept = {key: value for key, value in properties.items() if key not in self.mapper.steps}
        schema: dict[str, object] = {"title": "RunnableSequenceInput", "type": "object", "properties": kept}
        named = after.get("required", ())
        required = [key for key in named if key in kept] if is_list_of(named, str) else []
        return schema | ({"required": required} if required else {})

    def output_schema(self) -> dict[str, Any]:
        """An object with the mapper's keys, titled and required as the peer's (the input's
        keys pass through besides).

        >>> def size(text: str) -> int:
        ...     return len(text)
        >>> RunnableAssign.of({"n": size}).output_schema()
        {'title': 'RunnableAssign<n>Output', 'type': 'object', 'properties': {'n': {'type': 'integer', 'title': 'N'}}, 'required': ['n']}
        """
        mapped = self.mapper.output_schema()
        return {
            "title": f"{self.name}Output",
            "type": "object",
            "properties": mapped["properties"],
            "required": mapped["required"],
        }

    def step_invoke(self, input: Input, scope: Scope, kwargs: Mapping[str, object]) -> dict[str, Any]:
        given = _require_dict(self.name, input)
        added = scope.invoke(self.mapper, given)
        return {**given, **added}

    async def step_ainvoke(self, input: Input, scope: Scope, kwargs: Mapping[str, object]) -> dict[str, Any]:
        given = _require_dict(self.name, input)
        added = await scope.ainvoke(self.mapper, given)
        return {**given, **added}

    def step_stream(
        self, inputs: Iterator[Input], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[dict[str, Any]]:
        # Input chunks go out at once (without the keys the mapper will set),
        # then the mapper's chunks follow.
        keys = set(self.mapper.steps)
        passed, for_mapper = itertools.tee(_require_dict(self.name, chunk) for chunk in inputs)
        for given in passed:
            kept = AddableDict({k: v for k, v in given.items() if k not in keys})
            if kept:
                yield kept
        yield from scope.stream(self.mapper, for_mapper)

    async def step_astream(
        self, inputs: AsyncIterator[Input], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[dict[str, Any]]:
        import asyncio

        # The mapper runs in the background on its own copy of the input while the
        # input chunks go out at once (without the mapper's keys); its chunks follow.
        keys = set(self.mapper.steps)
        dicts = _adicts(self.name, inputs)
        tee = AsyncTee(dicts, 2)
        # The mapper's chunks, then its error or None when it is done.
        results: asyncio.Queue[dict[str, object] | BaseException | None] = asyncio.Queue()

        async def run_mapper() -> None:
            try:
                async with closing(scope.astream(self.mapper, tee.reader(1))) as mapped:
                    async for chunk in mapped:
                        results.put_nowait(chunk)
            except BaseException as error:
                results.put_nowait(error)
                raise
            results.put_nowait(None)

        mapper = asyncio.ensure_future(run_mapper())
        try:
            async with closing(tee.reader(0)) as passed:
                async for given in passed:
                    kept = AddableDict({k: v for k, v in given.items() if k not in keys})
                    if kept:
                        yield kept
            while (item := await results.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            await aclose_all((dicts, inputs), tasks=(mapper,))
