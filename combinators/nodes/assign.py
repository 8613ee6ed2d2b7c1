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
from typing import Any, cast, final

import attrs

from combinators.addable import AddableDict
from combinators.nodes.parallel import RunnableParallel
from combinators.runnable.composing import Runnable
from combinators._support.tee import AsyncTee
from effects.errors import InputError
from effects._runtime.scope import Scope
from effects._runtime.closing import aclose_all, closing
from effects.values import NOTHING

Input = Mapping[str, Any]


def _require_dict(name: str, value: object) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{name} expects a dict input, got {type(value).__name__}")
    return value  # pyright: ignore[reportUnknownVariableType]


@final
@attrs.frozen(repr=False)
class RunnableAssign(Runnable[Input, dict[str, Any]]):
    """Runs ``mapper`` on the input dict and merges its output into a copy of it."""

    mapper: RunnableParallel[Input]

    @staticmethod
    def of(
        mappers: Mapping[str, Runnable[Input, Any] | Callable[[Input], Any]],
    ) -> RunnableAssign:
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

    def step_invoke(self, input: Input, scope: Scope, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        given = _require_dict(self.name, input)
        return {**given, **scope.invoke(self.mapper, given)}

    async def step_ainvoke(
        self, input: Input, scope: Scope, kwargs: Mapping[str, Any]
    ) -> dict[str, Any]:
        given = _require_dict(self.name, input)
        return {**given, **await scope.ainvoke(self.mapper, given)}

    def step_stream(
        self, inputs: Iterator[Input], scope: Scope, kwargs: Mapping[str, Any]
    ) -> Iterator[dict[str, Any]]:
        # Input chunks go out at once (without the keys the mapper will set),
        # then the mapper's chunks follow.
        keys = set(self.mapper.steps)
        passed, for_mapper = itertools.tee(inputs)
        for chunk in passed:
            given = _require_dict(self.name, chunk)
            kept = AddableDict({k: v for k, v in given.items() if k not in keys})
            if kept:
                yield kept
        yield from scope.stream(self.mapper, for_mapper)

    async def step_astream(
        self, inputs: AsyncIterator[Input], scope: Scope, kwargs: Mapping[str, Any]
    ) -> AsyncIterator[dict[str, Any]]:
        import asyncio

        # The mapper runs in the background on its own copy of the input while the
        # input chunks go out at once (without the mapper's keys); its chunks follow.
        keys = set(self.mapper.steps)
        tee = AsyncTee(inputs, 2)
        results: asyncio.Queue[tuple[object, BaseException | None]] = asyncio.Queue()

        async def run_mapper() -> None:
            try:
                async with closing(scope.astream(self.mapper, tee.reader(1))) as mapped:
                    async for chunk in mapped:
                        results.put_nowait((chunk, None))
            except BaseException as error:
                results.put_nowait((NOTHING, error))
                raise
            results.put_nowait((NOTHING, None))

        mapper = asyncio.ensure_future(run_mapper())
        try:
            async with closing(tee.reader(0)) as passed:
                async for chunk in passed:
                    given = _require_dict(self.name, chunk)
                    kept = AddableDict({k: v for k, v in given.items() if k not in keys})
                    if kept:
                        yield kept
            while True:
                item, error = await results.get()
                if error is not None:
                    raise error
                if item is NOTHING:
                    break
                yield cast(dict[str, Any], item)
        finally:
            await aclose_all((inputs,), tasks=(mapper,))
