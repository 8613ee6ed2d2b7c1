"""How ``|`` turns the other side into a runnable.

A runnable stays; a generator function whose first parameter is annotated as an
iterator (or not annotated, as the peer treats every generator) becomes a
``RunnableGenerator`` (a stream transform over the input chunks); a generator
function annotated to take one value, and any other callable, a ``RunnableLambda``
(a per-value generator streams its yields); a dict a ``RunnableParallel`` whose
values are coerced the same way. Anything else is a ``TypeError``.

>>> coerce_to_runnable(len)
RunnableLambda(len)
>>> coerce_to_runnable({"n": 5})
Traceback (most recent call last):
...
TypeError: cannot pipe into the dict: key 'n' holds int, expected a runnable, a callable or a dict
"""

from __future__ import annotations

import collections.abc as abc
import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any

from combinators._support.callables import is_generator
from combinators.runnable.composing import AnyRunnable, Runnable
from effects.guards import is_mapping


def coerce_to_runnable(thing: object) -> Runnable[Any, Any]:
    """A runnable for ``thing`` (see the module docstring)."""
    if isinstance(thing, Runnable):
        return thing  # pyright: ignore[reportUnknownVariableType]
    if is_mapping(thing):
        from combinators.nodes.parallel import RunnableParallel

        steps: dict[str, AnyRunnable] = {}
        for key, value in thing.items():
            if not _pipeable(value):
                raise TypeError(
                    f"cannot pipe into the dict: key {key!r} holds {type(value).__name__},"
                    " expected a runnable, a callable or a dict"
                )
            steps[str(key)] = coerce_to_runnable(value)
        return RunnableParallel(steps)
    if callable(thing):
        func: Callable[..., Any] = thing
        if is_generator(func) and _takes_a_stream(func):
            from combinators.nodes.generator import RunnableGenerator

            return RunnableGenerator(func)
        from combinators.nodes.lambda_ import RunnableLambda

        return RunnableLambda(func)
    raise TypeError(f"cannot pipe {type(thing).__name__}: expected a runnable, a callable or a dict")


def _pipeable(value: object) -> bool:
    return isinstance(value, Runnable | Mapping) or callable(value)


_STREAM_ORIGINS: tuple[object, ...] = (
    abc.Iterator,
    abc.Iterable,
    abc.AsyncIterator,
    abc.AsyncIterable,
    abc.Generator,
    abc.AsyncGenerator,
)


def _takes_a_stream(func: Callable[..., object]) -> bool:
    """Whether a generator function's first parameter is a stream (or unannotated)."""
    annotated: object = func if inspect.isroutine(func) else getattr(func, "__call__", func)  # noqa: B004 - its annotations
    try:
        parameters = list(inspect.signature(func).parameters.values())
        hints = typing.get_type_hints(annotated)
    except (TypeError, ValueError, NameError):
        return True
    if not parameters or parameters[0].name not in hints:
        return True
    annotation = hints[parameters[0].name]
    return (typing.get_origin(annotation) or annotation) in _STREAM_ORIGINS
