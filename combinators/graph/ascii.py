"""``draw_ascii``: a box drawing of a series-parallel graph, laid out recursively.

A chain's graph is series-parallel: steps follow each other, and a fork's branches meet
again at one join. So the drawing is a column of boxes; a fork puts its branches side
by side between two bars, each labelled ``?label`` when only one of them runs; a group
(retry, each) is framed with dots; join nodes are the bottom bars, not boxes. A failed
step reads ``[FAILED]``, a remote one ``[remote]``, an agent ``[agent]``.

>>> from combinators.graph import Edge, Graph, Node
>>> g = Graph((Node("a", "in", kind="input"), Node("f", "fork", kind="fork"), Node("x", "left"),
...            Node("y", "right"), Node("j", "join", kind="join"), Node("b", "out", kind="output")),
...           (Edge("a", "f"), Edge("f", "x"), Edge("f", "y"), Edge("x", "j"), Edge("y", "j"), Edge("j", "b")))
>>> print(draw_ascii(g))
      +----+
      | in |
      +----+
         |
     +------+
     | fork |
     +------+
         |
    +----+----+
    |         |
+------+  +-------+
| left |  | right |
+------+  +-------+
    |         |
    +----+----+
         |
      +-----+
      | out |
      +-----+
"""

from __future__ import annotations

import functools
from typing import Final, final

import attrs

from combinators.graph.value import Graph, Group, Node

_GAP: Final = 2
_MARKS: Final = {"remote": " [remote]", "agent": " [agent]"}


@final
@attrs.frozen
class _Block:
    """Lines of equal width; edges attach at column ``center`` at the top and the bottom."""

    lines: tuple[str, ...]
    center: int

    @property
    def width(self) -> int:
        return len(self.lines[0])

    def placed(self, left: int, width: int) -> list[str]:
        return [(" " * left + line).ljust(width) for line in self.lines]


def _row(width: int, marks: dict[int, str], fill: str = " ") -> str:
    chars = [fill] * width
    for column, char in marks.items():
        chars[column] = char
    return "".join(chars)


def _box(text: str) -> _Block:
    edge = "+" + "-" * (len(text) + 2) + "+"
    return _Block((edge, f"| {text} |", edge), len(edge) // 2)


def _stack(blocks: list[_Block]) -> _Block:
    """Blocks one under another, joined by vertical edges."""
    if not blocks:
        return _Block(("|",), 0)
    center = max(b.center for b in blocks)
    width = max(center - b.center + b.width for b in blocks)
    lines: list[str] = []
    for i, block in enumerate(blocks):
        if i:
            lines.append(_row(width, {center: "|"}))
        lines.extend(block.placed(center - block.center, width))
    return _Block(tuple(lines), center)


def _side_by_side(columns: list[_Block], labels: list[str | None]) -> _Block:
    """Branches between two bars; a conditional branch shows its label above it."""
    shown = [
        column if label is None else _stack([_Block((f"?{label}",), len(label) // 2), column])
        for column, label in zip(columns, labels)
    ]
    height = max(len(c.lines) for c in shown)
    rows = [""] * height
    centers: list[int] = []
    for column in shown:
        offset = len(rows[0]) + (_GAP if rows[0] else 0)
        centers.append(offset + column.center)
        tail = [_row(column.width, {column.center: "|"})] * (height - len(column.lines))
        rows = [row.ljust(offset) + part for row, part in zip(rows, [*column.lines, *tail])]
    width = len(rows[0])
    middle = (centers[0] + centers[-1]) // 2
    bar = _row(width, dict.fromkeys(range(centers[0], centers[-1] + 1), "-") | dict.fromkeys([*centers, middle], "+"))
    ties = _row(width, dict.fromkeys(centers, "|"))
    return _Block((bar, ties, *rows, ties, bar), middle)


def _framed(inner: _Block, label: str) -> _Block:
    """A group's frame around its block, the label in the top border."""
    width = max(inner.width, len(label) + 4) + 4
    center = inner.center + 2
    top = _row(width, {0: ".", width - 1: "."}, "-")
    top = top[:2] + f" {label} " + top[len(label) + 4 :]
    lines = [top, _row(width, {0: ":", center: "|", width - 1: ":"})]
    lines += [f":{line}:" for line in inner.placed(1, width - 2)]
    lines.append(_row(width, {0: "'", center: "|", width - 1: "'"}, "-"))
    return _Block(tuple(lines), center)


def _text(node: Node) -> str:
    if node.status == "failed":
        return f"{node.name} [FAILED]"
    return node.name + _MARKS.get(node.kind, "")


@final
class _Layout:
    __slots__ = ("graph", "successors", "labels", "after", "groups", "drawn")

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.successors: dict[str, list[str]] = {n.id: [] for n in graph.nodes}
        self.labels: dict[tuple[str, str], str | None] = {}
        for edge in graph.edges:
            self.successors[edge.source].append(edge.target)
            self.labels[(edge.source, edge.target)] = edge.label if edge.conditional else None
        self.after = _nearest_post_dominators(graph, self.successors)
        # The groups starting at each node, outermost first: each frame holds the next.
        self.groups: dict[str, list[Group]] = {}
        for group in graph.outermost_first():
            if group.nodes:
                self.groups.setdefault(group.nodes[0], []).append(group)
        self.drawn: set[str] = set()

    def block(self, start: str | None, stop: str | None) -> _Block:
        """The drawing from ``start`` up to (not including) ``stop``."""
        parts: list[_Block] = []
        current = start
        while current is not None and current != stop:
            starting = self.groups.get(current)
            group = starting.pop(0) if starting else None
            if group is not None:
                exit = self._single_exit(group)
                parts.append(_framed(self.block(current, exit), group.label))
                current = exit
                continue
            if current in self.drawn:
                raise ValueError(
                    "draw_ascii draws series-parallel graphs (every chain's graph is one);"
                    f" node {self.graph.node(current).name!r} is reached twice: use draw_dot"
                )
            self.drawn.add(current)
            node = self.graph.node(current)
            if node.kind != "join":
                parts.append(_box(_text(node)))
            following = self.successors[current]
            if len(following) <= 1:
                current = following[0] if following else None
                continue
            meet = self.after[current]
            branches = [self.block(f, meet) for f in following]
            parts.append(_side_by_side(branches, [self.labels[(current, f)] for f in following]))
            current = meet
        return _stack(parts)

    def _single_exit(self, group: Group) -> str | None:
        last = group.nodes[-1]
        following = self.successors[last]
        return following[0] if len(following) == 1 else None


def _nearest_post_dominators(graph: Graph, successors: dict[str, list[str]]) -> dict[str, str | None]:
    """For each node, the nearest node every path from it to the exit passes through."""
    post: dict[str, frozenset[str]] = {}
    pending = [n.id for n in graph.nodes]
    while pending:  # graphs are small and acyclic: settle nodes whose successors are known
        waiting: list[str] = []
        for id in pending:
            if all(s in post for s in successors[id]):
                after = [post[s] for s in successors[id]]
                common = functools.reduce(frozenset[str].__and__, after) if after else frozenset[str]()
                post[id] = common | {id}
            else:
                waiting.append(id)
        if len(waiting) == len(pending):
            raise ValueError("draw_ascii draws acyclic graphs; this one has a cycle: use draw_dot")
        pending = waiting
    return {id: max(dominators - {id}, key=lambda d: len(post[d]), default=None) for id, dominators in post.items()}


def draw_ascii(graph: Graph) -> str:
    """The graph as a box drawing, from its entry node down."""
    layout = _Layout(graph)
    block = layout.block(graph.first_node().id, None)
    return "\n".join(line.rstrip() for line in block.lines)
