"""Whether two moments of a stream have equal values (``==``), in time proportional to
what changed between them.

Two marks of one scanner share every entry their open containers held at the first
mark (the same objects), so only what follows differs: the walk goes down the open
path while the two agree and compares the rest, built from the marks. No value is
built whole, and nothing a consumer holds is compared: entries held by both marks are
the same objects, equal to themselves whatever was done to them (Python's ``==`` takes
an object as equal to itself). Where that shortcut does not hold (a key repeated in
the text, another scanner) both values are built and compared whole.

>>> from combinators.components.partial_json.scanner import Scanner
>>> scanner = Scanner()
>>> scanner.feed('{"a": [1, {"b": "x')
>>> before = scanner.mark()
>>> scanner.feed('"}')
>>> same_value(before, scanner.mark())
True
>>> scanner.feed(', 2')
>>> same_value(before, scanner.mark())
False
"""

from __future__ import annotations

from itertools import islice

from combinators.components.partial_json.patches import value_of
from combinators.components.partial_json.values import NO_VALUE, JsonContainer, Mark, NoValue, Outcome


def _child(mark: Mark, depth: int, container: JsonContainer, key: str | None) -> Outcome:
    """What sits in the open place of the ``depth - 1``-th open container (maybe nothing)."""
    if key is None and type(container) is dict:
        return NO_VALUE
    return value_of(mark, depth)


def _tails_equal(container: JsonContainer, before: Mark, after: Mark, depth: int) -> bool:
    """Whether the entries after the first mark's length in the ``depth``-th open
    container (the same object in both marks), open place included, are equal."""
    _, old_length, old_key = before.levels[depth]
    _, length, key = after.levels[depth]
    old_child = _child(before, depth + 1, container, old_key)
    child = _child(after, depth + 1, container, key)
    if isinstance(container, list):
        old_items: list[object] = [] if isinstance(old_child, NoValue) else [old_child]
        items: list[object] = container[old_length:length]
        if not isinstance(child, NoValue):
            items.append(child)
        return old_items == items
    old_part = {} if old_key is None or isinstance(old_child, NoValue) else {old_key: old_child}
    if length == len(container):  # the later mark is the scanner's now: its last members
        names = list(islice(reversed(container.keys()), length - old_length))
        names.reverse()
    else:
        names = list(container)[old_length:length]
    part = {name: container[name] for name in names}
    if key is not None and not isinstance(child, NoValue):
        part[key] = child
    return old_part == part


def same_value(before: Mark, after: Mark) -> bool:
    """Whether ``before`` and ``after`` (a later mark) stand for equal values."""
    if before.source is not after.source or before.rewrites or after.rewrites:
        return value_of(before) == value_of(after)
    old_levels, levels = before.levels, after.levels
    if not levels and old_levels and after.leaf is old_levels[0][0]:
        # The top-level container was completed: the container the first mark saw open.
        top = old_levels[0][0]
        after = Mark(((top, len(top), None),), NO_VALUE, after.source, after.rewrites)
        levels = after.levels
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
                return type(container) is dict and key is None or before.leaf == after.leaf
        return _tails_equal(container, before, after, depth)
    return value_of(before, depth) == value_of(after, depth)
