"""LangServe's form of the values LangChain has classes for, written and read by the one
table in ``combinators._support.langchain_types`` (the LangChain bridge reads it too).

A message, message chunk, document, prompt value or generation travels as its field
dict with LangChain's snake_case names and its ``type`` tag, as LangServe 0.3 writes it
(``model_dump()``) and as both LangChain clients (Python and JS) revive it::

    {"content": "hi", "id": null, "name": null, "additional_kwargs": {}, "response_metadata": {},
     "tool_calls": [], "invalid_tool_calls": [], "usage_metadata": null, "type": "ai"}

Tags: ``human``, ``ai``, ``system``, ``tool``, ``chat``, ``AIMessageChunk``, ``Document``,
``StringPromptValue``, ``ChatPromptValueConcrete``, ``Generation``, ``ChatGeneration``.
A message's parts go as LangChain's typed dicts (``{"name", "args", "id", "type":
"tool_call"}``). A chunk also carries the ``tool_calls`` parsed from its chunks, as
LangChain's does; such derived fields are never read back.

Reading back, a dict becomes one of these classes only when its ``type`` tag names one,
every key is a field of that class, and the class's own constructor accepts the values;
anything else stays the dict it is. A LangChain chunk class that has no class here
(``HumanMessageChunk``, ``ToolMessageChunk``, ``ChatGenerationChunk``, ...) is read as
the class it subclasses (``READ_AS``); ``AgentAction``, ``AgentFinish`` and ``LLMResult``
have no class here and stay dicts.

>>> from combinators.messages import HumanMessage
>>> form = write_value(HumanMessage("hi"), lambda value: value)
>>> form["type"], form["content"]
('human', 'hi')
>>> read_value(form, frozenset({HumanMessage}))
HumanMessage('hi')
>>> read_value({"type": "human", "content": "hi", "password": "x"}, frozenset({HumanMessage})) is None
True
>>> read_value({"type": "HumanMessageChunk", "content": "hi"}, frozenset({HumanMessage}))
HumanMessage('hi')
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from typing import Final

from combinators._support.langchain_types import (
    PART_TYPES,
    READ_AS,
    WIRE_TAGS,
    WIRE_VALUE_TYPES,
    ValueType,
    resolve_class,
)
from effects.projections import JsonValue

Write = Callable[[object], JsonValue]

TOLERATED: Final = {"example": (None, False)}
"""Keys LangChain's clients send that no class here has, with the only values accepted
(LangChain.js writes ``"example": false`` in every message it sends)."""


@functools.cache
def _classes() -> Mapping[type, ValueType]:
    return {resolve_class(value.ours): value for value in WIRE_VALUE_TYPES}


@functools.cache
def _parts() -> Mapping[type, tuple[str, tuple[str, ...]]]:
    return {
        resolve_class(f"combinators.components.messages.message_classes.{name}"): part
        for name, part in PART_TYPES.items()
    }


_ENTRIES: dict[type, ValueType | None] = {}


def table_entry(cls: type) -> ValueType | None:
    """The table's entry for ``cls`` or its nearest base in the table (a user's message
    subclass goes as its LangChain class).

    >>> from combinators.documents import Document
    >>> table_entry(Document).tag, table_entry(int)
    ('Document', None)
    """
    if cls not in _ENTRIES:
        found = _classes()
        _ENTRIES[cls] = next((found[base] for base in cls.__mro__ if base in found), None)
    return _ENTRIES[cls]


def is_part(cls: type) -> bool:
    """Whether ``cls`` is a message part (a tool call, its chunk, an invalid call, usage).

    >>> from combinators.messages import ToolCall
    >>> is_part(ToolCall), is_part(dict)
    (True, False)
    """
    return cls in _parts()


def write_part(value: object, write: Write) -> JsonValue:
    """A message part as LangChain's typed dict (empty token details left out, as LangChain does).

    >>> from combinators.messages import ToolCall
    >>> write_part(ToolCall("add", {"a": 1}, id="c1"), lambda value: value)
    {'name': 'add', 'args': {'a': 1}, 'id': 'c1', 'type': 'tool_call'}
    """
    tag, keys = _parts()[type(value)]
    form: dict[str, JsonValue] = {}
    for key in keys:
        item = write(getattr(value, key))
        if key.endswith("_details") and not item:
            continue
        form[key] = item
    if tag:
        form["type"] = tag
    return form


def _as_declared(form: JsonValue, keys: tuple[str, ...]) -> JsonValue:
    # What pydantic dumps of a field declared as a base class: that base's keys only.
    if isinstance(form, list):
        return [_as_declared(item, keys) for item in form]
    if isinstance(form, dict):
        return {key: form[key] for key in keys if key in form}
    return form


def write_value(value: object, write: Write) -> JsonValue:
    """``value`` (of a table class) as its LangServe field dict; ``write`` writes each field.

    >>> from combinators.agents import ToolAgentAction, ToolAgentStep
    >>> step = ToolAgentStep(ToolAgentAction("add", {"a": 1}, "log", (), "c1"), 1)
    >>> write_value(step, lambda item: write_value(item, lambda v: v) if hasattr(item, "tool") else item)
    {'action': {'tool': 'add', 'tool_input': {'a': 1}, 'log': 'log', 'type': 'AgentActionMessageLog'}, 'observation': 1}
    """
    entry = table_entry(type(value))
    assert entry is not None
    form: dict[str, JsonValue] = {field: write(getattr(value, field)) for field in entry.fields}
    for field, keys in entry.declared:
        form[field] = _as_declared(form[field], keys)
    if entry.tag:
        form["type"] = entry.tag
    for field in entry.derived:
        form[field] = write(getattr(value, field))
    return form


def read_value(fields: Mapping[str, object], allowed: Collection[type]) -> object | None:
    """The object a LangServe field dict stands for, or None when it is not one: no known
    tag, a class not in ``allowed``, a key the class does not have, or values its
    constructor refuses. The field values must already be read (nested values first)."""
    tag = fields.get("type")
    entry = WIRE_TAGS.get(READ_AS.get(tag, tag)) if isinstance(tag, str) else None
    if entry is None:
        return None
    cls = resolve_class(entry.ours)
    if cls not in allowed:
        return None
    known = {*entry.fields, *entry.derived, "type"}
    arguments: dict[str, object] = {}
    for key, item in fields.items():
        if key in entry.fields:
            if item is not None:  # null: the field's default (LangChain writes null for unset)
                arguments[key] = item
        elif key not in known and not any(item is ok for ok in TOLERATED.get(key, ())):
            return None
    try:
        built: object = cls(**arguments)
        return built
    except (TypeError, ValueError):
        return None
