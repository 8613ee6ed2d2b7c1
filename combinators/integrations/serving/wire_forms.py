"""The documented JSON forms of the values LangChain has no class for: an agent's result,
its steps and tool outcomes, why it stopped, a ``returns`` ``Success`` / ``Failure`` and
``Some`` / ``Nothing``, and a pydantic model.

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
    Some(v)       {"kind": "some", "value": v}
    Nothing       {"kind": "nothing"}
    a pydantic model     its fields (``model_dump`` in python mode, each field in its
                         own wire form: an exception scrubbed, a model inside as fields)
    pydantic's SecretStr / SecretBytes   "**********"
    Finished()    {"kind": "finished"}   (and "max_iterations" n, "timed_out" seconds,
                                           "returned_direct" tool, "halted" error)

They are written for people and other languages to read; they are not read back (a
client gets these plain objects). A pydantic model's fields are its own data, as a dict's
keys are (and as LangServe sends them): a model with a top-level ``text`` field is
revived by LangChain.js as a prompt value, as such a dict is.

A value with none of these forms, no LangChain class and no plain-data form has no wire
form at all: ``NoWireForm`` names its type (never its ``repr``, which shows whatever its
class chose to, secrets included).

>>> from returns.result import Failure, Success
>>> write = lambda value: value if not isinstance(value, Exception) else {"error_type": type(value).__name__}
>>> form_writer(type(Success(1)))(Success(1), write)
{'ok': True, 'value': 1}
>>> form_writer(type(Failure(ValueError("no"))))(Failure(ValueError("no")), write)
{'ok': False, 'error': {'error_type': 'ValueError'}}
>>> from returns.io import IOFailure
>>> form_writer(IOFailure)(IOFailure(KeyError("k")), write)
{'ok': False, 'error': {'error_type': 'KeyError'}}
>>> from returns.maybe import Nothing, Some
>>> form_writer(Some)(Some(2), write), form_writer(type(Nothing))(Nothing, write)
({'kind': 'some', 'value': 2}, {'kind': 'nothing'})
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    from typing_extensions import TypeIs

import attrs
from returns.io import IOResult, IOSuccess
from returns.maybe import Nothing, Some
from returns.result import Result, Success
from returns.unsafe import unsafe_perform_io

from combinators.components.agents.steps import STOP_TYPES
from combinators.components.agents.steps import AgentResult, AgentStep, ToolOutcome
from effects.projections import REDACTED, JsonValue

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


def _is_result(value: object) -> TypeIs[Result[object, object]]:
    return isinstance(value, Result)


def _is_io_result(value: object) -> TypeIs[IOResult[object, object]]:
    return isinstance(value, IOResult)


def _result(value: object, write: Write) -> JsonValue:
    """A ``Result``, or an ``IOResult`` read out of its ``IO``: ok and its value, or not and its error."""
    if _is_io_result(value):
        ok = isinstance(value, IOSuccess)
        inner: object = unsafe_perform_io(value.unwrap() if ok else value.failure())
    else:
        assert _is_result(value)
        ok = isinstance(value, Success)
        inner = value.unwrap() if ok else value.failure()
    return {"ok": True, "value": write(inner)} if ok else {"ok": False, "error": write(inner)}


def _is_some(value: object) -> TypeIs[Some[object]]:
    return isinstance(value, Some)


def _some(value: object, write: Write) -> JsonValue:
    assert _is_some(value)
    return {"kind": "some", "value": write(value.unwrap())}


def _nothing(_: object, __: Write) -> JsonValue:
    return {"kind": "nothing"}


class NoWireForm(TypeError):
    """A value with no wire form; the message names its type only (never its ``repr``).

    >>> NoWireForm(object).type_name
    'object'
    """

    def __init__(self, cls: type) -> None:
        self.type_name = cls.__name__
        super().__init__(f"a {self.type_name} has no JSON form")


class _Model(Protocol):
    def model_dump(self, *, mode: str) -> object: ...


def _is_model(value: object) -> TypeIs[_Model]:
    return _from_pydantic(type(value), "BaseModel")


def _from_pydantic(cls: type, *names: str) -> bool:
    """Whether ``cls`` derives from one of pydantic's classes (pydantic is not a
    dependency: a pydantic value exists only once pydantic is imported)."""
    module = sys.modules.get("pydantic")
    if module is None:
        return False
    bases = tuple(base for name in names if isinstance(base := getattr(module, name, None), type))
    return issubclass(cls, bases)


def _model(value: object, write: Write) -> JsonValue:
    assert _is_model(value)
    try:
        fields = value.model_dump(mode="python")
    except Exception:  # a serializer's failure: its text is the model's data
        raise NoWireForm(type(value)) from None
    return write(fields)


def _pydantic_secret(_: object, __: Write) -> JsonValue:
    return REDACTED


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
    if _from_pydantic(cls, "BaseModel"):
        return _model
    if _from_pydantic(cls, "SecretStr", "SecretBytes"):
        return _pydantic_secret
    if issubclass(cls, Result | IOResult):
        return _result
    if issubclass(cls, Some):
        return _some
    if cls is type(Nothing):
        return _nothing
    return next((_WRITERS[base] for base in cls.__mro__ if base in _WRITERS), None)
