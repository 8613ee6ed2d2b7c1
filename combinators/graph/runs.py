"""Marking a graph with a run: which steps ended, which failed, from the run's effects.

A run is placed by its path (``RunPlace.path``): its parent's path, then its own step
tag (``seq:step:2``, ``map:key:context``, ``branch:1``...) or, untagged, its name. Only
the runs where a failure *started* mark a node failed (their parents fail as a
consequence); cancelled runs mark nothing. A run whose path is no node (a model's own
calls, a condition) marks the nearest node above it. A run streamed in place of its
step (``streams_in_place``: a retry's attempts) marks the node of its name at that step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final
from uuid import UUID

import attrs

from combinators.graph.value import Graph, Node, NodeStatus
from effects.effect_values import Effect, RunEnded, RunFailed, RunStarted

_CANCELLED: Final = frozenset({"CancelledError", "GeneratorExit", "KeyboardInterrupt"})
_STEP_TAG: Final = re.compile(r"^(seq:step:\d+|map:key:.+|branch:(\d+|default))$")


def run_paths(effects: Iterable[Effect]) -> list[tuple[tuple[str, ...], str, NodeStatus]]:
    """``(path, name, outcome)`` for each run that ended or where a failure started, in order."""
    paths: dict[UUID, tuple[str, ...]] = {}
    tags: dict[UUID, tuple[str, ...]] = {}
    failed_children: set[UUID] = set()
    outcomes: list[tuple[tuple[str, ...], str, NodeStatus]] = []
    for effect in effects:
        run = effect.run
        if isinstance(effect, RunStarted):
            parent = run.parent_id
            own = run.tags if parent is None else tuple(t for t in run.tags if t not in tags.get(parent, ()))
            step = next((t for t in own if _STEP_TAG.match(t)), run.name)
            paths[run.run_id] = (*paths.get(parent, ()), step) if parent is not None else (run.name,)
            tags[run.run_id] = run.tags
        elif isinstance(effect, RunEnded):
            outcomes.append((paths.get(run.run_id, ()), run.name, "ok"))
        elif isinstance(effect, RunFailed):
            if run.parent_id is not None:
                failed_children.add(run.parent_id)
            # A replayed error keeps only its type's name (RecordedError.error_type).
            kind = getattr(effect.error, "error_type", type(effect.error).__name__)
            cancelled = kind in _CANCELLED
            if run.run_id not in failed_children and not cancelled:
                outcomes.append((paths.get(run.run_id, ()), run.name, "failed"))
    return outcomes


def _nodes_at(graph: Graph, path: tuple[str, ...], name: str) -> list[Node]:
    while path:
        # A run streamed in place of its step (a retry's attempts) carries the step's tag,
        # so its node sits one level below, under its own name.
        found = [n for n in graph.nodes if n.path == path] or [n for n in graph.nodes if n.path == (*path, name)]
        if found:
            named = [n for n in found if n.name == name]
            return named or found
        path = path[:-1]
    return []


def mark(graph: Graph, effects: Iterable[Effect]) -> Graph:
    """The graph with each node's status from ``effects`` (the last outcome of its runs wins)."""
    status: dict[str, NodeStatus] = {}
    for path, name, outcome in run_paths(effects):
        for node in _nodes_at(graph, path, name):
            if node.kind in ("input", "output", "join"):
                continue
            if node.kind == "fork" and outcome == "ok":
                continue  # a container ending says nothing about its fork node
            status[node.id] = outcome
    return attrs.evolve(graph, nodes=tuple(attrs.evolve(n, status=status.get(n.id, n.status)) for n in graph.nodes))
