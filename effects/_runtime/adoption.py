"""Adopting foreign runs: effects produced by another interpreter, shown as local descendants.

A worker process (an executor) or a server (a remote runnable) runs a chain with its own
interpreter and sends the run's effects back as values. Adopting them re-parents every
foreign run below the adopting run (a foreign root becomes its child, the root's children
its grandchildren, and so on) and adds ``metadata`` to each foreign run, so every
projection (events, run log, listeners, recordings) shows the remote work as part of the
local run tree. Foreign run ids are kept: they are fresh UUIDs wherever they were made.

>>> from uuid import UUID
>>> from effects.values import RunEnded, RunInfo, RunStarted
>>> here = RunInfo(UUID(int=1), (), "local", "chain", (), {})
>>> far = RunInfo(UUID(int=9), (), "far", "chain", (), {})
>>> moved = list(adopted([RunStarted(far, 1, 0.0), RunEnded(far, 1, 2, 1.0)], here, {"on": "w1"}))
>>> moved[0].run.parent_ids, dict(moved[1].run.metadata)
((UUID('00000000-0000-0000-0000-000000000001'),), {'on': 'w1'})
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from uuid import UUID

import attrs

from effects.values import Effect, RunInfo


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
