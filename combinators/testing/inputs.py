"""``inputs_for(runnable)``: a strategy of inputs, where the runnable's input type is known.

The type comes from what built the chain: ``runnables(...)`` declares it; otherwise
it is read from the first step that says (a lambda's annotation, a stream
transform's ``Iterator[X]``, ``with_types(input_type=...)``, a retriever or model's
text input, a prompt's variables, or a custom ``Runnable[X, Y]`` subclass), looking through sequences,
passthroughs, wrappers, branches and parallel maps.

>>> from hypothesis import find
>>> from combinators import RunnableLambda, RunnablePassthrough
>>> def words(text: str) -> list[str]:
...     return text.split()
>>> find(inputs_for(RunnablePassthrough() | RunnableLambda(words)), lambda t: " " in t)
' '
"""

from __future__ import annotations

import types
import typing
import weakref
from typing import Any, Final, TypeVar, final

import attrs
from hypothesis import strategies as st

from combinators import (
    AnyRunnable,
    Runnable,
    RunnableAssign,
    RunnableBind,
    RunnableBinding,
    RunnableBranch,
    RunnableEach,
    RunnableParallel,
    RunnableParallelTuple,
    RunnableRetry,
    RunnableSequence,
    RunnableWithFallbacks,
)
from combinators.components.models.chat_model import BaseChatModel
from combinators.components.retrieval.documents import BaseRetriever
from combinators.components.models.llm import BaseLLM
from combinators.testing.plain_values import sentences, values_of
from effects.guards import is_list_or_tuple

_SAME: Final = object()  # passes its input on: the type is decided further down the chain
_UNKNOWN: Final = object()
_QUERY: Final = object()  # a retriever's query text


@final
@attrs.frozen
class _PromptVariables:
    names: tuple[str, ...]


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


def _first_known(candidates: typing.Iterable[AnyRunnable]) -> object:
    for candidate in candidates:
        found = _input_type(candidate)
        if found is not _UNKNOWN and found is not _SAME:
            return found
    return _UNKNOWN


def _hooked(runnable: AnyRunnable) -> object:
    # The node's own hook (its schemas read it too): its class's Runnable[In, Out] by default.
    # A type variable that is also its output (a passthrough, (x: T) -> T) passes the input on.
    declared = runnable.declared_type("input")
    if isinstance(declared, TypeVar):
        return _SAME if runnable.declared_type("output") is declared else _UNKNOWN
    return _UNKNOWN if declared is Any else declared


def _input_type(runnable: AnyRunnable) -> object:
    declared = _declared.get(id(runnable), _UNKNOWN)
    if declared is not _UNKNOWN:
        return declared
    if isinstance(runnable, RunnableBinding):
        return runnable.input_type if runnable.input_type is not None else _input_type(runnable.bound)
    if isinstance(runnable, RunnableSequence):
        for step in runnable.steps:
            found = _input_type(step)
            if found is not _SAME:
                return found
        return _SAME
    if isinstance(runnable, RunnableRetry):
        return _input_type(runnable.bound)
    if isinstance(runnable, RunnableWithFallbacks):
        return _first_known(runnable.runnables)
    if isinstance(runnable, RunnableBind):
        return _input_type(runnable.first)
    if isinstance(runnable, RunnableEach):
        inner = _input_type(typing.cast("RunnableEach[object, object]", runnable).bound)
        return _UNKNOWN if inner is _UNKNOWN or inner is _SAME else types.GenericAlias(list, (inner,))
    if isinstance(runnable, RunnableAssign):
        return _first_known(runnable.mapper.steps.values())
    if isinstance(runnable, RunnableParallel):
        return _first_known(runnable.steps.values())
    if isinstance(runnable, RunnableParallelTuple):
        return _first_known(runnable.branches)
    if isinstance(runnable, RunnableBranch):
        pairs = runnable.branches
        return _first_known([*(c for c, _ in pairs), *(t for _, t in pairs), runnable.default])
    if isinstance(runnable, BaseRetriever):
        return _QUERY
    variables: object = getattr(runnable, "input_variables", None)
    if runnable.run_type == "prompt" and is_list_or_tuple(variables):
        return _PromptVariables(tuple(str(v) for v in variables))
    if isinstance(runnable, BaseChatModel | BaseLLM):
        return str
    wrapped: object = getattr(runnable, "bound", None)  # wrappers such as Flaky
    if isinstance(wrapped, Runnable):  # its parameters cannot be checked: it is only inspected
        return _input_type(typing.cast("AnyRunnable", wrapped))
    return _hooked(runnable)


def inputs_for(runnable: AnyRunnable) -> st.SearchStrategy[Any]:
    """Inputs for ``runnable``, drawn with ``values_of`` its input type.

    >>> from combinators import RunnableLambda
    >>> inputs_for(RunnableLambda(lambda x: x))
    Traceback (most recent call last):
    ...
    TypeError: inputs_for cannot tell the input type of RunnableLambda(lambda x: x): annotate its first step, declare it with .with_types(input_type=...), or pass a strategy of inputs
    """
    found = _input_type(runnable)
    if found is _QUERY:
        return sentences
    if isinstance(found, _PromptVariables):
        return st.fixed_dictionaries({name: sentences for name in found.names})
    if found is _UNKNOWN or found is _SAME:
        raise TypeError(
            f"inputs_for cannot tell the input type of {runnable!r}: annotate its first step,"
            " declare it with .with_types(input_type=...), or pass a strategy of inputs"
        )
    return values_of(found)
