"""``@chain``: a typed function as a runnable.

>>> from combinators import chain
>>> @chain
... def shout(text: str) -> str:
...     return text.upper()
>>> shout.invoke("hi"), shout.name
('HI', 'shout')
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar, overload

from combinators.nodes.lambda_ import RunnableLambda
from combinators.runnable.composing import Runnable
from effects.config import RunConfig

A = TypeVar("A")
B = TypeVar("B")


@overload
def chain(func: Callable[[A], AsyncIterator[B]]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A], Iterator[B]]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A], Awaitable[B]]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A], Runnable[A, B]]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A], B]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A, RunConfig], Awaitable[B]]) -> Runnable[A, B]: ...
@overload
def chain(func: Callable[[A, RunConfig], B]) -> Runnable[A, B]: ...
def chain(func: Callable[..., Any]) -> Runnable[Any, Any]:
    """Turn a function (sync, async, generator, or taking a config) into a runnable."""
    return RunnableLambda(func)
