"""Effect values built: fresh ones slot by slot for the runtime's hot paths, with their
time-ordered run ids, and foreign ones adopted below a local run.

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

Run ids are time-ordered UUIDs (version 7), built only for observed runs.

Adopting foreign runs: a worker process (an executor) or a server (a remote runnable) runs
a chain with its own interpreter and sends the run's effects back as values. Adopting them
re-parents every foreign run below the adopting run (a foreign root becomes its child, the
root's children its grandchildren, and so on) and adds ``metadata`` to each foreign run, so
every projection (events, run log, listeners, recordings) shows the remote work as part of
the local run tree. Foreign run ids are kept: they are fresh UUIDs wherever they were made.

>>> here = RunInfo(UUID(int=1), (), "local", "chain", (), {})
>>> far = RunInfo(UUID(int=9), (), "far", "chain", (), {})
>>> moved = list(adopted([RunStarted(far, 1, 0.0), RunEnded(far, 1, 2, 1.0)], here, {"on": "w1"}))
>>> moved[0].run.parent_ids, dict(moved[1].run.metadata)
((UUID('00000000-0000-0000-0000-000000000001'),), {'on': 'w1'})
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Final, TypeVar
from uuid import UUID

import attrs

from effects._fast import NEW as _NEW
from effects._fast import Setter, slot_setters

# Every observed run makes a run id: its bits are in range by construction, so the id is
# built without UUID(int=...)'s checks (effects._fast holds that speed-up and its check).
from effects._fast import uuid_from_int
from effects.effect_values import Effect, RunEnded, RunInfo, RunStarted, RunStreamed

E = TypeVar("E", RunStarted, RunStreamed)

_HERE = "effects._runtime.building"
_RUN: Final = slot_setters(
    RunInfo, ("run_id", "parent_ids", "name", "run_type", "tags", "metadata", "params", "whole_output"), _HERE
)
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
    whole_output: bool = False,
) -> RunInfo:
    """``RunInfo(run_id, parent_ids, name, run_type, tags, metadata, params, whole_output)``."""
    run: RunInfo = _NEW(RunInfo)
    set_id, set_parents, set_name, set_type, set_tags, set_metadata, set_params, set_whole = _RUN
    set_id(run, run_id)
    set_parents(run, parent_ids)
    set_name(run, name)
    set_type(run, run_type)
    set_tags(run, tags)
    set_metadata(run, metadata)
    set_params(run, params)
    set_whole(run, whole_output)
    return run


def _run_value_at(kind: type[E], setters: tuple[Setter, ...]) -> Callable[[RunInfo, object, float], E]:
    """The builder of ``kind(run, value, at)`` (a start or a chunk), slot by slot."""
    set_run, set_value, set_at = setters

    def build(run: RunInfo, value: object, at: float) -> E:
        effect: E = _NEW(kind)
        set_run(effect, run)
        set_value(effect, value)
        set_at(effect, at)
        return effect

    return build


started: Final = _run_value_at(RunStarted, slot_setters(RunStarted, ("run", "input", "at"), _HERE))
"""``RunStarted(run, input, at)``."""


def ended(run: RunInfo, input: object, output: object, at: float) -> RunEnded:
    """``RunEnded(run, input, output, at)``."""
    effect: RunEnded = _NEW(RunEnded)
    set_run, set_input, set_output, set_at = _ENDED
    set_run(effect, run)
    set_input(effect, input)
    set_output(effect, output)
    set_at(effect, at)
    return effect


streamed: Final = _run_value_at(RunStreamed, STREAMED_SLOTS)
"""``RunStreamed(run, chunk, at)``."""


_RANDOM_BITS: Final = ((1 << 80) - 1) & ~(0xF << 76) & ~(0x3 << 62)
"""The 80 low bits, less those of the version (76-79) and the variant (62-63)."""
_VERSION_AND_VARIANT: Final = (7 << 76) | (0x2 << 62)


def new_run_id() -> UUID:
    """A time-ordered run id (UUID version 7).

    >>> new_run_id().version
    7
    """
    ms = time.time_ns() // 1_000_000
    bits = (ms & 0xFFFF_FFFF_FFFF) << 80 | (random.getrandbits(80) & _RANDOM_BITS) | _VERSION_AND_VARIANT
    return uuid_from_int(bits)


def adopted(effects: Iterable[Effect], under: RunInfo | None, metadata: Mapping[str, object]) -> Iterator[Effect]:
    """``effects`` of foreign runs, re-parented below ``under`` (or kept as roots when
    ``under`` is None) and with ``metadata`` added to every foreign run (``metadata`` wins
    over a foreign key of the same name: it says where the run happened)."""
    lineage: tuple[UUID, ...] = () if under is None else (*under.parent_ids, under.run_id)
    if not lineage and not metadata:
        yield from effects
        return
    moved: dict[UUID, RunInfo] = {}
    for effect in effects:
        run = effect.run
        local = moved.get(run.run_id)
        if local is None:
            local = attrs.evolve(
                run,
                parent_ids=(*lineage, *run.parent_ids),
                metadata={**run.metadata, **metadata} if metadata else run.metadata,
            )
            moved[run.run_id] = local
        yield attrs.evolve(effect, run=local)


__all__ = ["STREAMED_SLOTS", "adopted", "ended", "new_run_id", "run_info", "started", "streamed"]
