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
from typing import Never, TypeVar, overload

from combinators.nodes.lambda_ import RunnableLambda
from combinators.runnable.composing import AnyRunnable, Runnable
from effects.config import RunConfig

A = TypeVar("A")
B = TypeVar("B")


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
