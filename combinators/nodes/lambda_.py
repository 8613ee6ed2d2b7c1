"""``RunnableLambda``: a function as a step (``@chain`` makes one of a typed function).

The function may be sync, async, or both (``afunc``); a sync or async generator
function streams its yields; a function that returns a runnable has that runnable
run on the same input (one level of ``recursion_limit`` less); a function with a
second parameter receives the ``RunConfig``.

>>> from combinators import RunnableLambda
>>> def double(x: int) -> int:
...     return 2 * x
>>> RunnableLambda(double)
RunnableLambda(double)
>>> RunnableLambda(double).invoke(21)
42
>>> from combinators import chain
>>> @chain
... def shout(text: str) -> str:
...     return text.upper()
>>> shout.invoke("hi"), shout.name
('HI', 'shout')
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import Any, Final, Generic, Literal, Never, TYPE_CHECKING, TypeVar, final, get_type_hints, overload

import attrs

from combinators._support.callables import CallableKind, kind_of
from combinators._support.declared import init_fields
from combinators._support.reprs import callable_repr, keyword_reprs
from combinators.runnable.composing import AnyRunnable, Runnable
from combinators.runnable.sync_calls import SyncCalls
from effects.errors import InputError
from effects.lazy import deferred

if TYPE_CHECKING:
    import typing_extensions

    from effects.authoring import (
        Scope,
        aiter_of,
        atotal_of,
        arun_on_total,
        closing,
        in_worker,
        run_on_total,
        stream_in_worker,
        total_of,
    )
    from effects.config import RunConfig
else:
    # The runtime loads when a lambda first runs, not when one is defined.
    deferred(
        globals(),
        "effects.authoring",
        *("aiter_of", "arun_on_total", "atotal_of", "closing", "in_worker", "run_on_total"),
        *("stream_in_worker", "total_of"),
    )

A = TypeVar("A")
B = TypeVar("B")
In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
if TYPE_CHECKING:
    SyncIn = typing_extensions.TypeVar("SyncIn", covariant=True, default=In)
else:
    # The default is for the checkers; typing_extensions would add a tenth to the import.
    SyncIn = TypeVar("SyncIn", covariant=True)


_SYNC: Final = CallableKind.SYNC  # a module constant: one lookup less on the hot path


def _takes_config(func: Callable[..., object]) -> bool:
    try:
        parameters = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):  # builtins without a signature take one argument
        return False
    if any(p.name == "config" for p in parameters):
        return True
    positional = [
        p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return len(positional) >= 2


def _function_name(func: Callable[..., object]) -> str:
    name = getattr(func, "__name__", None)
    if not isinstance(name, str) or name == "<lambda>":
        return "RunnableLambda"
    return name


# SyncCalls first: its sync calls take SyncIn where Runnable's take the input (misc, on purpose:
# Never for an async-only function), and its slot for our covariant SyncIn is invariant (type-var).
@final
@attrs.frozen(init=False, repr=False)
class RunnableLambda(SyncCalls[Out, SyncIn], Runnable[In, Out], Generic[In, Out, SyncIn]):  # type: ignore[misc, type-var]
    """A function (sync, async, generator, or returning a runnable) as a step.

    Under an async call (``ainvoke``, ``astream``, ``astream_events``, ``abatch``) a sync
    function (or sync generator) runs on a worker thread of the library's own bounded
    pool, so it never holds the event loop and time limits apply to it (the thread
    itself cannot be killed: an abandoned call runs on, its result dropped). Pass
    ``in_thread=False`` for a cheap function to run it inline in the loop instead,
    without the thread hop. An async function always runs in the loop.

    >>> async def aplus(x: int) -> int:
    ...     return x + 1
    >>> import asyncio
    >>> asyncio.run(RunnableLambda(aplus).ainvoke(1))
    2
    """

    input_known_at_start = False

    if not TYPE_CHECKING:
        # SyncIn's default (In) is the checkers' alone (see SyncIn above): at run time,
        # RunnableLambda[In, Out] gets it here, so the two-argument form users write works.
        def __class_getitem__(cls, params):
            if isinstance(params, tuple) and len(params) == 2:
                params = (*params, params[0])
            return super().__class_getitem__(params)

    func: Callable[..., Any]
    afunc: Callable[..., Any] | None
    label: str | None
    in_thread: bool
    kind: CallableKind = attrs.field(eq=False)
    afunc_kind: CallableKind | None = attrs.field(eq=False)
    passes_config: bool = attrs.field(eq=False)

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """From its function's hints: the first parameter's, or the return's."""
        try:
            hints = get_type_hints(self.func)
            params = list(inspect.signature(self.func).parameters)
        except Exception:  # unresolvable annotations, or a builtin without a signature
            return Any
        if which == "output":
            return hints.get("return", Any)
        return hints.get(params[0], Any) if params else Any

    @overload
    def __init__(
        self: RunnableLambda[A, B, Never],
        func: Callable[[A], AsyncIterator[B]],
        afunc: None = None,
        *,
        name: str | None = None,
        in_thread: bool = True,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableLambda[A, B],
        func: Callable[[A], Iterator[B]],
        afunc: Callable[[A], AsyncIterator[B]] | None = None,
        *,
        name: str | None = None,
        in_thread: bool = True,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableLambda[A, B, Never],
        func: Callable[[A], Awaitable[B]],
        afunc: None = None,
        *,
        name: str | None = None,
        in_thread: bool = True,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableLambda[A, B],
        func: Callable[[A], Runnable[A, B]],
        afunc: None = None,
        *,
        name: str | None = None,
        in_thread: bool = True,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableLambda[A, B],
        func: Callable[[A], B],
        afunc: Callable[[A], Awaitable[B]] | None = None,
        *,
        name: str | None = None,
        in_thread: bool = True,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableLambda[A, B, Never],
        func: Callable[[A, RunConfig], Awaitable[B]],
        afunc: None = None,
        *,
        name: str | None = None,
        in_thread: bool = True,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableLambda[A, B],
        func: Callable[[A, RunConfig], B],
        afunc: Callable[[A, RunConfig], Awaitable[B]] | None = None,
        *,
        name: str | None = None,
        in_thread: bool = True,
    ) -> None: ...

    def __init__(
        self,
        func: Callable[..., object],
        afunc: Callable[..., object] | None = None,
        *,
        name: str | None = None,
        in_thread: bool = True,
    ) -> None:
        if not callable(func):
            raise TypeError(f"RunnableLambda needs a callable, got {type(func).__name__}")
        kind = kind_of(func)
        afunc_kind = None
        if afunc is not None:
            if kind in (CallableKind.ASYNC, CallableKind.ASYNC_GENERATOR):
                raise TypeError("RunnableLambda got an async func and an afunc: give the async one as afunc")
            afunc_kind = kind_of(afunc)
            if afunc_kind not in (CallableKind.ASYNC, CallableKind.ASYNC_GENERATOR):
                raise TypeError("RunnableLambda's afunc must be an async function")
        init_fields(self, func, afunc, name, in_thread, kind, afunc_kind, _takes_config(func))

    @overload
    @staticmethod
    def from_(func: Callable[[A], Awaitable[B]]) -> RunnableLambda[A, B, Never]: ...

    @overload
    @staticmethod
    def from_(func: Callable[[A], B]) -> RunnableLambda[A, B]: ...

    @staticmethod
    def from_(func: Callable[..., object]) -> RunnableLambda[Never, object, object]:
        """LangChain.js's ``RunnableLambda.from(func)``: the same as ``RunnableLambda(func)``.

        >>> RunnableLambda.from_(len).invoke("abc")
        3
        """
        return RunnableLambda(func)

    @property
    def name(self) -> str:
        return self.label or _function_name(self.func)

    def __repr__(self) -> str:
        shown = [callable_repr(self.func)]
        if self.afunc is not None:
            shown.append(f"afunc={callable_repr(self.afunc)}")
        shown += keyword_reprs(name=(self.label, None), in_thread=(self.in_thread, True))
        return f"RunnableLambda({', '.join(shown)})"

    # ------------------------------------------------------------------ running

    def _args(self, input: object, scope: Scope) -> tuple[object, ...]:
        return (input, scope.config) if self.passes_config else (input,)

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        kind = self.kind
        if kind is _SYNC:
            if self.passes_config:
                out = self.func(input, scope.config, **kwargs)
            elif kwargs:
                out = self.func(input, **kwargs)
            else:
                out = self.func(input)
        elif kind is CallableKind.GENERATOR:
            out = total_of(self.func(*self._args(input, scope), **kwargs), self.name)
        else:
            raise InputError(f"{self.name} has only an async function; call ainvoke/astream instead of invoke")
        if isinstance(out, Runnable):
            returned: Runnable[In, Out] = out  # pyright: ignore[reportUnknownVariableType]
            return _run_returned(returned, input, scope)
        result: Out = out
        return result

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        func, kind = self._async_func()
        if kind is CallableKind.ASYNC:
            out = await func(*self._args(input, scope), **kwargs)
        elif kind is CallableKind.ASYNC_GENERATOR:
            out = await atotal_of(func(*self._args(input, scope), **kwargs), self.name)
        elif kind is CallableKind.GENERATOR:
            if self.in_thread:
                out = await in_worker(scope, self._added_up, func, self._args(input, scope), kwargs)
            else:
                out = self._added_up(func, self._args(input, scope), kwargs)
        elif self.in_thread:
            out = await in_worker(scope, func, *self._args(input, scope), **kwargs)
        else:
            out = func(*self._args(input, scope), **kwargs)
        if isinstance(out, Runnable):
            returned: Runnable[In, Out] = out  # pyright: ignore[reportUnknownVariableType]
            return await _arun_returned(returned, input, scope)
        result: Out = out
        return result

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        return run_on_total(inputs, lambda total: self._stream_total(total, scope, kwargs))

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        return arun_on_total(inputs, lambda total: self._astream_total(total, scope, kwargs))

    def _stream_total(self, total: In, scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        if self.kind is CallableKind.GENERATOR:
            yield from self.func(*self._args(total, scope), **kwargs)
            return
        out: Any = self.step_invoke_raw(total, scope, kwargs)
        if isinstance(out, Runnable):
            returned: Runnable[Any, Out] = out  # pyright: ignore[reportUnknownVariableType]
            yield from scope.with_recursion_step(returned).stream(returned, iter((total,)))
            return
        yield out

    async def _astream_total(self, total: In, scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        func, kind = self._async_func()
        if kind is CallableKind.ASYNC_GENERATOR:
            async with closing(func(*self._args(total, scope), **kwargs)) as stream:
                async for chunk in stream:
                    yield chunk
            return
        if kind is CallableKind.GENERATOR:
            args = self._args(total, scope)
            if self.in_thread:
                async with closing(stream_in_worker(scope, lambda: func(*args, **kwargs))) as chunks:
                    async for chunk in chunks:
                        yield chunk
            else:
                for chunk in func(*args, **kwargs):
                    yield chunk
            return
        if kind is CallableKind.ASYNC:
            out = await func(*self._args(total, scope), **kwargs)
        elif self.in_thread:
            out = await in_worker(scope, func, *self._args(total, scope), **kwargs)
        else:
            out = func(*self._args(total, scope), **kwargs)
        if isinstance(out, Runnable):
            returned: Runnable[Any, Out] = out  # pyright: ignore[reportUnknownVariableType]
            async with closing(scope.with_recursion_step(returned).astream(returned, aiter_of((total,)))) as stream:
                async for chunk in stream:
                    yield chunk
            return
        yield out

    def step_invoke_raw(self, input: object, scope: Scope, kwargs: Mapping[str, object]) -> object:
        """Call the sync function once, without running a runnable it returns."""
        if self.kind is not CallableKind.SYNC:
            raise InputError(f"{self.name} has only an async function; call ainvoke/astream instead")
        return self.func(*self._args(input, scope), **kwargs)

    def _added_up(self, func: Callable[..., Any], args: tuple[object, ...], kwargs: Mapping[str, object]) -> Any:
        return total_of(func(*args, **kwargs), self.name)

    def _async_func(self) -> tuple[Callable[..., Any], CallableKind]:
        if self.afunc is not None and self.afunc_kind is not None:
            return self.afunc, self.afunc_kind
        return self.func, self.kind


def _run_returned(runnable: Runnable[A, B], input: A, scope: Scope) -> B:
    return scope.with_recursion_step(runnable).invoke(runnable, input)


async def _arun_returned(runnable: Runnable[A, B], input: A, scope: Scope) -> B:
    return await scope.with_recursion_step(runnable).ainvoke(runnable, input)


@overload
def chain(func: Callable[[A], AsyncIterator[B]]) -> RunnableLambda[A, B, Never]: ...
@overload
def chain(func: Callable[[A], Iterator[B]]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A], Awaitable[B]]) -> RunnableLambda[A, B, Never]: ...
@overload
def chain(func: Callable[[A], Runnable[A, B]]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A], B]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A, RunConfig], Awaitable[B]]) -> RunnableLambda[A, B, Never]: ...
@overload
def chain(func: Callable[[A, RunConfig], B]) -> Runnable[A, B]: ...
def chain(func: Callable[..., object]) -> AnyRunnable:
    """Turn a function (sync, async, generator, or taking a config) into a runnable.

    Of an async function it is a ``RunnableLambda[In, Out, Never]``: calling it with ``invoke``
    (or another sync call) is a type error, as it would fail at run time; ``ainvoke`` it.
    """
    return RunnableLambda(func)
