"""Recording and normalising transcripts, the same way for the peer and for us.

A transcript is ``{"items": [...], "raised": None | {"type", "message"}}``: the JSON
form of every event (or every log patch's ops) in order, then the error the stream
raised, if any. Normalising replaces what differs between two runs of the same chain:

- run ids (any UUID, also inside ``lc_run--<uuid>`` message ids) -> ``"run-0"``,
  ``"run-1"``, ... in order of first appearance (keys visited in sorted order, so the
  numbering does not depend on a dict's key order);
- ISO-8601 timestamps -> ``"<time>"``.
"""

from __future__ import annotations

import re
import importlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any


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


def _ops(item: object) -> Json:
    """A log patch's ops as a JSON list."""
    return to_json(list(getattr(item, "ops")))


def _item(projection: str, item: object) -> Json:
    return _ops(item) if projection == "log" else to_json(item)


def _stream(runnable: Any, projection: str, input: Any) -> AsyncIterator[Any]:
    if projection == "events_v2":
        return runnable.astream_events(input, version="v2")  # type: ignore[no-any-return]
    if projection == "events_v1":
        return runnable.astream_events(input, version="v1")  # type: ignore[no-any-return]
    if projection == "log":
        return runnable.astream_log(input, diff=True)  # type: ignore[no-any-return]
    raise ValueError(projection)


def _sync_stream(runnable: Any, projection: str, input: Any) -> Iterator[Any]:
    if projection == "events_v2":
        return runnable.stream_events(input, version="v2")  # type: ignore[no-any-return]
    if projection == "events_v1":
        return runnable.stream_events(input, version="v1")  # type: ignore[no-any-return]
    if projection == "log":
        return runnable.stream_log(input, diff=True)  # type: ignore[no-any-return]
    raise ValueError(projection)


async def arecord(runnable: Any, projection: str, input: Any) -> Json:
    """The normalised transcript of ``astream_events`` / ``astream_log``."""
    items: list[Json] = []
    raised: Json = None
    try:
        async for item in _stream(runnable, projection, input):
            items.append(_item(projection, item))
    except Exception as error:  # the transcript records it
        raised = error_json(error)
    return normalise({"items": items, "raised": raised})


def record(runnable: Any, projection: str, input: Any) -> Json:
    """The normalised transcript of the sync ``stream_events`` / ``stream_log``."""
    items: list[Json] = []
    raised: Json = None
    try:
        for item in _sync_stream(runnable, projection, input):
            items.append(_item(projection, item))
    except Exception as error:
        raised = error_json(error)
    return normalise({"items": items, "raised": raised})
