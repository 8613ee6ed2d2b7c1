"""``RunnableGenerator``: a true stream transform, fed the input iterator itself.

``invoke`` adds the output chunks up with ``+``.

>>> from collections.abc import Iterator
>>> from combinators import RunnableGenerator
>>> def shout(chunks: Iterator[str]) -> Iterator[str]:
...     for c in chunks:
...         yield c.upper()
>>> gen = RunnableGenerator(shout)
>>> list(gen.transform(["a", "b"])), gen.invoke("xy")
(['A', 'B'], 'XY')
"""

from __future__ import annotations

import collections.abc
import inspect
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Any, Final, Generic, Literal, Never, TypeVar, final, get_args, get_origin, get_type_hints, overload

import attrs
import typing_extensions

from combinators._support.callables import CallableKind, kind_of
from combinators._support.declared import init_fields
from combinators._support.reprs import callable_repr, keyword_reprs
from combinators.runnable.composing import Runnable
from combinators.runnable.sync_calls import SyncCalls
from effects.authoring import Scope, closing, stream_in_worker

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
SyncIn = typing_extensions.TypeVar("SyncIn", covariant=True, default=In)
A = TypeVar("A")
B = TypeVar("B")

_STREAMS: Final = frozenset(
    {
        collections.abc.Iterator,
        collections.abc.Iterable,
        collections.abc.Generator,
        collections.abc.AsyncIterator,
        collections.abc.AsyncIterable,
        collections.abc.AsyncGenerator,
    }
)


# As RunnableLambda: an async-only transform is ``RunnableGenerator[A, B, Never]``, whose
# sync calls are type errors (see ``SyncCalls``; the ignores are the same, on purpose).
@final
@attrs.frozen(init=False, repr=False)
class RunnableGenerator(SyncCalls[Out, SyncIn], Runnable[In, Out], Generic[In, Out, SyncIn]):  # type: ignore[misc, type-var]
    """A generator function over the input chunks (sync, async, or both).

    Under an async call, a transform given only as a sync generator runs on one worker
    thread of the library's pool for its whole life, handing its chunks over a bounded
    queue: it never holds the event loop.

    >>> import asyncio
    >>> from collections.abc import AsyncIterator
    >>> async def ashout(chunks: AsyncIterator[str]) -> AsyncIterator[str]:
    ...     async for c in chunks:
    ...         yield c.upper()
    >>> only_async = RunnableGenerator(ashout)  # RunnableGenerator[str, str, Never]: no sync calls
    >>> asyncio.run(only_async.ainvoke("ab"))
    'AB'
    """

    input_known_at_start = False

    transform_fn: Callable[[Iterator[In]], Iterator[Out]] | None
    atransform_fn: Callable[[AsyncIterator[In]], AsyncIterator[Out]] | None
    label: str | None

    @overload
    def __init__(
        self: RunnableGenerator[A, B, Never],
        transform: Callable[[AsyncIterator[A]], AsyncIterator[B]],
        atransform: None = None,
        *,
        name: str | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableGenerator[A, B],
        transform: Callable[[Iterator[A]], Iterator[B]],
        atransform: Callable[[AsyncIterator[A]], AsyncIterator[B]] | None = None,
        *,
        name: str | None = None,
    ) -> None: ...

    def __init__(
        self,
        transform: Callable[..., object],
        atransform: Callable[..., object] | None = None,
        *,
        name: str | None = None,
    ) -> None:
        sync_fn: Callable[..., object] | None = transform
        if kind_of(transform) is CallableKind.ASYNC_GENERATOR:
            if atransform is not None:
                raise TypeError("RunnableGenerator got two async transforms")
            sync_fn, atransform = None, transform
        init_fields(self, sync_fn, atransform, name)

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """As the peer's: the element type of its transform's ``Iterator[X]`` parameter
        (``"input"``) or of the one it returns (``"output"``)."""
        transform = self.transform_fn or self.atransform_fn
        try:
            hints = get_type_hints(transform)
            params = list(inspect.signature(transform).parameters) if transform is not None else []
        except Exception:  # unresolvable annotations, or a callable without a signature
            return Any
        hint = hints.get("return") if which == "output" else hints.get(params[0]) if params else None
        elements = get_args(hint)
        return elements[0] if get_origin(hint) in _STREAMS and elements else Any

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        fn = self.transform_fn or self.atransform_fn
        fn_name = getattr(fn, "__name__", "RunnableGenerator")
        return "RunnableGenerator" if fn_name == "<lambda>" else fn_name

    def __repr__(self) -> str:
        shown = [callable_repr(f) for f in (self.transform_fn, self.atransform_fn) if f is not None]
        return f"RunnableGenerator({', '.join(shown + keyword_reprs(name=(self.label, None)))})"

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        if self.transform_fn is None:
            # The peer's NotImplementedError (ported code catches it), with what to call instead.
            raise NotImplementedError(f"{self.name} has only an async transform; use astream/ainvoke/atransform")
        return self.transform_fn(inputs, **kwargs) if kwargs else self.transform_fn(inputs)

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        if self.atransform_fn is not None:
            # The user's own generator, with no relay in between: one hop per chunk.
            return self.atransform_fn(inputs, **kwargs)
        return self._sync_over_async(inputs, scope, kwargs)

    async def _sync_over_async(
        self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[Out]:
        # Only a sync transform: feed it the collected input chunks, on a worker thread
        # for its whole life (it must not hold the event loop), its chunks handed over.
        collected = [chunk async for chunk in inputs]
        made = stream_in_worker(scope, lambda: self.step_stream(iter(collected), scope, kwargs))
        async with closing(made) as chunks:
            async for chunk in chunks:
                yield chunk
