"""EventFilter: which runs an event stream or run log shows (the peer's include/exclude rules);
and the checks of what a projection is fed.

A run is included when no include filter is given, or when its name is in
``include_names`` OR its type is in ``include_types`` OR one of its tags is in
``include_tags``; and then only if its name is not in ``exclude_names`` AND its type is
not in ``exclude_types`` AND none of its tags is in ``exclude_tags``. An empty include
list is a given filter that matches nothing.

>>> keep = EventFilter(include_types=("parser",), exclude_tags=("hidden",))
>>> keep.includes("StrOutputParser", "parser", ("seq:step:3",))
True
>>> keep.includes("StrOutputParser", "parser", ("hidden",))
False

What a projection is fed is checked as it comes (``expect_effect``, ``expect_filter``), so
callers that ignore the static types still get an error that names what was expected:

>>> expect_effect("EventsV2.feed", 3)
Traceback (most recent call last):
...
TypeError: EventsV2.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got int
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias, final

import attrs

from effects.guards import is_a
from effects.effect_values import CustomEmitted, RunEnded, RunFailed, RunStarted, RunStreamed, RunType

Names: TypeAlias = list[str] | tuple[str, ...]
"""Run names or tags to filter by, as a list (a single ``str`` is refused, by the checkers too)."""

RunTypes: TypeAlias = Sequence[RunType]
"""Run types to filter by (``["chat_model", "tool"]``). A custom event's name counts as its
type too (the peer's rule): give such a list as ``cast(RunTypes, [...])``."""


def _names(value: Iterable[str] | None, field: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str | bytes):
        raise TypeError(
            f"EventFilter.{field} must be a list of str, got the single"
            f" {type(value).__name__} {value!r}; wrap it in a list"
        )
    items = tuple(value)
    for item in items:
        if not is_a(item, str):
            raise TypeError(f"EventFilter.{field} must hold str, got {type(item).__name__} {item!r}")
    return items


# One named converter per field, so the error names the field (and mypy's attrs plugin
# can read the converter's type).
def _include_names(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _names(value, "include_names")


def _include_types(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _names(value, "include_types")


def _include_tags(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _names(value, "include_tags")


def _exclude_names(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _names(value, "exclude_names")


def _exclude_types(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _names(value, "exclude_types")


def _exclude_tags(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _names(value, "exclude_tags")


@final
@attrs.frozen
class EventFilter:
    """The include/exclude filters of ``astream_events`` and ``astream_log``.

    >>> EventFilter(include_names=["a"]).includes("b", "chain", ())
    False
    >>> EventFilter().is_open
    True
    """

    include_names: tuple[str, ...] | None = attrs.field(default=None, converter=_include_names)
    include_types: tuple[str, ...] | None = attrs.field(default=None, converter=_include_types)
    include_tags: tuple[str, ...] | None = attrs.field(default=None, converter=_include_tags)
    exclude_names: tuple[str, ...] | None = attrs.field(default=None, converter=_exclude_names)
    exclude_types: tuple[str, ...] | None = attrs.field(default=None, converter=_exclude_types)
    exclude_tags: tuple[str, ...] | None = attrs.field(default=None, converter=_exclude_tags)

    @property
    def is_open(self) -> bool:
        """True when no filter is given, so every run is included.

        >>> EventFilter(exclude_tags=()).is_open
        False
        """
        return self == NO_FILTER

    def includes(self, name: str, run_type: str, tags: Sequence[str]) -> bool:
        """Whether a run (or custom event) with this name, type and tags is shown.

        >>> EventFilter(include_tags=["x"], exclude_names=["n"]).includes("m", "tool", ["x"])
        True
        """
        if self.include_names is None and self.include_types is None and self.include_tags is None:
            included = True
        else:
            included = (
                (self.include_names is not None and name in self.include_names)
                or (self.include_types is not None and run_type in self.include_types)
                or (self.include_tags is not None and any(tag in self.include_tags for tag in tags))
            )
        if not included:
            return False
        if self.exclude_names is not None and name in self.exclude_names:
            return False
        if self.exclude_types is not None and run_type in self.exclude_types:
            return False
        if self.exclude_tags is not None and any(tag in self.exclude_tags for tag in tags):
            return False
        return True


NO_FILTER: Final = EventFilter()
"""The filter that shows everything."""


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
