"""A compact text tree of a run: names, types and durations, from its effects.

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted, RunEnded
>>> root = RunInfo(UUID(int=1), (), "chain", "chain", (), {})
>>> step = RunInfo(UUID(int=2), (UUID(int=1),), "model", "chat_model", (), {})
>>> tree = RunTreeText()
>>> for effect in [RunStarted(root, 1, 0.0), RunStarted(step, 1, 0.001),
...                RunEnded(step, 1, 2, 0.021), RunEnded(root, 1, 2, 0.030)]:
...     tree.feed(effect)
>>> print(tree.render())
chain (chain) 30.0 ms
└─ model (chat_model) 20.0 ms
"""

from __future__ import annotations

from typing import final
from uuid import UUID

import attrs

from effects.effect_values import CustomEmitted, Effect, RunEnded, RunStarted, RunStreamed


@final
@attrs.define(eq=False)
class RunNode:
    """One run of a ``RunForest``: when it started, streamed and ended, how it failed, its children."""

    name: str
    run_type: str
    depth: int
    start: float
    end: float | None = None
    error: BaseException | None = None
    chunks: list[float] = attrs.field(factory=list[float])
    children: list[RunNode] = attrs.field(factory=list["RunNode"])


class RunForest:
    """Effects folded into runs, each under its parent, children in the order they started.

    The fold that the text tree and the timeline both are (each adds its ``render``).

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted, RunStreamed
    >>> root = RunInfo(UUID(int=1), (), "chain", "chain", (), {})
    >>> step = RunInfo(UUID(int=2), (UUID(int=1),), "model", "chat_model", (), {})
    >>> forest = RunForest()
    >>> for effect in [RunStarted(root, 1, 0.0), RunStarted(step, 1, 0.001), RunStreamed(step, "a", 0.002)]:
    ...     forest.feed(effect)
    >>> [(child.name, child.depth, child.chunks) for child in forest.roots[0].children], forest.last
    ([('model', 1, [0.002])], 0.002)
    """

    __slots__ = ("nodes", "roots", "last")

    def __init__(self) -> None:
        self.nodes: dict[UUID, RunNode] = {}
        self.roots: list[RunNode] = []
        self.last = 0.0  # the latest time of any effect fed

    def feed(self, effect: Effect) -> None:
        """Take one effect in."""
        run = effect.run
        self.last = max(self.last, effect.at)
        if isinstance(effect, RunStarted):
            parent = self.nodes.get(run.parent_ids[-1]) if run.parent_ids else None
            started = RunNode(run.name, run.run_type, 0 if parent is None else parent.depth + 1, effect.at)
            self.nodes[run.run_id] = started
            (parent.children if parent is not None else self.roots).append(started)
            return
        node = self.nodes.get(run.run_id)
        if node is None or isinstance(effect, CustomEmitted):
            return
        if isinstance(effect, RunStreamed):
            node.chunks.append(effect.at)
        elif isinstance(effect, RunEnded):
            node.end = effect.at
        else:  # RunFailed: the effects of a run are a closed union
            node.end = effect.at
            node.error = effect.error


@final
class RunTreeText(RunForest):
    """Folds effects into a tree and renders it (children in start order)."""

    __slots__ = ()

    def render(self) -> str:
        """The tree as text, one run per line."""
        lines: list[str] = []
        for root in self.roots:
            _render(root, "", "", lines)
        return "\n".join(lines)


def _label(node: RunNode) -> str:
    took = "running" if node.end is None else f"{(node.end - node.start) * 1000:.1f} ms"
    failed = f" FAILED {type(node.error).__name__}" if node.error is not None else ""
    return f"{node.name} ({node.run_type}) {took}{failed}"


def _render(node: RunNode, lead: str, child_lead: str, lines: list[str]) -> None:
    lines.append(lead + _label(node))
    for i, child in enumerate(node.children):
        last = i == len(node.children) - 1
        _render(
            child,
            child_lead + ("└─ " if last else "├─ "),
            child_lead + ("   " if last else "│  "),
            lines,
        )
