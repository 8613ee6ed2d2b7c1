"""The documented JSON forms of the values LangChain has no class for: an agent's result,
its steps and tool outcomes, why it stopped, and a ``returns`` ``Success`` / ``Failure``.

Each is a plain object with named fields and a ``kind``; none has a top-level ``text`` or
``messages`` key, nor the keys of a message (``content`` + ``type`` + ``additional_kwargs``)
or of a document (``page_content`` + ``metadata``), so LangChain's clients leave them as
plain objects instead of reviving them as prompt values, messages or documents::

    AgentResult   {"kind": "agent_result", "output": str | null, "steps": [AgentStep...],
                   "conversation": [message...], "stop": StopReason | null}
    AgentStep     {"kind": "agent_step", "message": ai message, "outcomes": [ToolOutcome...]}
    ToolOutcome   {"kind": "tool_outcome", "call": tool call, "result": Result, "message": tool message}
    Success(v)    {"ok": true, "value": v}       (and IOSuccess(v), as @impure_safe makes)
    Failure(e)    {"ok": false, "error": e}      (and IOFailure(e))
    Finished()    {"kind": "finished"}   (and "max_iterations" n, "timed_out" seconds,
                                           "returned_direct" tool, "halted" error)

They are written for people and other languages to read; they are not read back (a
client gets these plain objects).

>>> from returns.result import Failure, Success
>>> write = lambda value: value if not isinstance(value, Exception) else {"error_type": type(value).__name__}
>>> form_writer(type(Success(1)))(Success(1), write)
{'ok': True, 'value': 1}
>>> form_writer(type(Failure(ValueError("no"))))(Failure(ValueError("no")), write)
{'ok': False, 'error': {'error_type': 'ValueError'}}
>>> from returns.io import IOFailure
>>> form_writer(IOFailure)(IOFailure(KeyError("k")), write)
{'ok': False, 'error': {'error_type': 'KeyError'}}
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from typing_extensions import TypeIs

import attrs
from returns.io import IOFailure, IOSuccess
from returns.result import Failure, Success
from returns.unsafe import unsafe_perform_io

from combinators.components.agents.steps import STOP_TYPES
from combinators.components.agents.steps import AgentResult, AgentStep, ToolOutcome
from effects.projections import JsonValue

Write = Callable[[object], JsonValue]
"""How a field's value is written (the wire's own walk, so nested values get their forms too)."""
Writer = Callable[[object, Write], JsonValue]


def _agent_result(value: object, write: Write) -> JsonValue:
    assert isinstance(value, AgentResult)
    return {
        "kind": "agent_result",
        "output": value.output,
        "steps": [write(step) for step in value.steps],
        "conversation": [write(message) for message in value.messages],
        "stop": write(value.stop),
    }


def _agent_step(value: object, write: Write) -> JsonValue:
    assert isinstance(value, AgentStep)
    return {"kind": "agent_step", "message": write(value.message), "outcomes": [write(o) for o in value.outcomes]}


def _tool_outcome(value: object, write: Write) -> JsonValue:
    assert isinstance(value, ToolOutcome)
    return {
        "kind": "tool_outcome",
        "call": write(value.call),
        "result": write(value.result),
        "message": write(value.message),
    }


def _is_success(value: object) -> TypeIs[Success[object]]:
    return isinstance(value, Success)


def _is_failure(value: object) -> TypeIs[Failure[object]]:
    return isinstance(value, Failure)


def _success(value: object, write: Write) -> JsonValue:
    assert _is_success(value)
    return {"ok": True, "value": write(value.unwrap())}


def _failure(value: object, write: Write) -> JsonValue:
    assert _is_failure(value)
    return {"ok": False, "error": write(value.failure())}


def _is_io_success(value: object) -> TypeIs[IOSuccess[object]]:
    return isinstance(value, IOSuccess)


def _is_io_failure(value: object) -> TypeIs[IOFailure[object]]:
    return isinstance(value, IOFailure)


def _io_success(value: object, write: Write) -> JsonValue:
    assert _is_io_success(value)
    return {"ok": True, "value": write(unsafe_perform_io(value.unwrap()))}


def _io_failure(value: object, write: Write) -> JsonValue:
    assert _is_io_failure(value)
    return {"ok": False, "error": write(unsafe_perform_io(value.failure()))}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _stop(value: object, write: Write) -> JsonValue:
    form: dict[str, JsonValue] = {"kind": _snake(type(value).__name__)}
    cls = type(value)
    assert attrs.has(cls)  # one of STOP_TYPES, all attrs classes
    form.update((field.name, write(getattr(value, field.name))) for field in attrs.fields(cls))
    return form


_WRITERS: Final[dict[type, Writer]] = {
    AgentResult: _agent_result,
    AgentStep: _agent_step,
    ToolOutcome: _tool_outcome,
    **{stop: _stop for stop in STOP_TYPES},
}


def form_writer(cls: type) -> Writer | None:
    """The writer of ``cls``'s documented form, or None when it has none.

    >>> form_writer(int) is None
    True
    """
    if issubclass(cls, Success):
        return _success
    if issubclass(cls, Failure):
        return _failure
    if issubclass(cls, IOSuccess):
        return _io_success
    if issubclass(cls, IOFailure):
        return _io_failure
    return next((_WRITERS[base] for base in cls.__mro__ if base in _WRITERS), None)
