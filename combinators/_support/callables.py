"""What kind of callable a function or callable object is: sync or async, generator or not.

``inspect``'s predicates answer only for functions; a callable object (an instance whose
``__call__`` is an ``async def`` generator, say) or a ``functools.partial`` of one needs
its ``__call__`` or its wrapped function looked at. Every place that coerces a callable
asks here, so all of them agree.

>>> class Tokens:
...     async def __call__(self, chunks):
...         async for chunk in chunks:
...             yield chunk
>>> kind_of(Tokens()), kind_of(len)
(<CallableKind.ASYNC_GENERATOR: 3>, <CallableKind.SYNC: 0>)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from enum import IntEnum
from typing import ParamSpec, TypeGuard

P = ParamSpec("P")


class CallableKind(IntEnum):
    """How a callable returns: a value, an awaitable, a generator or an async generator."""

    SYNC = 0
    ASYNC = 1
    GENERATOR = 2
    ASYNC_GENERATOR = 3


def _targets(func: Callable[..., object]) -> tuple[object, ...]:
    target: object = inspect.unwrap(func)
    while isinstance(target, functools.partial):
        partial: functools.partial[object] = target  # pyright: ignore[reportUnknownVariableType]
        target = inspect.unwrap(partial.func)
    if inspect.isfunction(target) or inspect.ismethod(target) or inspect.isbuiltin(target):
        return (target,)
    # A callable object: what its class's __call__ is (bound, so `self` is not a parameter).
    return (target, getattr(target, "__call__", None))  # noqa: B004 - the method itself, to ask its kind


def kind_of(func: Callable[..., object]) -> CallableKind:
    """The kind of ``func``, looking through decorators, partials and ``__call__``.

    >>> async def fetch(x):
    ...     return x
    >>> kind_of(fetch), kind_of(functools.partial(fetch))
    (<CallableKind.ASYNC: 1>, <CallableKind.ASYNC: 1>)
    """
    targets = _targets(func)
    if any(inspect.isasyncgenfunction(t) for t in targets):
        return CallableKind.ASYNC_GENERATOR
    if any(inspect.isgeneratorfunction(t) for t in targets):
        return CallableKind.GENERATOR
    if any(inspect.iscoroutinefunction(t) for t in targets):
        return CallableKind.ASYNC
    return CallableKind.SYNC


def is_async(func: Callable[P, object]) -> TypeGuard[Callable[P, Awaitable[object]]]:
    """Whether calling ``func`` gives an awaitable (an ``async def``, its partial or its
    callable object).

    >>> async def fetch(x):
    ...     return x
    >>> is_async(fetch), is_async(abs)
    (True, False)
    """
    return kind_of(func) is CallableKind.ASYNC


def is_generator(func: Callable[..., object]) -> bool:
    """Whether calling ``func`` gives a generator, sync or async.

    >>> def count(n):
    ...     yield from range(n)
    >>> is_generator(count), is_generator(abs)
    (True, False)
    """
    return kind_of(func) in (CallableKind.GENERATOR, CallableKind.ASYNC_GENERATOR)


_LIBRARY_PACKAGES = ("combinators.", "effects.")


def is_library_code(func: object) -> bool:
    """Whether ``func`` is defined in this library (``combinators`` or ``effects``), not by a
    user: under async, a component runs its own sync hooks inline (they are cheap and
    never block) and a user's on a worker thread.

    >>> is_library_code(kind_of), is_library_code(len)
    (True, False)
    """
    module = getattr(func, "__module__", None)
    return isinstance(module, str) and module.startswith(_LIBRARY_PACKAGES)
