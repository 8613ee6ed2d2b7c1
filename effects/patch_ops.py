"""The ops of a run log's patches: RFC 6902 operations as TypedDicts tagged by ``"op"``.

Every op has a ``str`` ``"path"``; comparing ``op["op"]`` narrows to the op's own keys. A
``value`` is the run's value as it is (a chunk, an output), as in the peer's log;
``to_jsonable`` gives an op's JSON form:

>>> def added_paths(ops: list[PatchOp]) -> list[str]:
...     return [op["path"] for op in ops if op["op"] == "add" and op["value"] is not None]
>>> added_paths([AddOp(op="add", path="/a", value=1), RemoveOp(op="remove", path="/b")])
['/a']
>>> ReplaceOp(op="replace", path="/a", value=2), CheckOp(op="test", path="/a", value=2)
({'op': 'replace', 'path': '/a', 'value': 2}, {'op': 'test', 'path': '/a', 'value': 2})
>>> MoveOp({"op": "move", "path": "/b", "from": "/a"}), CopyOp({"op": "copy", "path": "/c", "from": "/a"})
({'op': 'move', 'path': '/b', 'from': '/a'}, {'op': 'copy', 'path': '/c', 'from': '/a'})
"""

from __future__ import annotations

from typing import Literal, TypeAlias, TypedDict


class AddOp(TypedDict):
    """Add ``value`` at ``path`` (``.../-`` appends to a list)."""

    op: Literal["add"]
    path: str
    value: object


class RemoveOp(TypedDict):
    """Remove what is at ``path``."""

    op: Literal["remove"]
    path: str


class ReplaceOp(TypedDict):
    """Replace what is at ``path`` with ``value``."""

    op: Literal["replace"]
    path: str
    value: object


class CheckOp(TypedDict):
    """Check that ``path`` holds ``value`` (the RFC's ``test`` op: a name starting with
    ``Test`` would make pytest take it for a test class)."""

    op: Literal["test"]
    path: str
    value: object


# "from" is a keyword: these two are spelled in the functional form.
MoveOp = TypedDict("MoveOp", {"op": Literal["move"], "path": str, "from": str})
"""Move what is at ``from`` to ``path``."""

CopyOp = TypedDict("CopyOp", {"op": Literal["copy"], "path": str, "from": str})
"""Copy what is at ``from`` to ``path``."""

PatchOp: TypeAlias = AddOp | RemoveOp | ReplaceOp | MoveOp | CopyOp | CheckOp
"""One RFC 6902 operation, e.g. ``{"op": "add", "path": "/a", "value": 1}``."""

__all__ = ["AddOp", "CopyOp", "MoveOp", "PatchOp", "RemoveOp", "ReplaceOp", "CheckOp"]
