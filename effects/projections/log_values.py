"""The run log's values: ``RunLogPatch`` (JSON-patch ops), ``RunLog`` (the ops so far and
the state they build) and ``apply_ops``; the fold that makes them is ``run_log``.

Ops hold the run's values as they are (an ``AIMessageChunk``, say), as the peer's do;
``to_jsonable(patch)`` is their JSON form. Dicts and lists are copied into an op, and
applying ops copies only the containers on their paths, so nobody's changes reach
anyone else's log.

>>> patch = RunLogPatch({"op": "replace", "path": "", "value": {"a": [1]}})
>>> (patch + RunLogPatch({"op": "add", "path": "/a/-", "value": 2})).state
{'a': [1, 2]}
"""

from __future__ import annotations

import copy
import pprint
from collections.abc import Mapping, Sequence
from typing import Final, TypeAlias, cast, final

import attrs
import jsonpatch

from effects._fast import NEW, slot_setters
from effects.guards import is_dict, is_list, is_mapping
from effects.patch_ops import PatchOp as PatchOp
from effects.projections.pointers import own_path, pointer_parts

LogState: TypeAlias = object
"""A run log's state: JSON-shaped dicts and lists holding the run's values."""

_OP_KINDS: Final = ("add", "remove", "replace", "move", "copy", "test")


def _checked_op(op: object, where: str) -> PatchOp:
    if not is_mapping(op):
        raise TypeError(
            f"{where} must be a dict like {{'op': 'add', 'path': '/a', 'value': 1}}, got {type(op).__name__}"
        )
    encoded: dict[str, object] = {str(k): v for k, v in op.items()}
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
        patch: RunLogPatch = NEW(RunLogPatch)
        _SET_PATCH_OPS(patch, tuple(ops))
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
    state: LogState

    def __init__(self, *ops: Mapping[str, object], state: object) -> None:
        object.__setattr__(self, "ops", _checked_ops(ops, "RunLog"))
        object.__setattr__(self, "state", state)

    @staticmethod
    def of_json(ops: tuple[PatchOp, ...], state: LogState) -> RunLog:
        """A log from ops and a state that are already well-formed (no checks, no copies).

        >>> RunLog.of_json((), {"a": 1}).state
        {'a': 1}
        """
        log: RunLog = NEW(RunLog)
        _SET_LOG_OPS(log, ops)
        _SET_LOG_STATE(log, state)
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


def apply_ops(state: LogState, ops: Sequence[PatchOp]) -> LogState:
    """``state`` with ``ops`` applied, leaving ``state`` and the ops untouched.

    An op that does not fit the state raises ``ValueError``. Only the containers on each
    op's path are copied (the rest is shared, values included), so applying a patch
    costs the size of the path, not of the whole document.

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
            if op["op"] == "add" or op["op"] == "replace":
                # The value goes in as it is (jsonpatch would deep-copy it): chunks are values.
                doc = _put(doc, pointer_parts(op["path"]), owned(op["value"]), replace=op["op"] == "replace")
            else:
                doc = jsonpatch.apply_patch(doc, [op], in_place=True)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, LookupError) as error:
            raise ValueError(f"cannot apply {op!r} to the run log: {error}") from error
    return doc


def _put(doc: object, parts: Sequence[str], value: object, *, replace: bool) -> object:
    if not parts:
        return value
    parent = doc
    for part in parts[:-1]:
        parent = _child(parent, part)
    last = parts[-1]
    if is_dict(parent):
        if replace and last not in parent:
            raise LookupError(f"member {last!r} not found")
        parent[last] = value
    elif is_list(parent):
        items = parent
        if last == "-" and not replace:
            items.append(value)
            return doc
        index = _index(items, last, allow_end=not replace)
        if replace:
            items[index] = value
        else:
            items.insert(index, value)
    else:
        raise LookupError(f"cannot set {last!r} inside a {type(parent).__name__}")
    return doc


def _child(parent: object, part: str) -> object:
    if is_dict(parent):
        if part not in parent:
            raise LookupError(f"member {part!r} not found")
        return parent[part]
    if is_list(parent):
        return parent[_index(parent, part, allow_end=False)]
    raise LookupError(f"cannot look up {part!r} inside a {type(parent).__name__}")


def _index(items: list[object], part: str, *, allow_end: bool) -> int:
    if not part.isdigit() or (part != "0" and part.startswith("0")):
        raise LookupError(f"{part!r} is not an array index")
    index = int(part)
    if index > len(items) or (index == len(items) and not allow_end):
        raise LookupError(f"index {index} is out of range")
    return index


def owned(value: object) -> object:
    """``value`` for an op: its dicts and lists copied (the fold and every consumer keep
    their own), the values in them shared (chunks are values, as in the peer's log).

    Copied without recursion (a value nested thousands deep is copied like any other);
    a container met twice is copied once, so shared parts and cycles stay so.

    >>> chunk = {"a": [1]}
    >>> owned(chunk) == chunk, owned(chunk)["a"] is chunk["a"], owned("x")
    (True, False, 'x')
    """
    if type(value) is str or not _container(value):  # nothing to copy
        return value
    copies: dict[int, object] = {}
    root = _copied(value, copies)
    stack = [root]
    while stack:
        container = stack.pop()
        if is_dict(container):
            for key, item in container.items():
                if _container(item):
                    container[key] = _own_child(item, copies, stack)
        elif is_list(container):
            for index, item in enumerate(container):
                if _container(item):
                    container[index] = _own_child(item, copies, stack)
    return root


def _container(value: object) -> bool:
    return isinstance(value, dict | list)


def _copied(value: object, copies: dict[int, object]) -> object:
    copied = copy.copy(value)  # keeps a dict's or a list's class
    copies[id(value)] = copied
    return copied


def _own_child(item: object, copies: dict[int, object], stack: list[object]) -> object:
    known = copies.get(id(item))
    if known is not None:
        return known
    copied = _copied(item, copies)
    stack.append(copied)
    return copied


# Patches and logs the projections build from ops they made themselves: no checks, no
# copies (the checked constructors above are for users' ops).
(_SET_PATCH_OPS,) = slot_setters(RunLogPatch, ("ops",), "effects.projections.log_values")
_SET_LOG_OPS, _SET_LOG_STATE = slot_setters(RunLog, ("ops", "state"), "effects.projections.log_values")
