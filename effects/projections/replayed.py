"""A value read back from a recording, standing in for the live one.

A recording keeps the JSON form of every value. Where a projection asks a value more
than its JSON form (a model chunk's token text, whether an output is a dict, what adding
the next root chunk with ``+`` gave), the recording keeps that answer too, and a
``Replayed`` value, standing in for the live one, gives it back, so projections of a
replay equal those of the live run.

>>> a = Replayed({"type": "Piece", "text": "a"}, "a", False)
>>> b = Replayed({"type": "Piece", "text": "b"}, "b", False, added=True, total={"text": "ab"})
>>> (a + b).json
{'text': 'ab'}
"""

from __future__ import annotations

from typing import final

import attrs

from effects.projections.jsonable import JsonValue


@final
@attrs.frozen
class Replayed:
    """A value read back from a recording: its JSON form plus the facts projections use.

    ``added`` is what ``total + this`` did in the live run: ``True`` gave ``total``,
    ``False`` raised ``TypeError``, ``None`` was never asked.

    >>> Replayed([1], "[1]", False).__jsonable__()
    [1]
    """

    json: JsonValue
    text: str
    """The token text of the live value (its ``.text``, or ``.content`` if a str)."""
    was_dict: bool
    """Whether the live value was a ``dict``."""
    added: bool | None = None
    total: JsonValue = None

    def __jsonable__(self) -> JsonValue:
        """The recorded JSON form.

        >>> Replayed("x", "x", False).__jsonable__()
        'x'
        """
        return self.json

    def __add__(self, other: object) -> Replayed:
        if isinstance(other, Replayed):
            return other.sum_with_previous()
        return NotImplemented

    def __radd__(self, other: object) -> Replayed:
        return self.sum_with_previous()

    def sum_with_previous(self) -> Replayed:
        """What adding this chunk to the running total gave when it was recorded.

        >>> Replayed("b", "b", False, added=False).sum_with_previous()
        Traceback (most recent call last):
        ...
        TypeError: the recorded chunk could not be added to the total before it
        """
        if self.added is True:
            return Replayed(self.total, "", isinstance(self.total, dict))
        if self.added is False:
            raise TypeError("the recorded chunk could not be added to the total before it")
        raise TypeError("the recording has no sum for this chunk")
