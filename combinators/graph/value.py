"""The ``Graph`` value: nodes, edges and groups of a runnable, as ``get_graph()`` returns them.

A graph is plain data: building or drawing it never runs the chain. Node ids are
deterministic (``n0``, ``n1``, ... in derivation order), so drawings are stable text.

>>> from combinators.graph import Edge, Graph, Node
>>> g = Graph((Node("n0", "start", kind="input"), Node("n1", "work"), Node("n2", "end", kind="output")),
...           (Edge("n0", "n1"), Edge("n1", "n2")))
>>> g.first_node().name, g.last_node().name, g.successors("n0")
('start', 'end', ('n1',))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, final

import attrs

if TYPE_CHECKING:
    from effects.effect_values import Effect

NodeKind = str
"""``input``/``output`` (the chain's ends), ``step`` (a leaf), ``fork``/``join`` (where
branches split and meet), ``remote`` (a runnable served elsewhere), ``agent``; a node of
your own may declare another kind, which drawings show as a step."""

NodeStatus = Literal["ok", "failed"] | None
"""How the node's run went, when the graph was marked with a run's effects."""

KNOWN_KINDS: Final = frozenset({"input", "output", "step", "fork", "join", "remote", "agent"})

_NO_SCHEMA: Final[Mapping[str, object]] = {}


@final
@attrs.frozen
class Node:
    """One node: a step of the chain, an end of it, or a point where branches fork or join.

    ``path`` names the run of this node from the root (step tags such as ``seq:step:2``,
    else run names): it is how a run's effects find their node.

    >>> Node("n1", "retriever", run_type="retriever").kind
    'step'
    """

    id: str
    name: str
    kind: NodeKind = "step"
    run_type: str = "chain"
    input_schema: Mapping[str, object] = attrs.field(default=_NO_SCHEMA, hash=False, repr=False)
    output_schema: Mapping[str, object] = attrs.field(default=_NO_SCHEMA, hash=False, repr=False)
    path: tuple[str, ...] = attrs.field(default=(), repr=False)
    status: NodeStatus = None


@final
@attrs.frozen
class Edge:
    """An edge; ``conditional`` when only one of the edges leaving ``source`` is taken per run.

    >>> Edge("n1", "n2", conditional=True, label="x > 0")
    Edge(source='n1', target='n2', conditional=True, label='x > 0')
    """

    source: str
    target: str
    conditional: bool = False
    label: str | None = None


@final
@attrs.frozen
class Group:
    """Nodes that run together under a wrapper (``retry``: attempts; ``each``: per element).

    >>> Group("g0", "retry (3 attempts)", "retry", ("n2", "n3")).nodes
    ('n2', 'n3')
    """

    id: str
    label: str
    kind: str
    nodes: tuple[str, ...]


@final
@attrs.frozen
class Graph:
    """Nodes, edges and groups; a chain's graph has one entry (``input``) and one exit (``output``)."""

    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    groups: tuple[Group, ...] = ()

    def node(self, id: str) -> Node:
        """The node with this id.

        >>> Graph((Node("a", "A"),), ()).node("a").name
        'A'
        """
        for node in self.nodes:
            if node.id == id:
                return node
        raise KeyError(f"the graph has no node {id!r}")

    def successors(self, id: str) -> tuple[str, ...]:
        """Ids of the nodes ``id`` has an edge to, in edge order.

        >>> Graph((Node("a", "A"), Node("b", "B")), (Edge("a", "b"),)).successors("a")
        ('b',)
        """
        return tuple(e.target for e in self.edges if e.source == id)

    def outermost_first(self) -> tuple[Group, ...]:
        """The groups, each before the groups it holds: a group holds another when it has all
        of its nodes (with the same nodes, the one added later wraps: ``.with_retry().each()``
        is each around retry).

        >>> g = Graph((Node("a", "A"),), (), (Group("g0", "retry", "retry", ("a",)), Group("g1", "each", "each", ("a",))))
        >>> [group.kind for group in g.outermost_first()]
        ['each', 'retry']
        """
        order = range(len(self.groups))
        ranked = sorted(order, key=lambda i: (-len(self.groups[i].nodes), -i))
        return tuple(self.groups[i] for i in ranked)

    def _group_parents(self) -> dict[str, str | None]:
        """For each group, the id of the innermost group holding it (None: none does).

        >>> g = Graph((Node("a", "A"),), (), (Group("g0", "retry", "retry", ("a",)), Group("g1", "each", "each", ("a",))))
        >>> g._group_parents()
        {'g1': None, 'g0': 'g1'}
        """
        parents: dict[str, str | None] = {}
        seen: list[Group] = []
        for group in self.outermost_first():
            holders = [h.id for h in seen if set(group.nodes) <= set(h.nodes)]
            parents[group.id] = holders[-1] if holders else None
            seen.append(group)
        return parents

    def group_outline(self) -> list[tuple[int, Literal["open", "node", "close"], Group | Node]]:
        """The grouped part of a drawing, in drawing order: each top-level group opens at
        depth 0, its own nodes follow one deeper, then the groups inside it, then it closes.

        >>> g = Graph((Node("a", "A"),), (), (Group("g0", "retry", "retry", ("a",)), Group("g1", "each", "each", ("a",))))
        >>> [(depth, what, item.id) for depth, what, item in g.group_outline()]
        [(0, 'open', 'g1'), (1, 'open', 'g0'), (2, 'node', 'a'), (1, 'close', 'g0'), (0, 'close', 'g1')]
        """
        innermost = self._innermost_group()
        parents = self._group_parents()
        ordered = self.outermost_first()
        by_id = {node.id: node for node in self.nodes}
        outline: list[tuple[int, Literal["open", "node", "close"], Group | Node]] = []

        def add(group: Group, depth: int) -> None:
            outline.append((depth, "open", group))
            outline.extend((depth + 1, "node", by_id[id]) for id in group.nodes if innermost[id] == group.id)
            for inner in ordered:
                if parents[inner.id] == group.id:
                    add(inner, depth + 1)
            outline.append((depth, "close", group))

        for group in ordered:
            if parents[group.id] is None:
                add(group, 0)
        return outline

    def _innermost_group(self) -> dict[str, str]:
        """For each grouped node, the id of the innermost group holding it.

        >>> g = Graph((Node("a", "A"),), (), (Group("g0", "retry", "retry", ("a",)), Group("g1", "each", "each", ("a",))))
        >>> g._innermost_group()
        {'a': 'g0'}
        """
        return {id: group.id for group in self.outermost_first() for id in group.nodes}

    def predecessors(self, id: str) -> tuple[str, ...]:
        """Ids of the nodes with an edge to ``id``.

        >>> Graph((Node("a", "A"), Node("b", "B")), (Edge("a", "b"),)).predecessors("b")
        ('a',)
        """
        return tuple(e.source for e in self.edges if e.target == id)

    def first_node(self) -> Node:
        """The one node no edge enters (the chain's input).

        >>> Graph((Node("a", "A"), Node("b", "B")), (Edge("a", "b"),)).first_node().id
        'a'
        """
        return self._only([n for n in self.nodes if not self.predecessors(n.id)], "entry")

    def last_node(self) -> Node:
        """The one node no edge leaves (the chain's output).

        >>> Graph((Node("a", "A"), Node("b", "B")), (Edge("a", "b"),)).last_node().id
        'b'
        """
        return self._only([n for n in self.nodes if not self.successors(n.id)], "exit")

    def _only(self, found: list[Node], what: str) -> Node:
        if len(found) != 1:
            names = [n.name for n in found]
            raise ValueError(f"the graph has {len(found)} {what} nodes, expected one: {names}")
        return found[0]

    def marked(self, effects: Iterable[Effect]) -> Graph:
        """This graph with each node's ``status`` from a run's effects (live or replayed).

        A node whose run failed is ``"failed"`` (drawings show it in red), one whose runs
        ended is ``"ok"``; a failed run inside a leaf (a model's own calls) marks that leaf.

        >>> from combinators import RunnableLambda
        >>> def boom(x: int) -> int:
        ...     raise ValueError("no")
        >>> chain = RunnableLambda(abs) | RunnableLambda(boom)
        >>> effects = []
        >>> try:
        ...     effects.extend(chain.stream_effects(1))
        ... except ValueError:
        ...     pass
        >>> [(n.name, n.status) for n in chain.get_graph().marked(effects).nodes]
        [('abs_input', None), ('abs', 'ok'), ('boom', 'failed'), ('boom_output', None)]
        """
        from combinators.graph.runs import mark

        return mark(self, effects)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: nodes (with their schemas), edges and groups.

        >>> Graph((Node("a", "A"),), ()).to_json()["nodes"][0]["name"]
        'A'
        """
        return {
            "nodes": [
                {
                    "id": n.id,
                    "name": n.name,
                    "kind": n.kind,
                    "run_type": n.run_type,
                    "input_schema": dict(n.input_schema),
                    "output_schema": dict(n.output_schema),
                    "status": n.status,
                    "path": list(n.path),
                }
                for n in self.nodes
            ],
            "edges": [attrs.asdict(e) for e in self.edges],
            "groups": [{**attrs.asdict(g), "nodes": list(g.nodes)} for g in self.groups],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Graph:
        """The graph ``to_json`` wrote (a served chain's, read back by its client); a
        ``ValueError`` says what does not fit.

        >>> from combinators import RunnableLambda
        >>> graph = (RunnableLambda(abs) | RunnableLambda(str)).get_graph()
        >>> Graph.from_json(graph.to_json()) == graph
        True
        """
        from combinators.graph.json_form import graph_from_json

        return graph_from_json(data)

    def draw_ascii(self) -> str:
        """A box drawing (for series-parallel graphs, which every chain's graph is).

        >>> from combinators import RunnableLambda
        >>> print((RunnableLambda(abs) | RunnableLambda(str)).get_graph().draw_ascii())
         +-----------+
         | abs_input |
         +-----------+
               |
            +-----+
            | abs |
            +-----+
               |
            +-----+
            | str |
            +-----+
               |
        +------------+
        | str_output |
        +------------+
        """
        from combinators.graph.ascii import draw_ascii

        return draw_ascii(self)

    def draw_mermaid(self) -> str:
        """Mermaid flowchart text.

        >>> print(Graph((Node("a", "A", kind="input"), Node("b", "B", kind="output")), (Edge("a", "b"),)).draw_mermaid())
        graph TD;
            a(["A"]):::first
            b(["B"]):::last
            a --> b;
            classDef default fill:#f2f0ff,stroke:#6c5fc7,line-height:1.2
            classDef first fill:#ffffff,stroke:#6c5fc7
            classDef last fill:#bfb6fc,stroke:#6c5fc7
        """
        from combinators.graph.mermaid import draw_mermaid

        return draw_mermaid(self)

    def draw_dot(self) -> str:
        """Graphviz DOT text (``#rrggbb`` colours, labels escaped).

        >>> print(Graph((Node("a", 'say "hi"'),), ()).draw_dot().splitlines()[4].strip())
        "a" [label="say \\"hi\\""];
        """
        from combinators.graph.dot import draw_dot

        return draw_dot(self)

    def draw_svg(self) -> str:
        """The DOT drawing rendered by Graphviz's ``dot`` program, as SVG text."""
        from combinators.graph.dot import render

        return render(self.draw_dot(), "svg").decode()

    def draw_png(self, path: str | None = None) -> bytes:
        """The DOT drawing rendered by Graphviz's ``dot`` as PNG bytes (also written to ``path``)."""
        from combinators.graph.dot import render

        data = render(self.draw_dot(), "png")
        if path is not None:
            with open(path, "wb") as file:
                file.write(data)
        return data
