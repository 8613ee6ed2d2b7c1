"""Recordings: effects as JSON lines, and replaying them back into effect values.

One line per effect, a compact JSON object::

    {"kind": "start"|"stream"|"end"|"error"|"custom", "at": <seconds>,
     "run": {"id", "parent_ids", "name", "type", "tags", "metadata", ["params"], ["whole_output"]},
     ...payloads: "input", "chunk", "output", "data"; "error"; "name" (custom)}

A payload is ``{"json": <to_jsonable form>}``, or ``{"no_input": true}`` for
``NOTHING``. A value that is not plain JSON data also keeps what projections ask of it
(``"text"``: its token text, ``"dict"``: whether it was a dict) and replays as a
``Replayed`` value; a root chunk that was added to a total that was not plain JSON also
keeps the outcome (``"added"``, ``"total"``), so the run log's running ``final_output``
replays exactly. Errors replay as ``RecordedError`` (type name and message).

The promise: the v1/v2 events of a replay, and its run log's state after every patch,
in JSON form, equal those of the live effects in JSON form (a replay knows an object
only as JSON, so it may patch an object total whole where the live log diffs it).

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted
>>> line = Recorder().feed(RunStarted(RunInfo(UUID(int=1), (), "echo", "chain", (), {}), "hi", 1.5))
>>> line
'{"kind":"start","at":1.5,"run":{"id":"00000000-0000-0000-0000-000000000001","parent_ids":[],"name":"echo","type":"chain","tags":[],"metadata":{}},"input":{"json":"hi"}}\\n'
>>> next(replay([line])).input
'hi'
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from typing import Final, final
from uuid import UUID

from effects.projections.filters import expect_effect
from effects.projections.jsonable import JsonValue, to_jsonable
from effects.projections.replayed import Replayed
from effects.projections.shapes import add_chunk, as_dict, token_text
from effects.effect_values import (
    NOTHING,
    NO_PARAMS,
    CustomEmitted,
    Effect,
    RunEnded,
    RunFailed,
    RunInfo,
    RunStarted,
    RunStreamed,
)

_PLAIN_TYPES: Final = (dict, list, str, int, float, bool, type(None))


@final
class RecordedError(Exception):
    """A recorded run error: the original's type name and message.

    >>> error = RecordedError("ValueError", "boom")
    >>> str(error), error.__jsonable__()
    ('boom', {'type': 'error', 'error_type': 'ValueError', 'message': 'boom'})
    """

    def __init__(self, error_type: str, message: str) -> None:
        super().__init__(error_type, message)
        self.error_type = error_type
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __jsonable__(self) -> JsonValue:
        """The same JSON form as the live error had.

        >>> RecordedError("KeyError", "'k'").__jsonable__()["error_type"]
        'KeyError'
        """
        return {"type": "error", "error_type": self.error_type, "message": self.message}


def _is_plain(value: object, encoded: JsonValue) -> bool:
    """Whether ``value`` already is its JSON form (so replaying the JSON changes nothing)."""
    if type(value) not in _PLAIN_TYPES:
        return False
    try:
        return bool(value == encoded)
    except Exception:  # an odd __eq__ deep inside: keep the facts, to be safe
        return False


def _payload(value: object) -> dict[str, JsonValue]:
    if value is NOTHING:
        return {"no_input": True}
    encoded = to_jsonable(value)
    if _is_plain(value, encoded):
        return {"json": encoded}
    return _object_payload(value, encoded)


def _object_payload(value: object, encoded: JsonValue) -> dict[str, JsonValue]:
    return {"json": encoded, "text": token_text(value), "dict": as_dict(value) is not None}


def _run_json(run: RunInfo) -> dict[str, JsonValue]:
    return {
        "id": str(run.run_id),
        "parent_ids": [str(parent) for parent in run.parent_ids],
        "name": run.name,
        "type": run.run_type,
        "tags": list(run.tags),
        "metadata": to_jsonable(run.metadata),
        **({"params": to_jsonable(run.params)} if run.params else {}),
        **({"whole_output": True} if run.whole_output else {}),
    }


@final
class _RootTotal:
    """A root's running sum of chunks, as the run log computes it."""

    __slots__ = ("total", "plain")

    def __init__(self) -> None:
        self.total: object = None
        self.plain = True  # the replayed total is plain JSON that adds up like the live one


@final
class Recorder:
    """Records effects: ``feed`` one effect, get its line (ending with ``\\n``).

    >>> Recorder().feed("x")
    Traceback (most recent call last):
    ...
    TypeError: Recorder.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got str
    """

    __slots__ = ("_roots",)

    def __init__(self) -> None:
        self._roots: dict[UUID, _RootTotal] = {}

    def feed(self, effect: Effect) -> str:
        """The recording line for one effect.

        >>> from uuid import UUID
        >>> from effects.effect_values import RunInfo, RunFailed
        >>> run = RunInfo(UUID(int=1), (), "r", "chain", (), {})
        >>> Recorder().feed(RunFailed(run, 1, KeyError("k"), 2.0)).endswith('"error":{"type":"error","error_type":"KeyError","message":"\\'k\\'"}}\\n')
        True
        """
        expect_effect("Recorder.feed", effect)
        if not math.isfinite(effect.at):
            raise ValueError(f"effect time must be a finite number of seconds, got {effect.at!r}")
        line: dict[str, JsonValue] = {"kind": "", "at": effect.at, "run": _run_json(effect.run)}
        if isinstance(effect, RunStarted):
            line["kind"] = "start"
            line["input"] = _payload(effect.input)
            if not effect.run.parent_ids:
                self._roots[effect.run.run_id] = _RootTotal()
        elif isinstance(effect, RunStreamed):
            line["kind"] = "stream"
            line["chunk"] = self._chunk(effect)
        elif isinstance(effect, RunEnded):
            line["kind"] = "end"
            line["input"] = _payload(effect.input)
            line["output"] = _payload(effect.output)
            self._roots.pop(effect.run.run_id, None)
        elif isinstance(effect, RunFailed):
            line["kind"] = "error"
            line["input"] = _payload(effect.input)
            line["error"] = to_jsonable(effect.error)
            if effect.tool_call_id is not None:
                line["tool_call_id"] = effect.tool_call_id
            self._roots.pop(effect.run.run_id, None)
        else:
            line["kind"] = "custom"
            line["name"] = effect.name
            line["data"] = _payload(effect.data)
        return json.dumps(line, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"

    def _chunk(self, effect: RunStreamed) -> dict[str, JsonValue]:
        chunk = effect.chunk
        root = self._roots.get(effect.run.run_id)
        if root is None:
            return _payload(chunk)
        encoded = to_jsonable(chunk)
        chunk_plain = _is_plain(chunk, encoded)
        had_total = root.total is not None
        total, added = add_chunk(root.total, chunk)
        root.total = total
        if not had_total:
            root.plain = chunk_plain
            return {"json": encoded} if chunk_plain else _object_payload(chunk, encoded)
        if (root.plain and chunk_plain) or (chunk is None and not added):
            # Replayed as is, these add up (or start over at None) as they did live.
            return {"json": encoded}
        # Replay cannot redo this `+` from JSON forms, so keep what it gave.
        root.plain = False
        payload = _object_payload(chunk, encoded)
        payload["added"] = added
        payload["total"] = to_jsonable(total) if added else None
        return payload


def record(effects: Iterable[Effect]) -> Iterator[str]:
    """The recording lines of a sequence of effects, lazily.

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted, RunEnded
    >>> run = RunInfo(UUID(int=1), (), "r", "chain", (), {})
    >>> [line[:16] for line in record([RunStarted(run, 1, 0.0), RunEnded(run, 1, 2, 1.0)])]
    ['{"kind":"start",', '{"kind":"end","a']
    """
    recorder = Recorder()
    for effect in effects:
        yield recorder.feed(effect)


def replay(lines: Iterable[str]) -> Iterator[Effect]:
    """The effects of a recording (blank lines are skipped); ``ValueError`` on a bad line.

    >>> list(replay(['{"kind": "begin"}']))
    Traceback (most recent call last):
    ...
    ValueError: recording line 1: 'kind' must be one of start, stream, end, error, custom; got 'begin'
    """
    runs: dict[str, tuple[JsonValue, RunInfo]] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record_ = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"recording line {number} is not JSON: {error}") from error
        yield _Line(record_, number, runs).effect()


@final
class _Line:
    """One parsed recording line, read with errors that name the line and the field."""

    __slots__ = ("_record", "_number", "_runs")

    def __init__(self, record: object, number: int, runs: dict[str, tuple[JsonValue, RunInfo]]) -> None:
        if not isinstance(record, dict):
            raise ValueError(f"recording line {number} must be a JSON object")
        self._record: dict[str, JsonValue] = record
        self._number = number
        self._runs = runs

    def _bad(self, message: str) -> ValueError:
        return ValueError(f"recording line {self._number}: {message}")

    def _get(self, key: str) -> JsonValue:
        if key not in self._record:
            raise self._bad(f"missing {key!r}")
        return self._record[key]

    def _str(self, owner: dict[str, JsonValue], key: str) -> str:
        value = owner.get(key)
        if not isinstance(value, str):
            raise self._bad(f"{key!r} must be a str, got {type(value).__name__}")
        return value

    def _strs(self, owner: dict[str, JsonValue], key: str) -> list[str]:
        value = owner.get(key)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self._bad(f"{key!r} must be a list of str")
        return [item for item in value if isinstance(item, str)]

    def _uuid(self, text: str) -> UUID:
        try:
            return UUID(text)
        except ValueError as error:
            raise self._bad(f"{text!r} is not a run id") from error

    def effect(self) -> Effect:
        kind = self._get("kind")
        if kind not in ("start", "stream", "end", "error", "custom"):
            raise self._bad(f"'kind' must be one of start, stream, end, error, custom; got {kind!r}")
        at = self._get("at")
        if isinstance(at, bool) or not isinstance(at, int | float):
            raise self._bad(f"'at' must be a number, got {type(at).__name__}")
        run = self._run()
        if kind == "start":
            return RunStarted(run, self._value("input"), float(at))
        if kind == "stream":
            return RunStreamed(run, self._value("chunk"), float(at))
        if kind == "end":
            return RunEnded(run, self._value("input"), self._value("output"), float(at))
        if kind == "error":
            call_id = self._record.get("tool_call_id")
            if call_id is not None and not isinstance(call_id, str):
                raise self._bad(f"'tool_call_id' must be a str, got {type(call_id).__name__}")
            return RunFailed(run, self._value("input"), self._error(), float(at), tool_call_id=call_id)
        return CustomEmitted(run, self._str(self._record, "name"), self._value("data"), float(at))

    def _run(self) -> RunInfo:
        shown = self._get("run")
        if not isinstance(shown, dict):
            raise self._bad("'run' must be an object")
        run_id = self._str(shown, "id")
        known = self._runs.get(run_id)
        if known is not None and known[0] == shown:
            return known[1]  # every effect of a run shares one RunInfo, as live
        run_uuid = self._uuid(run_id)
        metadata = shown.get("metadata")
        if not isinstance(metadata, dict):
            raise self._bad("'metadata' must be an object")
        params = shown.get("params", {})
        if not isinstance(params, dict):
            raise self._bad("'params' must be an object")
        whole_output = shown.get("whole_output", False)
        if not isinstance(whole_output, bool):
            raise self._bad("'whole_output' must be a boolean")
        run = RunInfo(
            run_uuid,
            tuple(self._uuid(parent) for parent in self._strs(shown, "parent_ids")),
            self._str(shown, "name"),
            self._str(shown, "type"),
            tuple(self._strs(shown, "tags")),
            metadata,
            params or NO_PARAMS,
            whole_output,
        )
        self._runs[run_id] = (shown, run)
        return run

    def _value(self, key: str) -> object:
        payload = self._get(key)
        if not isinstance(payload, dict):
            raise self._bad(f"{key!r} must be a payload object")
        if payload.get("no_input") is True:
            return NOTHING
        if "json" not in payload:
            raise self._bad(f"{key!r} payload has no 'json'")
        encoded = payload["json"]
        if "text" not in payload:
            return encoded
        text = self._str(payload, "text")
        was_dict = payload.get("dict") is True
        added = payload.get("added")
        if added is not None and not isinstance(added, bool):
            raise self._bad(f"{key!r} payload 'added' must be true, false or absent")
        return Replayed(encoded, text, was_dict, added, payload.get("total"))

    def _error(self) -> RecordedError:
        shown = self._get("error")
        if not isinstance(shown, dict):
            raise self._bad("'error' must be an object")
        return RecordedError(self._str(shown, "error_type"), self._str(shown, "message"))
