"""``AddableDict``: the chunk type of streamed parallel maps.

Adding two of them merges the keys, adding values under the same key with ``+``,
so adding up a parallel map's stream rebuilds its ``invoke`` output.

>>> AddableDict(a="x") + AddableDict(a="y", b=1)
{'a': 'xy', 'b': 1}
"""

from __future__ import annotations

from typing import Any


class AddableDict(dict[str, Any]):
    """A dict whose ``+`` merges, adding values under shared keys."""

    def __add__(self, other: dict[str, Any]) -> AddableDict:
        merged = AddableDict(self)
        for key, value in other.items():
            if key in merged and merged[key] is not None:
                try:
                    merged[key] = merged[key] + value
                except TypeError:
                    merged[key] = value
            else:
                merged[key] = value
        return merged

    def __radd__(self, other: dict[str, Any]) -> AddableDict:
        return AddableDict(other) + self
