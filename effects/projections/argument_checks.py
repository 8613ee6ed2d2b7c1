"""Argument checks shared by the projections: clear errors for values of the wrong kind.

Callers that ignore the static types still get an error that names what was expected.

>>> expect_effect("EventsV2.feed", 3)
Traceback (most recent call last):
...
TypeError: EventsV2.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got int
"""

from __future__ import annotations

from typing import Final

from effects.projections.filters import EventFilter
from effects.values import CustomEmitted, RunEnded, RunFailed, RunStarted, RunStreamed


_EFFECTS: Final = (RunStarted, RunStreamed, RunEnded, RunFailed, CustomEmitted)
"""The effect classes (a tuple made once: ``A | B`` in the check would build a union per call)."""


def expect_effect(where: str, value: object) -> None:
    """Raise ``TypeError`` unless ``value`` is one of the effect values.

    >>> expect_effect("f", CustomEmitted.__new__(CustomEmitted)) is None
    True
    """
    if not isinstance(value, _EFFECTS):
        raise TypeError(
            f"{where} expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed"
            f" or CustomEmitted), got {type(value).__name__}"
        )


def expect_filter(where: str, value: object) -> None:
    """Raise ``TypeError`` unless ``value`` is an ``EventFilter``.

    >>> expect_filter("EventsV1 filter", {})
    Traceback (most recent call last):
    ...
    TypeError: EventsV1 filter must be an EventFilter, got dict
    """
    if not isinstance(value, EventFilter):
        raise TypeError(f"{where} must be an EventFilter, got {type(value).__name__}")
