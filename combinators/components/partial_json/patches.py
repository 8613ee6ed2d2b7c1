"""JSON Patch operations between two moments of a stream, in time proportional to the change.

``changes(before, after)`` gives the operations ``jsonpatch.make_patch`` gives for the two
values the marks stand for, without building or comparing those values whole: a
stream only grows at its end, so the two values share everything but the path of
open containers. The walk goes down that path while the two agree; where they part
(new entries, a child that appeared or was completed) it compares only that suffix,
the way ``jsonpatch`` would: new members and items are added in order, the one place
that was open is compared (recursing into objects and arrays), scalars that differ are
replaced. What that shortcut cannot know (a key repeated in the text, the text turning
malformed, the fenced text taking over, an item equal to the one it follows) is
handed to ``jsonpatch`` on the smallest part that holds it.

``value_of(mark)`` builds the value a mark stands for (copies of the open containers,
completed values shared). The values in operations are copies.

>>> from combinators.components.partial_json.scanner import Scanner
>>> scanner = Scanner()
>>> scanner.feed('{"a": [1, {"b": "x')
>>> before = scanner.mark()
>>> scanner.feed('yz"}, 2')
>>> changes(before, scanner.mark())
[{'op': 'replace', 'path': '/a/1/b', 'value': 'xyz'}, {'op': 'add', 'path': '/a/2', 'value': 2}]
>>> value_of(scanner.mark())
{'a': [1, {'b': 'xyz'}, 2]}

``same_value(before, after)`` says whether two moments have equal values (``==``) the same
way: only what follows the shared entries differs, so the walk goes down the open path
while the two agree and compares the rest, built from the marks. No value is built whole,
and nothing a consumer holds is compared: entries held by both marks are the same
objects, equal to themselves whatever was done to them (Python's ``==`` takes an object as
equal to itself). Where that shortcut does not hold (a key repeated in the text, another
scanner) both values are built and compared whole.

>>> same_value(before, scanner.mark())
False
>>> scanner = Scanner()
>>> scanner.feed('{"a": [1, {"b": "x')
>>> before = scanner.mark()
>>> scanner.feed('"}')
>>> same_value(before, scanner.mark())
True
"""

from __future__ import annotations

import json
import math
from itertools import islice
from typing import Any, TypeGuard, TypeVar

import jsonpatch

from combinators.components.partial_json.marks import NO_VALUE, JsonContainer, JsonValue, Mark, NoValue, Outcome

Operation = dict[str, object]
_V = TypeVar("_V")


def _escape(part: str | int) -> str:
    if isinstance(part, int):
        return f"/{part}"
    text = part
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return "/" + text


def _is_map(value: object) -> TypeGuard[dict[str, object]]:
    return type(value) is dict


def _is_list(value: object) -> TypeGuard[list[object]]:
    return type(value) is list


def json_copy(value: object) -> Any:
    """A deep copy of JSON data, without recursion (so any depth is fine).

    >>> data = {"a": [1, {"b": []}]}
    >>> copy = json_copy(data)
    >>> copy == data, copy["a"] is data["a"]
    (True, False)
    """
    work: list[tuple[object, dict[str, object] | list[object]]] = []

    def fresh(item: object) -> object:
        made: dict[str, object] | list[object]
        if _is_map(item):
            made = {}
        elif _is_list(item):
            made = []
        else:
            return item
        work.append((item, made))
        return made

    top = fresh(value)
    while work:
        source, target = work.pop()
        if isinstance(target, dict):
            if _is_map(source):
                for key, item in source.items():
                    target[key] = fresh(item)
        elif _is_list(source):
            target.extend(fresh(item) for item in source)
    return top


def value_of(mark: Mark, depth: int = 0) -> Outcome:
    """The value the mark stands for, from its ``depth``-th open container down.

    >>> from combinators.components.partial_json.scanner import Scanner
    >>> scanner = Scanner()
    >>> scanner.feed('[1, [2, "a')
    >>> value_of(scanner.mark()), value_of(scanner.mark(), 1)
    ([1, [2, 'a']], [2, 'a'])
    """
    child: Outcome = mark.leaf
    for container, length, key in reversed(mark.levels[depth:]):
        copy: JsonContainer
        if isinstance(container, list):
            copy = container[:length]
            if not isinstance(child, NoValue):
                copy.append(child)
        else:
            copy = container.copy() if length == len(container) else dict(islice(container.items(), length))
            if key is not None and not isinstance(child, NoValue):
                copy[key] = child
        child = copy
    return child


def _dumped(value: object) -> str:
    # How jsonpatch tells JSON values apart (1, 1.0 and true differ).
    return json.dumps(value)


def _matched_later(item: object, items: list[object], start: int) -> bool:
    """Whether jsonpatch would pair ``item`` (at ``start`` before) with an equal item after
    ``start`` (and not the one at ``start``). Python's ``==`` sorts out the candidates
    first: values equal as JSON are equal in Python (the scanner's NaN is one object)."""
    later = [other for other in items[start + 1 :] if other == item]
    if not later:
        return False
    dumped = _dumped(item)
    return dumped != _dumped(items[start]) and any(_dumped(other) == dumped for other in later)


def _same(before: object, after: object) -> bool:
    """Whether two values are the same JSON, as jsonpatch tells (``1``, ``1.0`` and
    ``true`` differ), without looking inside containers: two different containers
    count as different (the walk goes into them)."""
    if before is after:
        return True
    kind = type(before)
    if kind is not type(after) or kind is dict or kind is list:
        return False
    if isinstance(before, float) and isinstance(after, float):
        first, second = before, after
        if first != first:  # NaN
            return second != second
        return first == second and math.copysign(1.0, first) == math.copysign(1.0, second)
    return before == after


def _whole(prefix: str, before: object, after: object) -> list[Operation]:
    """``jsonpatch``'s operations for two values, placed under ``prefix``."""
    operations: list[Operation] = jsonpatch.make_patch(before, after).patch
    if prefix:
        for operation in operations:
            for member in ("path", "from"):
                if member in operation:
                    operation[member] = prefix + str(operation[member])
    return operations


def _added(prefix: str, part: str | int, value: object) -> Operation:
    return {"op": "add", "path": prefix + _escape(part), "value": json_copy(value)}


def _last_keys(container: dict[str, _V], count: int) -> list[str]:
    keys = list(islice(reversed(container.keys()), count))
    keys.reverse()
    return keys


class _NotGrown(Exception):
    """The second value is not the first one grown (a partial token vanished, say)."""


def _grown(prefix: str, before: object, after: object) -> list[Operation]:
    """The operations from ``before`` to ``after``, a value it grew into (only its last
    member or item may differ, new ones follow it); ``_NotGrown`` if it is not that."""
    operations: list[Operation] = []
    appended: list[list[Operation]] = []  # items added to arrays, which follow what is inside
    while not _same(before, after):
        if _is_map(before) and _is_map(after) and len(after) >= len(before):
            old_map, new_map = before, after
            added = _last_keys(new_map, len(new_map) - len(old_map))
            operations += [_added(prefix, key, new_map[key]) for key in added]
            if not old_map:
                break
            last = next(reversed(old_map.keys()))
            if last not in new_map or last in added:
                raise _NotGrown
            prefix, before, after = prefix + _escape(last), old_map[last], new_map[last]
            continue
        if _is_list(before) and _is_list(after) and len(after) >= len(before):
            old_list, new_list = before, after
            start = len(old_list) - 1
            if start < 0:
                operations += [_added(prefix, index, item) for index, item in enumerate(new_list)]
                break
            if len(new_list) > len(old_list) and _matched_later(old_list[start], new_list, start):
                # jsonpatch matches the old last item with an equal new one.
                operations += _whole(prefix, old_list, new_list)
                break
            appended.append([_added(prefix, index, new_list[index]) for index in range(len(old_list), len(new_list))])
            prefix, before, after = prefix + _escape(start), old_list[start], new_list[start]
            continue
        if (_is_map(before) and _is_map(after)) or (_is_list(before) and _is_list(after)):
            raise _NotGrown  # a container that lost members or items
        operations.append({"op": "replace", "path": prefix, "value": json_copy(after)})
        break
    for items in reversed(appended):
        operations += items
    return operations


def _child(mark: Mark, depth: int, container: JsonContainer, key: str | None) -> Outcome:
    """What sits in the open place of the ``depth - 1``-th open container (maybe nothing)."""
    if key is None and type(container) is dict:
        return NO_VALUE
    return value_of(mark, depth)


def suffixes(
    container: JsonContainer, before: Mark, after: Mark, depth: int
) -> tuple[list[object], list[object]] | tuple[dict[str, object], dict[str, object]] | None:
    """What the ``depth``-th open container (the same object in both marks) holds after
    the first mark's length, its open place included, at each mark: items of an array,
    members of an object; ``None`` where a key repeated in the text touches them."""
    _, old_length, old_key = before.levels[depth]
    _, length, key = after.levels[depth]
    old_child = _child(before, depth + 1, container, old_key)
    child = _child(after, depth + 1, container, key)
    if isinstance(container, list):
        old_items: list[object] = [] if isinstance(old_child, NoValue) else [old_child]
        new_items: list[object] = list(container[old_length:length])
        if not isinstance(child, NoValue):
            new_items.append(child)
        return old_items, new_items
    added = (
        _last_keys(container, length - old_length) if length == len(container) else list(container)[old_length:length]
    )
    if any(name is not None and name in container and name not in added for name in (old_key, key)):
        return None
    old_part: dict[str, object] = {} if isinstance(old_child, NoValue) or old_key is None else {old_key: old_child}
    new_part: dict[str, object] = {name: container[name] for name in added}
    if not isinstance(child, NoValue) and key is not None:
        new_part[key] = child
    return old_part, new_part


def _repeated(prefix: str, container: dict[str, JsonValue], before: Mark, after: Mark, depth: int) -> list[Operation]:
    """The operations for the ``depth``-th open container, an object where a key repeated
    in the text touches the members after the first mark's length: those compared whole."""
    _, old_length, old_key = before.levels[depth]
    _, length, key = after.levels[depth]
    old_child = _child(before, depth + 1, container, old_key)
    child = _child(after, depth + 1, container, key)
    added = _last_keys(container, length - old_length)
    pending = [name for name in (old_key, key) if name is not None]
    touched = {name: container[name] for name in pending if name in container and name not in added}
    before_part: dict[str | None, object] = {name: value for name, value in touched.items()}
    if not isinstance(old_child, NoValue):
        before_part[old_key] = old_child
    after_part: dict[str | None, object] = {name: value for name, value in touched.items()}
    after_part.update((name, container[name]) for name in added)
    if not isinstance(child, NoValue) and key is not None:
        after_part[key] = child
    return _whole(prefix, before_part, after_part)


def _suffix(prefix: str, container: JsonContainer, before: Mark, after: Mark, depth: int) -> list[Operation]:
    """The operations for the ``depth``-th open container, whose entries before the
    first mark's length did not change."""
    parts = suffixes(container, before, after, depth)
    if parts is None:
        assert isinstance(container, dict)  # only an object's keys repeat
        return _repeated(prefix, container, before, after, depth)
    try:
        operations = _grown("", *parts) if isinstance(container, list) else _grown(prefix, *parts)
    except _NotGrown:
        return _whole(prefix, value_of(before, depth), value_of(after, depth))
    if isinstance(container, list):
        old_length = before.levels[depth][1]
        for operation in operations:  # the suffix starts at index old_length
            for member in ("path", "from"):
                if member in operation:
                    first, slash, rest = str(operation[member])[1:].partition("/")
                    operation[member] = f"{prefix}/{int(first) + old_length}{slash}{rest}"
    return operations


def as_open(before: Mark, after: Mark) -> Mark:
    """``after``, with the top-level container shown still open when it completed since
    ``before`` (the container ``before`` saw open), so the two compare level by level."""
    old_levels = before.levels
    if after.levels or not old_levels or after.leaf is not old_levels[0][0]:
        return after
    top = old_levels[0][0]
    return Mark(((top, len(top), None),), NO_VALUE, after.source, after.rewrites)


def changes(before: Mark, after: Mark) -> list[Operation]:
    """The JSON Patch operations that turn ``before``'s value into ``after``'s (the module's
    first example shows them)."""
    if before.source is not after.source or before.rewrites != after.rewrites:
        return _whole("", value_of(before), value_of(after))
    after = as_open(before, after)
    old_levels, levels = before.levels, after.levels
    old_depth, depth_now = len(old_levels), len(levels)
    prefix = ""
    depth = 0
    while True:
        if depth >= old_depth or depth >= depth_now:
            if depth >= old_depth and depth >= depth_now:
                try:
                    return _grown(prefix, before.leaf, after.leaf)
                except _NotGrown:
                    return _whole(prefix, before.leaf, after.leaf)
            return _whole(prefix, value_of(before, depth), value_of(after, depth))
        container, old_length, old_key = old_levels[depth]
        live, length, key = levels[depth]
        if live is not container:
            return _whole(prefix, value_of(before, depth), value_of(after, depth))
        if old_length == length and old_key == key:
            if key is None and type(container) is dict:
                return []  # no open place on either side: nothing changed
            below = depth + 1
            open_before = below < old_depth or before.leaf is not NO_VALUE
            open_after = below < depth_now or after.leaf is not NO_VALUE
            if open_before and open_after:
                # Only the open place changed: go down into it.
                prefix += _escape(old_length if key is None else key)
                depth = below
                continue
            if not open_before and not open_after:
                return []
        return _suffix(prefix, container, before, after, depth)


def same_value(before: Mark, after: Mark) -> bool:
    """Whether ``before`` and ``after`` (a later mark) stand for equal values."""
    if before.source is not after.source or before.rewrites or after.rewrites:
        return value_of(before) == value_of(after)
    after = as_open(before, after)
    old_levels, levels = before.levels, after.levels
    depth = 0
    while depth < len(old_levels) and depth < len(levels):
        container, old_length, old_key = old_levels[depth]
        live, length, key = levels[depth]
        if live is not container:
            break
        if old_length == length and old_key == key:
            below = depth + 1
            if below < len(old_levels) and below < len(levels):
                depth = below  # only the open place may differ, and it is open in both: go down
                continue
            if below == len(old_levels) == len(levels):
                # The innermost on both: its open place holds the leaf (or nothing).
                return (type(container) is dict and key is None) or before.leaf == after.leaf
        parts = suffixes(container, before, after, depth)
        if parts is None:
            break
        return parts[0] == parts[1]
    return value_of(before, depth) == value_of(after, depth)
