"""Recording and normalising transcripts, the same way for the peer and for us.

A transcript is ``{"items": [...], "raised": None | {"type", "message"}}``: the JSON
form of every event (or every log patch's ops) in order, then the error the stream
raised, if any. Normalising replaces what differs between two runs of the same chain:

- run ids (any UUID, also inside ``lc_run--<uuid>`` message ids) -> ``"run-0"``,
  ``"run-1"``, ... in order of first appearance (keys visited in sorted order, so the
  numbering does not depend on a dict's key order);
- ISO-8601 timestamps -> ``"<time>"``.

Messages and prompt values are recorded in a common form (``common_form``) before the
JSON form is taken, the same way for both libraries: the peer's are pydantic models
(whose JSON form would be their repr), ours are attrs values (in events) or already
their JSON form (in our run log, which keeps JSON). The common form keeps what a
message says (its class, content, name, tool calls, metadata, usage, chunk position)
and drops ids made up by the peer's runtime other than run ids (``lc_<uuid>``); the
ids both libraries make from a model run's id (``lc_run--<run id>``) are kept (and
normalised with the run ids), as is a provider's id.
"""

from __future__ import annotations

import re
import importlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, cast


def _find_to_jsonable() -> Callable[[object], Any] | None:
    try:
        module = importlib.import_module("effects.projections.jsonable")
    except ImportError:  # pragma: no cover - the projection module is part of the library
        return None
    found: Callable[[object], Any] | None = getattr(module, "to_jsonable", None)
    return found


_to_jsonable = _find_to_jsonable()

Json = Any

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$")


def to_json(value: object) -> Json:
    """The JSON form of a value (``to_jsonable``; exceptions -> type name + message)."""
    if _to_jsonable is not None:
        return _to_jsonable(value)
    return _local_json(value)  # pragma: no cover


def _local_json(value: object) -> Json:  # pragma: no cover - fallback only
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, BaseException):
        return {"type": "error", "error_type": type(value).__name__, "message": str(value)}
    if isinstance(value, dict):
        return {str(k): _local_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_local_json(v) for v in value]
    return {"type": "repr", "repr": repr(value)}


# ---------------------------------------------------------------- the common message form

MESSAGE_CLASSES = frozenset({"SystemMessage", "HumanMessage", "AIMessage", "AIMessageChunk", "ToolMessage"})
PROMPT_VALUE_CLASSES = frozenset({"StringPromptValue", "ChatPromptValue"})


def _field(value: object, name: str, default: object = None) -> object:
    if isinstance(value, dict):
        return cast("dict[str, object]", value).get(name, default)
    return getattr(value, name, default)


def _kind(value: object) -> str | None:
    """The message or prompt-value class a value is (live, or our JSON form of it)."""
    if isinstance(value, dict):
        kind = cast("dict[str, object]", value).get("type")
        if not isinstance(kind, str):
            return None
        known = (kind in MESSAGE_CLASSES and "content" in value) or kind in PROMPT_VALUE_CLASSES
        return kind if known else None
    kind = type(value).__name__
    if (kind in MESSAGE_CLASSES and hasattr(value, "content")) or kind in PROMPT_VALUE_CLASSES:
        return kind
    return None


def _runtime_id(message_id: object) -> object:
    # Ids made from a model run's id (``lc_run--<run id>``) are compared (normalised with
    # the run ids); other ids the peer's runtime makes up (``lc_<uuid>``) are dropped.
    if isinstance(message_id, str) and message_id.startswith("lc_") and not message_id.startswith("lc_run--"):
        return None
    return message_id


def _parts(values: object, names: tuple[str, ...]) -> Json:
    items = cast("list[object]", values or [])
    return [{name: common_form(_field(v, name)) for name in names} for v in items]


def _usage(usage: object) -> Json:
    if usage is None:
        return None
    form = {k: _field(usage, k, 0) for k in ("input_tokens", "output_tokens", "total_tokens")}
    for details in ("input_token_details", "output_token_details"):
        if _field(usage, details):
            form[details] = common_form(_field(usage, details))
    return form


def _message_form(kind: str, message: object) -> Json:
    form: dict[str, Json] = {
        "type": "message",
        "class": kind,
        "content": common_form(_field(message, "content")),
        "name": _field(message, "name"),
        "id": _runtime_id(_field(message, "id")),
        "additional_kwargs": common_form(_field(message, "additional_kwargs") or {}),
        "response_metadata": common_form(_field(message, "response_metadata") or {}),
    }
    if kind == "AIMessage":
        form["tool_calls"] = _parts(_field(message, "tool_calls"), ("name", "args", "id"))
        form["invalid_tool_calls"] = _parts(_field(message, "invalid_tool_calls"), ("name", "args", "id", "error"))
    if kind == "AIMessageChunk":
        form["tool_call_chunks"] = _parts(_field(message, "tool_call_chunks"), ("name", "args", "id", "index"))
        form["chunk_position"] = _field(message, "chunk_position")
    if kind in ("AIMessage", "AIMessageChunk"):
        form["usage_metadata"] = _usage(_field(message, "usage_metadata"))
    if kind == "ToolMessage":
        form["tool_call_id"] = _field(message, "tool_call_id")
        form["status"] = _field(message, "status")
    return form


def common_form(value: object) -> Json:
    """Messages and prompt values (peer or ours, live or in our JSON form) in the common
    form; dicts, lists and tuples walked; anything else as it is."""
    kind = _kind(value)
    if kind == "ChatPromptValue":
        messages = cast("list[object]", _field(value, "messages"))
        return {"type": kind, "messages": [common_form(m) for m in messages]}
    if kind == "StringPromptValue":
        return {"type": kind, "text": _field(value, "text")}
    if kind is not None:
        return _message_form(kind, value)
    if isinstance(value, dict):
        return {k: common_form(v) for k, v in cast("dict[str, object]", value).items()}
    if isinstance(value, list | tuple):
        return [common_form(v) for v in cast("list[object] | tuple[object, ...]", value)]
    return value


def error_json(error: BaseException) -> Json:
    return {"type": type(error).__name__, "message": str(error)}


def normalise(transcript: Json) -> Json:
    """Run ids -> ``run-N`` (first appearance), timestamps -> ``<time>``."""
    ids: dict[str, str] = {}
    _number(transcript, ids)
    return _replace(transcript, ids)


def _number(value: Json, ids: dict[str, str]) -> None:
    if isinstance(value, str):
        for found in _UUID.findall(value):
            ids.setdefault(found.lower(), f"run-{len(ids)}")
    elif isinstance(value, list):
        for item in value:
            _number(item, ids)
    elif isinstance(value, dict):
        for key in sorted(value):
            _number(value[key], ids)


def _replace(value: Json, ids: dict[str, str]) -> Json:
    if isinstance(value, str):
        if _TIME.match(value):
            return "<time>"
        return _UUID.sub(lambda m: ids[m.group(0).lower()], value)
    if isinstance(value, list):
        return [_replace(item, ids) for item in value]
    if isinstance(value, dict):
        return {k: _replace(v, ids) for k, v in value.items()}
    return value


Form = Callable[[object], object]
"""How an item is shown before it becomes JSON: ``common_form`` to compare with the peer,
the identity for our own native form."""


def _item(projection: str, item: object, form: Form) -> Json:
    # A log patch is its ops, a JSON list.
    return to_json(form(list(getattr(item, "ops")) if projection == "log" else item))


def _stream(runnable: Any, projection: str, input: Any, options: dict[str, Any]) -> AsyncIterator[Any]:
    if projection == "events_v2":
        return runnable.astream_events(input, version="v2", **options)  # type: ignore[no-any-return]
    if projection == "events_v1":
        return runnable.astream_events(input, version="v1", **options)  # type: ignore[no-any-return]
    if projection == "log":
        return runnable.astream_log(input, diff=True, **options)  # type: ignore[no-any-return]
    raise ValueError(projection)


def _sync_stream(runnable: Any, projection: str, input: Any, options: dict[str, Any]) -> Iterator[Any]:
    if projection == "events_v2":
        return runnable.stream_events(input, version="v2", **options)  # type: ignore[no-any-return]
    if projection == "events_v1":
        return runnable.stream_events(input, version="v1", **options)  # type: ignore[no-any-return]
    if projection == "log":
        return runnable.stream_log(input, diff=True, **options)  # type: ignore[no-any-return]
    raise ValueError(projection)


async def arecord(runnable: Any, projection: str, input: Any, *, form: Form = common_form, **options: Any) -> Json:
    """The normalised transcript of ``astream_events`` / ``astream_log`` (``options``:
    the filters, ``include_names=...`` and so on)."""
    items: list[Json] = []
    raised: Json = None
    try:
        async for item in _stream(runnable, projection, input, options):
            items.append(_item(projection, item, form))
    except Exception as error:  # the transcript records it
        raised = error_json(error)
    return normalise({"items": items, "raised": raised})


def record(runnable: Any, projection: str, input: Any, *, form: Form = common_form, **options: Any) -> Json:
    """The normalised transcript of the sync ``stream_events`` / ``stream_log``."""
    items: list[Json] = []
    raised: Json = None
    try:
        for item in _sync_stream(runnable, projection, input, options):
            items.append(_item(projection, item, form))
    except Exception as error:
        raised = error_json(error)
    return normalise({"items": items, "raised": raised})
