"""Effect values built slot by slot, for the runtime's hot paths.

Every observed run makes a ``RunInfo``, a ``RunStarted`` and a ``RunEnded``, and every
chunk of a watched run a ``RunStreamed``. The generated ``__init__`` of a frozen attrs
class sets each field through ``object.__setattr__``; these builders write the slots
directly (a third less per value). They take values as they are: the runtime passes
values of the right types, and these classes have no converters or validators (both
checked at import, by ``effects._fast``, where every slot-writing speed-up lives).

>>> from uuid import UUID
>>> run = run_info(UUID(int=1), (), "r", "chain", (), {}, {})
>>> started(run, "x", 0.0) == RunStarted(run, "x", 0.0), ended(run, "x", "y", 1.0).output
(True, 'y')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final
from uuid import UUID

from effects._fast import NEW as _NEW
from effects._fast import slot_setters
from effects.values import RunEnded, RunInfo, RunStarted, RunStreamed

_HERE = "effects._runtime.building"
_RUN: Final = slot_setters(RunInfo, ("run_id", "parent_ids", "name", "run_type", "tags", "metadata", "params"), _HERE)
_STARTED: Final = slot_setters(RunStarted, ("run", "input", "at"), _HERE)
_ENDED: Final = slot_setters(RunEnded, ("run", "input", "output", "at"), _HERE)
STREAMED_SLOTS: Final = slot_setters(RunStreamed, ("run", "chunk", "at"), _HERE)
"""The setters of a ``RunStreamed``'s slots, in field order (for loops that inline ``streamed``)."""


def run_info(
    run_id: UUID,
    parent_ids: tuple[UUID, ...],
    name: str,
    run_type: str,
    tags: tuple[str, ...],
    metadata: Mapping[str, object],
    params: Mapping[str, object],
) -> RunInfo:
    """``RunInfo(run_id, parent_ids, name, run_type, tags, metadata, params)``."""
    run: RunInfo = _NEW(RunInfo)
    set_id, set_parents, set_name, set_type, set_tags, set_metadata, set_params = _RUN
    set_id(run, run_id)
    set_parents(run, parent_ids)
    set_name(run, name)
    set_type(run, run_type)
    set_tags(run, tags)
    set_metadata(run, metadata)
    set_params(run, params)
    return run


def started(run: RunInfo, input: object, at: float) -> RunStarted:
    """``RunStarted(run, input, at)``."""
    effect: RunStarted = _NEW(RunStarted)
    set_run, set_input, set_at = _STARTED
    set_run(effect, run)
    set_input(effect, input)
    set_at(effect, at)
    return effect


def ended(run: RunInfo, input: object, output: object, at: float) -> RunEnded:
    """``RunEnded(run, input, output, at)``."""
    effect: RunEnded = _NEW(RunEnded)
    set_run, set_input, set_output, set_at = _ENDED
    set_run(effect, run)
    set_input(effect, input)
    set_output(effect, output)
    set_at(effect, at)
    return effect


def streamed(run: RunInfo, chunk: object, at: float) -> RunStreamed:
    """``RunStreamed(run, chunk, at)``."""
    effect: RunStreamed = _NEW(RunStreamed)
    set_run, set_chunk, set_at = STREAMED_SLOTS
    set_run(effect, run)
    set_chunk(effect, chunk)
    set_at(effect, at)
    return effect


__all__ = ["STREAMED_SLOTS", "ended", "run_info", "started", "streamed"]
