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

Choice: values enter the log in their JSON form (``jsonable.to_jsonable``), where the
peer keeps the objects themselves. So the state is plain JSON data, patches serialize
as they are, and a log rebuilt from a recording equals the live one. It also means an
object in ``final_output`` is diffed field by field (the peer replaces it whole).

Better than the peer: names are escaped in JSON pointers (``a/b`` -> ``/logs/a~1b``),
and ``move`` ops of a ``final_output`` diff get their ``from`` prefixed too.

>>> from uuid import UUID
>>> from effects.values import RunInfo, RunStarted, RunStreamed
>>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
>>> fold = RunLogPatches()
>>> log = fold.feed(RunStarted(root, "hi", 0.0))[0] + fold.feed(RunStreamed(root, "hi", 0.1))[0]
>>> log.state["final_output"], log.state["streamed_output"]
('hi', ['hi'])
"""

from __future__ import annotations

import datetime as dt
import json
import pprint
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Final, cast, final
from uuid import UUID

import attrs
import jsonpatch

from effects.projections.argument_checks import expect_effect, expect_filter
from effects.projections.filters import NO_FILTER, EventFilter
from effects.projections.jsonable import JsonValue, to_jsonable
from effects.projections.pointers import escape_key, json_copy, own_path
from effects.projections.shapes import (
    MODEL_TYPES,
    add_chunk,
    log_failed_output,
    log_final_output,
    log_type,
    token_text,
)
from effects.values import Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed
from effects.patch_ops import PatchOp as PatchOp
from effects.guards import is_mapping


_OP_KINDS: Final = ("add", "remove", "replace", "move", "copy", "test")


def _checked_op(op: object, where: str) -> PatchOp:
    if not is_mapping(op):
        raise TypeError(
            f"{where} must be a dict like {{'op': 'add', 'path': '/a', 'value': 1}},"
            f" got {type(op).__name__}"
        )
    encoded = to_jsonable(op)
    assert isinstance(encoded, dict)  # the JSON form of a mapping is a dict
    kind = encoded.get("op")
    if kind not in _OP_KINDS:
        raise ValueError(f"{where} has op {kind!r}; expected one of {', '.join(_OP_KINDS)}")
    for key in ("path", "from") if kind in ("move", "copy") else ("path",):
        if not isinstance(encoded.get(key), str):
            raise ValueError(f"{where} ({kind}) needs a str {key!r} JSON pointer")
    if kind in ("add", "replace", "test") and "value" not in encoded:
        raise ValueError(f"{where} ({kind}) needs a 'value'")
    return cast("PatchOp", encoded)  # the keys its op needs, checked above


def _checked_ops(ops: Sequence[object], owner: str) -> tuple[PatchOp, ...]:
    return tuple(_checked_op(op, f"{owner} op #{index}") for index, op in enumerate(ops))


@final
@attrs.frozen(init=False, eq=False, repr=False)
class RunLogPatch:
    """A list of JSON-patch ops; adding two patches applies both to ``None``.

    >>> p = RunLogPatch({"op": "replace", "path": "", "value": {"a": 1}})
    >>> p
    RunLogPatch({'op': 'replace', 'path': '', 'value': {'a': 1}})
    >>> (p + RunLogPatch({"op": "add", "path": "/b", "value": 2})).state
    {'a': 1, 'b': 2}
    """

    ops: tuple[PatchOp, ...]

    def __init__(self, *ops: Mapping[str, object]) -> None:
        object.__setattr__(self, "ops", _checked_ops(ops, "RunLogPatch"))

    @staticmethod
    def of_json_ops(ops: Sequence[PatchOp]) -> RunLogPatch:
        """A patch of ops that are already well-formed JSON (no checks, no copies).

        >>> RunLogPatch.of_json_ops([{"op": "remove", "path": "/a"}]).ops
        ({'op': 'remove', 'path': '/a'},)
        """
        patch = object.__new__(RunLogPatch)
        object.__setattr__(patch, "ops", tuple(ops))
        return patch

    def __add__(self, other: RunLogPatch) -> RunLog:
        if type(other) is not RunLogPatch:
            return NotImplemented
        ops = self.ops + other.ops
        return RunLog.of_json(ops, apply_ops(None, ops))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RunLogPatch) and self.ops == other.ops

    __hash__ = None  # type: ignore[assignment]  # equal by value but not immutable inside

    def __repr__(self) -> str:
        return f"RunLogPatch({pprint.pformat(list(self.ops))[1:-1]})"


@final
@attrs.frozen(init=False, eq=False, repr=False)
class RunLog:
    """The ops so far and the state they build; ``RunLog + RunLogPatch`` applies the patch.

    Equal logs have equal states, then equal ops. Treat ``state`` as read-only: logs
    made from one another share the parts a patch did not touch.

    >>> log = RunLog(state=None) + RunLogPatch({"op": "replace", "path": "", "value": [1]})
    >>> log
    RunLog([1])
    >>> log + log
    Traceback (most recent call last):
    ...
    TypeError: unsupported operand type(s) for +: 'RunLog' and 'RunLog'
    """

    ops: tuple[PatchOp, ...]
    state: JsonValue

    def __init__(self, *ops: Mapping[str, object], state: object) -> None:
        object.__setattr__(self, "ops", _checked_ops(ops, "RunLog"))
        object.__setattr__(self, "state", to_jsonable(state))

    @staticmethod
    def of_json(ops: tuple[PatchOp, ...], state: JsonValue) -> RunLog:
        """A log from ops and a state that are already JSON (no checks, no copies).

        >>> RunLog.of_json((), {"a": 1}).state
        {'a': 1}
        """
        log = object.__new__(RunLog)
        object.__setattr__(log, "ops", ops)
        object.__setattr__(log, "state", state)
        return log

    def __add__(self, other: RunLogPatch) -> RunLog:
        if type(other) is not RunLogPatch:
            return NotImplemented
        return RunLog.of_json(self.ops + other.ops, apply_ops(self.state, other.ops))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RunLog) and self.state == other.state and self.ops == other.ops

    __hash__ = None  # type: ignore[assignment]  # equal by value but not immutable inside

    def __repr__(self) -> str:
        return f"RunLog({pprint.pformat(self.state)})"


def apply_ops(state: JsonValue, ops: Sequence[PatchOp]) -> JsonValue:
    """``state`` with ``ops`` applied, leaving ``state`` and the ops untouched.

    An op that does not fit the state raises ``ValueError``. Only the containers on each
    op's path are copied (the rest is shared), so applying a patch costs the size of the
    path, not of the whole document.

    >>> before = {"a": {"b": [1]}, "c": {"d": 2}}
    >>> after = apply_ops(before, [{"op": "add", "path": "/a/b/-", "value": 3}])
    >>> before["a"]["b"], after["a"]["b"], after["c"] is before["c"]
    ([1], [1, 3], True)
    """
    doc: object = state
    for op in ops:
        doc = own_path(doc, op["path"])
        if op["op"] == "move":
            doc = own_path(doc, op["from"])
        try:
            doc = jsonpatch.apply_patch(doc, [op], in_place=True)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as error:
            raise ValueError(f"cannot apply {op!r} to the run log: {error}") from error
    return cast(JsonValue, doc)  # JSON ops applied to a JSON document give JSON


def _iso(at: float) -> str:
    try:
        moment = dt.datetime.fromtimestamp(at, tz=dt.UTC)
    except (OverflowError, OSError, ValueError) as error:
        raise ValueError(f"effect time must be seconds since the epoch, got {at!r}") from error
    return moment.isoformat(timespec="milliseconds")


@final
class _Entry:
    __slots__ = ("path", "run_type", "streamed")

    def __init__(self, path: str, run_type: str) -> None:
        self.path = path
        self.run_type = run_type
        self.streamed = False


@final
class RunLogPatches:
    """The run-log projection as a fold: ``feed`` one effect, get its patches.

    >>> from uuid import UUID
    >>> from effects.values import RunInfo, RunStarted
    >>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> RunLogPatches().feed(RunStarted(root, "hi", 0.0))[0].ops[0]["path"]
    ''
    """

    __slots__ = ("_filter", "_with_list", "_root", "_total", "_total_json", "_entries", "_counts")

    def __init__(
        self, filter: EventFilter = NO_FILTER, *, with_streamed_output_list: bool = True
    ) -> None:
        expect_filter("RunLogPatches filter", filter)
        self._filter = filter
        self._with_list = with_streamed_output_list
        self._root: UUID | None = None
        self._total: object = None
        self._total_json: JsonValue = None
        self._entries: dict[UUID, _Entry] = {}
        self._counts: dict[str, int] = {}

    def feed(self, effect: Effect) -> list[RunLogPatch]:
        """The patches for one effect (root ends, custom events and hidden runs give none).

        >>> RunLogPatches().feed(3)
        Traceback (most recent call last):
        ...
        TypeError: RunLogPatches.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got int
        """
        expect_effect("RunLogPatches.feed", effect)
        if isinstance(effect, RunStarted):
            return self._started(effect.run, effect.at)
        if isinstance(effect, RunStreamed):
            if effect.run.run_id == self._root:
                return [self._root_chunk(effect.chunk)]
            return self._sub_run_chunk(effect)
        if isinstance(effect, RunEnded | RunFailed):
            return self._finished(effect)
        return []  # custom events are not in the log

    def _started(self, run: RunInfo, at: float) -> list[RunLogPatch]:
        if self._root is None:
            self._root = run.run_id
            state: JsonValue = {
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
        self._entries[run.run_id] = _Entry(path, run.run_type)
        entry: JsonValue = {
            "id": str(run.run_id),
            "name": run.name,
            "type": shown_type,
            "tags": list(run.tags),
            "metadata": to_jsonable(run.metadata),
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
            ops.append({"op": "add", "path": "/streamed_output/-", "value": to_jsonable(chunk)})
        total, added = add_chunk(self._total, chunk)
        previous = self._total_json if added else None
        current = to_jsonable(total)
        if isinstance(previous, dict | list) or isinstance(current, dict | list):
            ops.extend(_prefixed(op) for op in jsonpatch.JsonPatch.from_diff(previous, current).patch)
        elif _scalars_differ(previous, current):
            ops.append({"op": "replace", "path": "/final_output", "value": current})
        self._total, self._total_json = total, current
        return RunLogPatch.of_json_ops(ops)

    def _sub_run_chunk(self, effect: RunStreamed) -> list[RunLogPatch]:
        entry = self._entries.get(effect.run.run_id)
        if entry is None:
            return []
        entry.streamed = True
        if entry.run_type in MODEL_TYPES:
            text = token_text(effect.chunk)
            # An llm's log keeps its tokens; a chat model's keeps the message chunks.
            shown = text if entry.run_type == "llm" else to_jsonable(effect.chunk)
            return [
                RunLogPatch.of_json_ops(
                    [
                        {"op": "add", "path": f"{entry.path}/streamed_output_str/-", "value": text},
                        {"op": "add", "path": f"{entry.path}/streamed_output/-", "value": shown},
                    ]
                )
            ]
        value = to_jsonable(effect.chunk)
        return [
            RunLogPatch.of_json_ops(
                [{"op": "add", "path": f"{entry.path}/streamed_output/-", "value": value}]
            )
        ]

    def _finished(self, effect: RunEnded | RunFailed) -> list[RunLogPatch]:
        entry = self._entries.pop(effect.run.run_id, None)
        if entry is None:
            return []  # the root (the peer's log just closes) or a hidden run
        if isinstance(effect, RunEnded):
            output = log_final_output(entry.run_type, effect.output, streamed=entry.streamed)
        else:
            output = log_failed_output(entry.run_type)
        return [
            RunLogPatch.of_json_ops(
                [
                    {"op": "add", "path": f"{entry.path}/final_output", "value": to_jsonable(output)},
                    {"op": "add", "path": f"{entry.path}/end_time", "value": _iso(effect.at)},
                ]
            )
        ]


def _scalars_differ(previous: JsonValue, current: JsonValue) -> bool:
    """jsonpatch's test for two scalars (their JSON differs), without dumping long texts."""
    if type(previous) is str and type(current) is str:
        return previous != current
    return json.dumps(previous) != json.dumps(current)


def _prefixed(op: dict[str, object]) -> PatchOp:
    out: dict[str, JsonValue] = {}
    for key, value in op.items():
        if key in ("path", "from") and isinstance(value, str):
            out[key] = "/final_output" + value
        else:
            # The fold keeps the total's JSON for the next diff; consumers get their own copy.
            out[key] = json_copy(cast(JsonValue, value))
    return cast("PatchOp", out)  # jsonpatch's diff makes well-formed ops


@final
class RunLogStates:
    """The ``diff=False`` projection: the accumulated ``RunLog`` after every patch.

    >>> from uuid import UUID
    >>> from effects.values import RunInfo, RunStarted
    >>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> RunLogStates().feed(RunStarted(root, "hi", 0.0))[0].state["name"]
    'echo'
    """

    __slots__ = ("_patches", "_log")

    def __init__(
        self, filter: EventFilter = NO_FILTER, *, with_streamed_output_list: bool = True
    ) -> None:
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
    >>> from effects.values import RunInfo, RunStarted, RunStreamed
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
    >>> from effects.values import RunInfo, RunStarted, RunStreamed
    >>> root = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> [log.state for log in run_logs([RunStarted(root, 1, 0.0), RunStreamed(root, 2, 0.1)])][-1]
    {'id': '00000000-0000-0000-0000-000000000001', 'streamed_output': [2], 'final_output': 2, 'logs': {}, 'name': 'echo', 'type': 'chain'}
    """
    fold = RunLogStates(filter, with_streamed_output_list=with_streamed_output_list)
    for effect in effects:
        yield from fold.feed(effect)
