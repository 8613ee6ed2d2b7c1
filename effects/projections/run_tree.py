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

from effects.effect_values import CustomEmitted, Effect, RunEnded, RunStarted, RunStreamed


@final
class _Node:
    __slots__ = ("name", "run_type", "start", "end", "failed", "children", "chunks")

    def __init__(self, name: str, run_type: str, start: float) -> None:
        self.name = name
        self.run_type = run_type
        self.start = start
        self.end: float | None = None
        self.failed: str | None = None
        self.children: list[_Node] = []
        self.chunks = 0


@final
class RunTreeText:
    """Folds effects into a tree and renders it (children in start order)."""

    __slots__ = ("_nodes", "_roots")

    def __init__(self) -> None:
        self._nodes: dict[UUID, _Node] = {}
        self._roots: list[_Node] = []

    def feed(self, effect: Effect) -> None:
        """Take one effect into the tree."""
        run = effect.run
        if isinstance(effect, RunStarted):
            node = _Node(run.name, run.run_type, effect.at)
            self._nodes[run.run_id] = node
            parent = self._nodes.get(run.parent_ids[-1]) if run.parent_ids else None
            (parent.children if parent else self._roots).append(node)
            return
        seen = self._nodes.get(run.run_id)
        if seen is None or isinstance(effect, CustomEmitted):
            return
        if isinstance(effect, RunStreamed):
            seen.chunks += 1
        elif isinstance(effect, RunEnded):
            seen.end = effect.at
        else:  # RunFailed: the effects of a run are a closed union
            seen.end = effect.at
            seen.failed = type(effect.error).__name__

    def render(self) -> str:
        """The tree as text, one run per line."""
        lines: list[str] = []
        for root in self._roots:
            _render(root, "", "", lines)
        return "\n".join(lines)


def _label(node: _Node) -> str:
    took = "running" if node.end is None else f"{(node.end - node.start) * 1000:.1f} ms"
    failed = f" FAILED {node.failed}" if node.failed else ""
    return f"{node.name} ({node.run_type}) {took}{failed}"


def _render(node: _Node, lead: str, child_lead: str, lines: list[str]) -> None:
    lines.append(lead + _label(node))
    for i, child in enumerate(node.children):
        last = i == len(node.children) - 1
        _render(
            child,
            child_lead + ("└─ " if last else "├─ "),
            child_lead + ("   " if last else "│  "),
            lines,
        )
