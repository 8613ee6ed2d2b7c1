"""Values across the bridge: LangChain's messages, chunks, documents and prompt values
become ours and back, losslessly, by the one table in ``combinators._support.langchain_types``.

Anything else crosses as is; lists, tuples and dicts are walked (so a list of messages,
or a dict holding documents, converts inside).

>>> from langchain_core.messages import AIMessage as TheirAIMessage
>>> ours = to_ours(TheirAIMessage("hi", id="m1", tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c1"}]))
>>> ours
AIMessage('hi', id='m1', tool_calls=(ToolCall(name='f', args={'x': 1}, id='c1'),))
>>> to_langchain(ours) == TheirAIMessage("hi", id="m1", tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c1"}])
True
"""

import functools
from collections.abc import Mapping

from combinators._support.langchain_types import PART_TYPES, VALUE_TYPES, ValueType, resolve_class
from effects.guards import is_dict, is_list_or_tuple, is_mapping

# Fields whose value LangChain keeps as a list (ours keep tuples).
_LIST_FIELDS = frozenset({"content", "tool_calls", "invalid_tool_calls", "tool_call_chunks", "messages"})


@functools.cache
def _theirs() -> Mapping[type, tuple[type, ValueType]]:
    return {resolve_class(value.langchain): (resolve_class(value.ours), value) for value in VALUE_TYPES.values()}


@functools.cache
def _ours() -> Mapping[type, tuple[type, ValueType]]:
    return {resolve_class(value.ours): (resolve_class(value.langchain), value) for value in VALUE_TYPES.values()}


@functools.cache
def _parts() -> Mapping[type, tuple[str, tuple[str, ...]]]:
    return {
        resolve_class(f"combinators.components.messages.message_classes.{name}"): part
        for name, part in PART_TYPES.items()
    }


@functools.cache
def _addable() -> tuple[type, type]:
    """LangChain's AddableDict and ours (dicts whose ``+`` merges: streamed chunks)."""
    return resolve_class("langchain_core.runnables.utils.AddableDict"), resolve_class("combinators.addable.AddableDict")


_ENTRIES: dict[tuple[bool, type], tuple[type, ValueType] | None] = {}
_OURS_OF: dict[type, tuple[type, ValueType]] = {}  # LangChain classes met so far -> our class and fields


def _table_entry(ours: bool, cls: type) -> tuple[type, ValueType] | None:
    # A subclass (a user's own message class) converts as its nearest table class.
    key = (ours, cls)
    if key not in _ENTRIES:
        found = _ours() if ours else _theirs()
        _ENTRIES[key] = entry = next((found[base] for base in cls.__mro__ if base in found), None)
        if not ours and entry is not None:
            _OURS_OF[cls] = entry
    return _ENTRIES[key]


# Values that cross as they are, checked by exact type first: the common case (text,
# ids, numbers, None) costs one set lookup, not a walk of the table.
_AS_IS: frozenset[type] = frozenset({str, int, float, bool, bytes, type(None)})


def to_ours(value: object) -> object:
    """LangChain's value as ours (messages, chunks, documents, prompt values, inside
    lists, tuples and dicts too); anything else as is.

    >>> from langchain_core.documents import Document as TheirDocument
    >>> to_ours([TheirDocument("fog", metadata={"page": 1}, id="d1")])
    [Document(id='d1', metadata={'page': 1}, page_content='fog')]
    """
    cls = type(value)
    if cls in _AS_IS:
        return value
    if is_list_or_tuple(value):
        converted = [to_ours(item) for item in value]
        return converted if isinstance(value, list) else tuple(converted)
    if is_dict(value):
        items = {key: to_ours(item) for key, item in value.items()}
        # LangChain's AddableDict (a parallel's or an assign's chunks) stays addable: ours.
        return _addable()[1](items) if isinstance(value, _addable()[0]) else items
    entry = _OURS_OF.get(cls) or _table_entry(False, cls)
    if entry is None:
        return value
    ours, table = entry
    fields: dict[str, object] = {}
    for field in table.fields:
        item: object = getattr(value, field)
        kind: type = type(item)
        if kind in _AS_IS:
            fields[field] = item
        elif not item and (kind is list or kind is dict):
            fields[field] = [] if kind is list else {}  # a message's empty metadata and tool calls: no walk
        else:
            fields[field] = to_ours(item)
    return ours(**fields)


def to_langchain(value: object) -> object:
    """Our value as LangChain's (the inverse of `to_ours`); anything else as is.

    >>> from combinators.messages import HumanMessage
    >>> to_langchain({"question": [HumanMessage("hi", id="h1")]})
    {'question': [HumanMessage(content='hi', additional_kwargs={}, response_metadata={}, id='h1')]}
    """
    cls = type(value)
    if cls in _AS_IS:
        return value
    if is_list_or_tuple(value):
        converted = [to_langchain(item) for item in value]
        return converted if isinstance(value, list) else tuple(converted)
    if is_mapping(value):
        items = {key: to_langchain(item) for key, item in value.items()}
        return _addable()[0](items) if isinstance(value, _addable()[1]) else items
    part = _parts().get(cls)
    if part is not None:
        return _part_as_dict(value, *part)
    entry = _table_entry(True, cls)
    if entry is None:
        return value
    theirs, table = entry
    return theirs(**{field: _field_as_langchain(field, getattr(value, field)) for field in table.fields})


def _field_as_langchain(field: str, value: object) -> object:
    converted = to_langchain(value)
    if field in _LIST_FIELDS and is_list_or_tuple(converted):
        return list(converted)
    return converted


def _part_as_dict(value: object, tag: str, keys: tuple[str, ...]) -> dict[str, object]:
    as_dict: dict[str, object] = {}
    for key in keys:
        item = to_langchain(getattr(value, key))
        if key.endswith("_details") and not item:
            continue  # LangChain leaves out the details a provider did not report
        as_dict[key] = item
    if tag:
        as_dict["type"] = tag
    return as_dict


def is_langchain_value(value: object) -> bool:
    """Whether ``value`` is one of the LangChain values the table converts.

    >>> is_langchain_value("text")
    False
    """
    return _table_entry(False, type(value)) is not None


__all__ = ["is_langchain_value", "to_langchain", "to_ours"]
