"""``RunnablePassthrough``: the identity step, with an optional side effect.

>>> from combinators import RunConfig, RunnablePassthrough
>>> RunnablePassthrough().invoke({"q": 1})
{'q': 1}
>>> RunnablePassthrough.assign(double=lambda d: d["q"] * 2).invoke({"q": 2})
{'q': 2, 'double': 4}
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, final

import attrs

from combinators._support.reprs import callable_repr
from combinators.runnable.composing import Runnable

if TYPE_CHECKING:
    from combinators.nodes.assign import Mapper
from effects.authoring import Scope, plus_chunk, closing
from effects.effect_values import NOTHING, Nothing

T = TypeVar("T")


def _takes_config_keyword(func: Callable[..., object]) -> bool:
    try:
        return "config" in inspect.signature(func).parameters
    except (TypeError, ValueError):  # builtins without a signature
        return False


@final
@attrs.frozen(repr=False)
class RunnablePassthrough(Runnable[T, T]):
    """Passes its input on; ``func`` (if any) is called with it for a side effect.

    As the peer's, ``func`` also gets the call's keyword arguments, and the run's
    config as ``config=`` when it has a parameter of that name. While streaming,
    chunks pass through at once and ``func`` gets them added up at the end.

    >>> seen = []
    >>> def tap(x: int, config: RunConfig, **kwargs: object) -> None:
    ...     seen.append((x, config.tags, kwargs))
    >>> RunnablePassthrough(tap).invoke(1, {"tags": ["t"]}, flag=True)
    1
    >>> seen
    [(1, ('t',), {'flag': True})]
    """

    input_known_at_start = False

    func: Callable[[T], object] | None = None
    afunc: Callable[[T], Awaitable[object]] | None = None

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """One type variable for both ends: it gives what it takes, decided by what it is
        given (its schemas are open; a fan-out asks its other branches)."""
        given: object = getattr(RunnablePassthrough, "__parameters__")[0]  # T, as a value
        return given

    def __repr__(self) -> str:
        shown = [] if self.func is None else [callable_repr(self.func)]
        if self.afunc is not None:
            shown.append(f"afunc={callable_repr(self.afunc)}")
        return f"RunnablePassthrough({', '.join(shown)})"

    @staticmethod
    def assign(  # type: ignore[override]  # LangChain's classmethod form: RunnablePassthrough.assign(...)
        **mappers: Mapper,
    ) -> Runnable[Mapping[str, Any], dict[str, Any]]:
        """Pass a dict through with keys added from ``mappers`` (each sees the whole dict)."""
        from combinators.nodes.assign import RunnableAssign

        return RunnableAssign.of(mappers)

    def _extra(self, func: Callable[..., object], scope: Scope, kwargs: Mapping[str, object]) -> dict[str, object]:
        # The call's kwargs, and the config to a function with a `config` parameter.
        if _takes_config_keyword(func):
            return {**kwargs, "config": scope.config}
        return dict(kwargs)

    def step_invoke(self, input: T, scope: Scope, kwargs: Mapping[str, object]) -> T:
        if self.func is not None:
            self.func(input, **self._extra(self.func, scope, kwargs))
        return input

    async def step_ainvoke(self, input: T, scope: Scope, kwargs: Mapping[str, object]) -> T:
        if self.afunc is not None:
            await self.afunc(input, **self._extra(self.afunc, scope, kwargs))
        elif self.func is not None:
            self.func(input, **self._extra(self.func, scope, kwargs))
        return input

    def step_stream(self, inputs: Iterator[T], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[T]:
        if self.func is None:
            return inputs
        return self._stream_then_call(inputs, scope, kwargs)

    def _stream_then_call(self, inputs: Iterator[T], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[T]:
        total: T | Nothing = NOTHING
        for chunk in inputs:
            total = plus_chunk(total, chunk)
            yield chunk
        if total is not NOTHING and self.func is not None:
            self.func(total, **self._extra(self.func, scope, kwargs))

    async def step_astream(
        self, inputs: AsyncIterator[T], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[T]:
        total: T | Nothing = NOTHING
        async with closing(inputs) as stream:
            async for chunk in stream:
                if self.func is not None or self.afunc is not None:
                    total = plus_chunk(total, chunk)
                yield chunk
        if total is NOTHING:
            return
        if self.afunc is not None:
            await self.afunc(total, **self._extra(self.afunc, scope, kwargs))
        elif self.func is not None:
            self.func(total, **self._extra(self.func, scope, kwargs))
