"""Effects -> ``astream_log`` patches: ``RunLogPatch``, ``RunLog`` and the fold that makes them.

The log is a JSON document built from ``None`` by RFC 6902 patches. The first patch
replaces the root with ``{"id", "streamed_output": [], "final_output": None, "logs": {},
"name", "type"}``. Each root chunk adds ``/streamed_output/-`` (unless
``with_streamed_output_list=False``) plus the diff of ``/final_output``, the running
``+`` of the chunks (a chunk that cannot be added starts over). Each shown sub-run gets
``/logs/<name>`` (``name:2``, ``name:3``... for repeats, in start order) holding
``{id, name, type, tags, metadata, start_time, streamed_output: [],
streamed_output_str: [], final_output: None, end_time: None}``; its chunks add to
``streamed_output`` (models also add their token text to ``streamed_output_str``), and
its end adds ``final_output`` (shaped per run type, see ``shapes``) and ``end_time``.
Chat models have type ``llm`` in the log, and filters match that type. The root is
always in the log; filters only choose the sub-runs.

Values enter the log as themselves, as in the peer: ``streamed_output`` and
``final_output`` hold the chunks and their total (an ``AIMessageChunk``, say), and an
object in ``final_output`` is replaced whole when it changes (dicts and lists are diffed
item by item). Only the log's JSON form, ``to_jsonable(patch)`` or ``to_jsonable(state)``,
is JSON; it is what goes over the wire and into recordings, and a log rebuilt from a
recording reaches the live one's states in that form. Mutable containers are copied into the
ops, so a consumer that changes what it got changes nothing else.

Better than the peer: names are escaped in JSON pointers (``a/b`` -> ``/logs/a~1b``),
and ``move`` ops of a ``final_output`` diff get their ``from`` prefixed too.

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted, RunStreamed
>>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
>>> fold = RunLogPatches()
>>> log = fold.feed(RunStarted(root, "hi", 0.0))[0] + fold.feed(RunStreamed(root, "hi", 0.1))[0]
>>> log.state["final_output"], log.state["streamed_output"]
('hi', ['hi'])
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator
from typing import cast, final
from uuid import UUID

import jsonpatch

from effects.projections.filters import expect_effect, expect_filter
from effects.projections.filters import NO_FILTER, EventFilter
from effects.projections.jsonable import to_jsonable
from effects.projections.log_values import LogState as LogState
from effects.projections.log_values import PatchOp as PatchOp
from effects.projections.log_values import RunLog as RunLog
from effects.projections.log_values import RunLogPatch as RunLogPatch
from effects.projections.log_values import apply_ops as apply_ops
from effects.projections.log_values import owned
from effects.projections.pointers import escape_key
from effects.projections.replayed import Replayed
from effects.projections.shapes import (
    MODEL_TYPES,
    add_chunk,
    log_failed_output,
    log_final_output,
    log_type,
    token_text,
)
from effects.effect_values import Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed


def _iso(at: float) -> str:
    try:
        moment = dt.datetime.fromtimestamp(at, tz=dt.UTC)
    except (OverflowError, OSError, ValueError) as error:
        raise ValueError(f"effect time must be seconds since the epoch, got {at!r}") from error
    return moment.isoformat(timespec="milliseconds")


@final
class _Entry:
    __slots__ = ("path", "run_type", "streamed", "streamed_path", "str_path")

    def __init__(self, path: str, run_type: str) -> None:
        self.path = path
        self.run_type = run_type
        self.streamed = False
        # Made once: every chunk of the run adds at these paths.
        self.streamed_path = f"{path}/streamed_output/-"
        self.str_path = f"{path}/streamed_output_str/-"


@final
class RunLogPatches:
    """The run-log projection as a fold: ``feed`` one effect, get its patches.

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted
    >>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> RunLogPatches().feed(RunStarted(root, "hi", 0.0))[0].ops[0]["path"]
    ''
    """

    __slots__ = ("_filter", "_with_list", "_root", "_total", "_entries", "_counts")

    def __init__(self, filter: EventFilter = NO_FILTER, *, with_streamed_output_list: bool = True) -> None:
        expect_filter("RunLogPatches filter", filter)
        self._filter = filter
        self._with_list = with_streamed_output_list
        self._root: UUID | None = None
        self._total: object = None
        # Keyed by the run id's int: UUID's own hash and == are Python code, run per chunk.
        self._entries: dict[int, _Entry] = {}
        self._counts: dict[str, int] = {}

    def feed(self, effect: Effect) -> list[RunLogPatch]:
        """The patches for one effect (root ends, custom events and hidden runs give none).

        >>> RunLogPatches().feed(3)
        Traceback (most recent call last):
        ...
        TypeError: RunLogPatches.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got int
        """
        if type(effect) is RunStreamed:  # the hot path: one per chunk per run
            entry = self._entries.get(effect.run.run_id.int)
            if entry is not None:
                return self._sub_run_chunk(entry, effect.chunk)
            if self._root is not None and effect.run.run_id.int == self._root.int:
                return [self._root_chunk(effect.chunk)]
            return []  # a hidden run
        expect_effect("RunLogPatches.feed", effect)
        if isinstance(effect, RunStarted):
            return self._started(effect.run, effect.at)
        if isinstance(effect, RunEnded | RunFailed):
            return self._finished(effect)
        return []  # custom events are not in the log

    def _started(self, run: RunInfo, at: float) -> list[RunLogPatch]:
        if self._root is None:
            self._root = run.run_id
            state: dict[str, object] = {
                "id": str(run.run_id),
                "streamed_output": [],
                "final_output": None,
                "logs": {},
                "name": run.name,
                "type": log_type(run.run_type),
            }
            return [RunLogPatch.of_json_ops([{"op": "replace", "path": "", "value": state}])]
        shown_type = log_type(run.run_type)
        if run.run_id == self._root or not self._filter.includes(run.name, shown_type, run.tags):
            return []
        count = self._counts.get(run.name, 0) + 1
        self._counts[run.name] = count
        key = run.name if count == 1 else f"{run.name}:{count}"
        path = f"/logs/{escape_key(key)}"
        self._entries[run.run_id.int] = _Entry(path, run.run_type)
        entry: dict[str, object] = {
            "id": str(run.run_id),
            "name": run.name,
            "type": shown_type,
            "tags": list(run.tags),
            "metadata": owned(dict(run.metadata)),
            "start_time": _iso(at),
            "streamed_output": [],
            "streamed_output_str": [],
            "final_output": None,
            "end_time": None,
        }
        return [RunLogPatch.of_json_ops([{"op": "add", "path": path, "value": entry}])]

    def _root_chunk(self, chunk: object) -> RunLogPatch:
        ops: list[PatchOp] = []
        if self._with_list:
            ops.append({"op": "add", "path": "/streamed_output/-", "value": owned(chunk)})
        total, added = add_chunk(self._total, chunk)
        previous = self._total if added else None
        if _is_container(previous) and _is_container(total):
            diff: list[dict[str, object]] = jsonpatch.JsonPatch.from_diff(previous, total, dumps=_json_text).patch
            ops.extend(_prefixed(op) for op in diff)
        elif _differ(previous, total):
            ops.append({"op": "replace", "path": "/final_output", "value": owned(total)})
        self._total = total
        return RunLogPatch.of_json_ops(ops)

    def _sub_run_chunk(self, entry: _Entry, chunk: object) -> list[RunLogPatch]:
        entry.streamed = True
        if entry.run_type in MODEL_TYPES:
            text = token_text(chunk)
            # An llm's log keeps its tokens; a chat model's keeps the message chunks.
            shown = text if entry.run_type == "llm" else owned(chunk)
            return [
                RunLogPatch.of_json_ops(
                    [
                        {"op": "add", "path": entry.str_path, "value": text},
                        {"op": "add", "path": entry.streamed_path, "value": shown},
                    ]
                )
            ]
        return [RunLogPatch.of_json_ops([{"op": "add", "path": entry.streamed_path, "value": owned(chunk)}])]

    def _finished(self, effect: RunEnded | RunFailed) -> list[RunLogPatch]:
        entry = self._entries.pop(effect.run.run_id.int, None)
        if entry is None:
            return []  # the root (the peer's log just closes) or a hidden run
        if isinstance(effect, RunEnded):
            output = log_final_output(entry.run_type, effect.output, streamed=entry.streamed)
        else:
            output = log_failed_output(entry.run_type)
        return [
            RunLogPatch.of_json_ops(
                [
                    {"op": "add", "path": f"{entry.path}/final_output", "value": owned(output)},
                    {"op": "add", "path": f"{entry.path}/end_time", "value": _iso(effect.at)},
                ]
            )
        ]


def _is_container(value: object) -> bool:
    # Dicts and lists are diffed item by item (the peer's rule); anything else is a value.
    return isinstance(value, dict | list)


def _json_text(value: object) -> str:
    return json.dumps(to_jsonable(value), sort_keys=True)


def _differ(previous: object, current: object) -> bool:
    """Whether the total changed: by equality, and by JSON form where equality says
    nothing (a value equal to a different one, like ``1`` and ``True``)."""
    if type(previous) is not type(current):
        return True
    if type(current) is str:
        return previous != current
    if isinstance(previous, Replayed) and isinstance(current, Replayed):
        return previous.json != current.json  # a replay's facts besides the JSON say nothing here
    try:
        if previous != current:
            return True
    except Exception:  # an equality that raises: compare the JSON forms
        pass
    return _json_text(previous) != _json_text(current)


def _prefixed(op: dict[str, object]) -> PatchOp:
    out: dict[str, object] = {}
    for key, value in op.items():
        if key in ("path", "from") and isinstance(value, str):
            out[key] = "/final_output" + value
        else:
            # The fold keeps the total for the next diff; consumers get their own copy.
            out[key] = owned(value)
    return cast("PatchOp", out)  # jsonpatch's diff makes well-formed ops


@final
class RunLogStates:
    """The ``diff=False`` projection: the accumulated ``RunLog`` after every patch.

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted
    >>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> RunLogStates().feed(RunStarted(root, "hi", 0.0))[0].state["name"]
    'echo'
    """

    __slots__ = ("_patches", "_log")

    def __init__(self, filter: EventFilter = NO_FILTER, *, with_streamed_output_list: bool = True) -> None:
        self._patches = RunLogPatches(filter, with_streamed_output_list=with_streamed_output_list)
        self._log = RunLog.of_json((), None)

    def feed(self, effect: Effect) -> list[RunLog]:
        """The logs after each patch this effect gives.

        >>> RunLogStates().feed("x")
        Traceback (most recent call last):
        ...
        TypeError: RunLogPatches.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got str
        """
        out: list[RunLog] = []
        for patch in self._patches.feed(effect):
            self._log = self._log + patch
            out.append(self._log)
        return out


def run_log_patches(
    effects: Iterable[Effect],
    filter: EventFilter = NO_FILTER,
    *,
    with_streamed_output_list: bool = True,
) -> Iterator[RunLogPatch]:
    """The patches of a sequence of effects, lazily (``astream_log(diff=True)``).

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted, RunStreamed
    >>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> patches = run_log_patches([RunStarted(root, 1, 0.0), RunStreamed(root, 2, 0.1)])
    >>> [op["path"] for p in patches for op in p.ops]
    ['', '/streamed_output/-', '/final_output']
    """
    fold = RunLogPatches(filter, with_streamed_output_list=with_streamed_output_list)
    for effect in effects:
        yield from fold.feed(effect)


def run_logs(
    effects: Iterable[Effect],
    filter: EventFilter = NO_FILTER,
    *,
    with_streamed_output_list: bool = True,
) -> Iterator[RunLog]:
    """The accumulated logs of a sequence of effects (``astream_log(diff=False)``).

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted, RunStreamed
    >>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> [log.state for log in run_logs([RunStarted(root, 1, 0.0), RunStreamed(root, 2, 0.1)])][-1]
    {'id': '00000000-0000-0000-0000-000000000001', 'streamed_output': [2], 'final_output': 2, 'logs': {}, 'name': 'echo', 'type': 'chain'}
    """
    fold = RunLogStates(filter, with_streamed_output_list=with_streamed_output_list)
    for effect in effects:
        yield from fold.feed(effect)
