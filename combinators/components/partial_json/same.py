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

from combinators.components.partial_json.patches import as_open, suffixes, value_of
from combinators.components.partial_json.marks import Mark


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
