"""``inputs_for(runnable)``: a strategy of inputs, where the runnable's input type is known.

The type comes from what built the chain: ``runnables(...)`` declares it; otherwise
each runnable answers its ``input_draw()`` hook (``combinators.runnable.draws``), in its
own module: a leaf says what it takes (a lambda's annotation, a stream transform's
``Iterator[X]``, ``with_types(input_type=...)``, a custom ``Runnable[X, Y]`` subclass,
a model's string, a retriever's text, a prompt's variables), a node built on others
points at them (a sequence at its first step that does not pass its input on, a wrapper
at its runnable, a parallel map, fallbacks or a branch at the first part that says).
This module only turns the answers into strategies: it names no node.

>>> from hypothesis import find
>>> from combinators import RunnableLambda, RunnablePassthrough
>>> def words(text: str) -> list[str]:
...     return text.split()
>>> find(inputs_for(RunnablePassthrough() | RunnableLambda(words)), lambda t: " " in t)
' '
"""

from __future__ import annotations

import weakref
from typing import Any, Final, TypeAlias

from hypothesis import strategies as st

from combinators import AnyRunnable
from combinators.runnable.draws import (
    DrawFirstKnown,
    DrawFromNext,
    DrawListOf,
    DrawText,
    DrawThrough,
    DrawUnknown,
    DrawValues,
    DrawVariables,
    Part,
)
from combinators.testing.plain_values import sentences, values_of

_UNDECLARED: Final = object()

_declared: dict[int, object] = {}


def declare_input_type(runnable: AnyRunnable, input_type: object) -> None:
    """Remember ``runnable``'s input type for ``inputs_for`` (while it is alive).

    >>> from hypothesis import find
    >>> from combinators import RunnablePassthrough
    >>> identity = RunnablePassthrough()
    >>> declare_input_type(identity, int)
    >>> find(inputs_for(identity), lambda x: x > 2)
    3
    """
    key = id(runnable)
    if key not in _declared:
        weakref.finalize(runnable, _declared.pop, key, None)
    _declared[key] = input_type


_Found: TypeAlias = st.SearchStrategy[object] | DrawFromNext | DrawUnknown
"""A strategy, or why there is none yet (the steps after it decide; it cannot say)."""


def _inputs(runnable: Part) -> _Found:
    # The runnable's own answer (its input_draw hook), unless a test declared its type.
    declared = _declared.get(id(runnable), _UNDECLARED)
    if declared is not _UNDECLARED:
        return values_of(declared)
    match runnable.input_draw():
        case DrawValues(type=type_):
            return values_of(type_)
        case DrawText():
            return sentences
        case DrawVariables(names=names):
            return st.fixed_dictionaries({name: sentences for name in names})
        case DrawThrough(steps=steps):
            return next((found for found in map(_inputs, steps) if not isinstance(found, DrawFromNext)), DrawFromNext())
        case DrawFirstKnown(parts=parts):
            return next((found for found in map(_inputs, parts) if isinstance(found, st.SearchStrategy)), DrawUnknown())
        case DrawListOf(part=part):
            inner = _inputs(part)
            return st.lists(inner, max_size=5) if isinstance(inner, st.SearchStrategy) else DrawUnknown()
        case DrawFromNext() | DrawUnknown() as undecided:
            return undecided


def inputs_for(runnable: AnyRunnable) -> st.SearchStrategy[Any]:
    """Inputs for ``runnable``, drawn with ``values_of`` its input type.

    >>> from combinators import RunnableLambda
    >>> inputs_for(RunnableLambda(lambda x: x))
    Traceback (most recent call last):
    ...
    TypeError: inputs_for cannot tell the input type of RunnableLambda(lambda x: x): annotate its first step, declare it with .with_types(input_type=...), or pass a strategy of inputs
    """
    found = _inputs(runnable)
    if not isinstance(found, st.SearchStrategy):
        raise TypeError(
            f"inputs_for cannot tell the input type of {runnable!r}: annotate its first step,"
            " declare it with .with_types(input_type=...), or pass a strategy of inputs"
        )
    return found
