"""JSON pointers (RFC 6901) for the run log: escaping keys, and copying along a path.

>>> escape_key("a/b~c")
'a~1b~0c'
>>> pointer_parts("/logs/a~1b/streamed_output/-")
['logs', 'a/b', 'streamed_output', '-']
"""

from __future__ import annotations


from effects.guards import is_dict, is_list


def pointer_parts(pointer: str) -> list[str]:
    """The unescaped reference tokens of a JSON pointer (``""`` is the whole document).

    >>> pointer_parts("")
    []
    """
    if not pointer:
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]


def escape_key(key: str) -> str:
    """``key`` as one JSON-pointer token (``~`` -> ``~0``, ``/`` -> ``~1``).

    >>> escape_key("name:2")
    'name:2'
    """
    return key.replace("~", "~0").replace("/", "~1")


def _shallow_copy(value: object) -> object:
    if is_dict(value):
        return dict(value)
    if is_list(value):
        return list(value)
    return value


def own_path(doc: object, pointer: str) -> object:
    """``doc`` with fresh copies of the containers from the root down to the target's parent.

    An in-place patch op on the result then changes nothing that ``doc`` shares with
    anyone; containers off the path stay shared. A path that does not exist is copied as
    far as it goes (applying the op will report it).

    >>> doc = {"a": {"b": [1]}, "c": {}}
    >>> mine = own_path(doc, "/a/b/-")
    >>> mine["a"]["b"] is doc["a"]["b"], mine["c"] is doc["c"]
    (False, True)
    """
    parts = pointer_parts(pointer)
    if not parts:
        return doc
    root = _shallow_copy(doc)
    parent = root
    for part in parts[:-1]:
        if is_dict(parent):
            if part not in parent:
                break
            child = _shallow_copy(parent[part])
            parent[part] = child
        elif is_list(parent):
            if not part.isdigit() or int(part) >= len(parent):
                break
            child = _shallow_copy(parent[int(part)])
            parent[int(part)] = child
        else:
            break
        parent = child
    return root
