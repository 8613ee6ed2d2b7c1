"""``get_graph()``: a runnable's ``Graph``, containers expanded, derived from the value alone.

Every runnable describes itself through one hook, ``Runnable.graph_fragment(graph, place)``:
a leaf adds one node, a container adds its children's fragments and joins them. The
library's own containers are described here (one rule per node type); a runnable of
your own, or one declared elsewhere (an agent, a remote runnable), overrides the hook.

>>> from combinators import RunnableLambda, RunnableParallel
>>> chain = RunnableLambda(abs) | RunnableParallel(a=RunnableLambda(str), b=RunnableLambda(float))
>>> [(n.name, n.kind) for n in graph_of(chain).nodes]
[('abs_input', 'input'), ('abs', 'step'), ('RunnableParallel<a,b>', 'fork'), ('str', 'step'), ('float', 'step'), ('RunnableParallel<a,b>Output', 'join'), ('RunnableParallel<a,b>Output', 'output')]
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, final

import attrs

from combinators.nodes.binding import RunnableBinding
from combinators.graph.value import Edge, Graph, Group, Node, NodeKind

if TYPE_CHECKING:
    from combinators.runnable.composing import AnyRunnable


@final
@attrs.frozen
class Fragment:
    """A part of the graph with one entry node and one exit node (the same for a leaf).

    >>> Fragment("n1", "n1").entry
    'n1'
    """

    entry: str
    exit: str


@final
@attrs.frozen
class RunPlace:
    """Where a runnable runs: its parent run's path, the step tag it runs under, its run name.

    >>> RunPlace(("chain",), "seq:step:2", "model").path
    ('chain', 'seq:step:2')
    >>> RunPlace(("chain",), None, "model").path
    ('chain', 'model')
    """

    parent: tuple[str, ...]
    tag: str | None
    name: str

    @property
    def path(self) -> tuple[str, ...]:
        """The run's path: its parent's, then its step tag (or its name when untagged)."""
        return (*self.parent, self.tag if self.tag is not None else self.name)

    def inner(self, name: str) -> RunPlace:
        """The place of a part that runs inside this run's own place, untagged (an
        assign's mapper).

        >>> RunPlace(("chain",), "seq:step:1", "assign").inner("mapper").path
        ('chain', 'seq:step:1', 'mapper')
        """
        return RunPlace(self.path, None, name)

    def replaced_by(self, runnable: AnyRunnable) -> RunPlace:
        """The place of a runnable that runs *instead of* this one (a chosen alternative).

        >>> from combinators import RunnableLambda
        >>> RunPlace((), None, "alternatives").replaced_by(RunnableLambda(abs)).path
        ('abs',)
        """
        return RunPlace(self.parent, self.tag, run_name(runnable))


def run_name(runnable: AnyRunnable) -> str:
    """The name a runnable's run gets: a bound ``run_name`` (the outermost), else its name.

    >>> from combinators import RunnableLambda
    >>> run_name(RunnableLambda(abs).with_config(run_name="magnitude"))
    'magnitude'
    """
    while isinstance(runnable, RunnableBinding):
        if runnable.config.run_name:
            return runnable.config.run_name
        runnable = runnable.bound
    return runnable.name


def unwrapped(runnable: AnyRunnable) -> AnyRunnable:
    """``runnable`` without bindings (config, kwargs, listeners, types): they are not runs."""
    while isinstance(runnable, RunnableBinding):
        runnable = runnable.bound
    return runnable


@final
class GraphBuilder:
    """Collects nodes, edges and groups while runnables describe themselves (the hook's argument)."""

    __slots__ = ("_nodes", "_edges", "_groups")

    def __init__(self) -> None:
        self._nodes: list[Node] = []
        self._edges: list[Edge] = []
        self._groups: list[Group] = []

    def add_node(
        self,
        name: str,
        *,
        kind: NodeKind = "step",
        runnable: AnyRunnable | None = None,
        path: tuple[str, ...] = (),
    ) -> str:
        """Add a node (schemas and run type from ``runnable``); return its id."""
        id = f"n{len(self._nodes)}"
        if runnable is None:
            self._nodes.append(Node(id, name, kind, path=path))
        else:
            self._nodes.append(
                Node(
                    id,
                    name,
                    kind,
                    runnable.run_type,
                    runnable.input_schema(),
                    runnable.output_schema(),
                    path,
                )
            )
        return id

    def add_edge(self, source: str, target: str, *, conditional: bool = False, label: str | None = None) -> None:
        """Add an edge."""
        self._edges.append(Edge(source, target, conditional, label))

    def step(self, runnable: AnyRunnable, place: RunPlace, *, kind: NodeKind = "step") -> Fragment:
        """One node for a runnable that runs as a whole (a leaf); ``kind`` styles it."""
        id = self.add_node(place.name, kind=kind, runnable=runnable, path=place.path)
        return Fragment(id, id)

    def box(self, label: str, *, runnable: AnyRunnable | None = None, path: tuple[str, ...] = ()) -> Fragment:
        """One node of its own, labelled, as a fragment (a step that is no child's run)."""
        id = self.add_node(label, runnable=runnable, path=path)
        return Fragment(id, id)

    def name_of(self, runnable: AnyRunnable) -> str:
        """The name ``runnable`` runs under (its bindings' run name, else its own)."""
        return run_name(runnable)

    def child(self, runnable: AnyRunnable, parent: RunPlace, tag: str | None = None) -> Fragment:
        """The fragment of a child that ``parent``'s run runs under ``tag`` (bindings unwrapped)."""
        return self.at(runnable, RunPlace(parent.path, tag, run_name(runnable)))

    def at(self, runnable: AnyRunnable, place: RunPlace) -> Fragment:
        """The fragment of ``runnable`` running at ``place`` (bindings unwrapped)."""
        return unwrapped(runnable).graph_fragment(self, place)

    def series(self, fragments: Sequence[Fragment]) -> Fragment:
        """Fragments one after another."""
        for before, after in zip(fragments, fragments[1:]):
            self.add_edge(before.exit, after.entry)
        return Fragment(fragments[0].entry, fragments[-1].exit)

    def fork(
        self,
        owner: AnyRunnable,
        place: RunPlace | None,
        branches: Sequence[tuple[str | None, Fragment]],
        *,
        conditional: bool,
        name: str | None = None,
    ) -> Fragment:
        """Branches between a fork node (``owner``, at ``place`` when it is a run) and a join node.

        ``conditional``: one branch runs per call (its label says when); otherwise all run.
        ``name`` labels the fork when it is a choice inside ``owner`` rather than ``owner``
        itself (an agent's choice of tools).
        """
        fork = self.add_node(
            owner.name if name is None else name, kind="fork", runnable=owner, path=() if place is None else place.path
        )
        join_name = str(owner.output_schema().get("title", f"{owner.name}Output"))
        join = self.add_node(join_name, kind="join", runnable=owner)
        for label, fragment in branches:
            self.add_edge(fork, fragment.entry, conditional=conditional, label=label)
            self.add_edge(fragment.exit, join)
        return Fragment(fork, join)

    def embedded(self, inner: Graph, place: RunPlace, *, label: str, kind: str) -> Fragment:
        """``inner``'s body (its nodes between its input and its output) in a group of its
        own: a graph drawn elsewhere (a served chain's), running at ``place``. Its nodes'
        paths continue ``place``'s, as its runs are adopted below the run there."""
        ends = {inner.first_node().id, inner.last_node().id}
        body = [node for node in inner.nodes if node.id not in ends]
        if not body:
            return self.box(label, path=place.path)
        start = len(self._nodes)
        new = {node.id: f"n{start + i}" for i, node in enumerate(body)}
        self._nodes += [attrs.evolve(node, id=new[node.id], path=(*place.path, *node.path)) for node in body]
        self._edges += [
            attrs.evolve(edge, source=new[edge.source], target=new[edge.target])
            for edge in inner.edges
            if edge.source in new and edge.target in new
        ]
        for group in inner.groups:
            members = tuple(new[id] for id in group.nodes if id in new)
            self._groups.append(Group(f"g{len(self._groups)}", group.label, group.kind, members))
        self._groups.append(Group(f"g{len(self._groups)}", label, kind, tuple(new.values())))
        entries = [new[e.target] for e in inner.edges if e.source in ends and e.target in new]
        exits = [new[e.source] for e in inner.edges if e.target in ends and e.source in new]
        return Fragment(entries[0] if entries else new[body[0].id], exits[0] if exits else new[body[-1].id])

    @contextmanager
    def grouped(self, label: str, kind: str) -> Generator[None, None, None]:
        """Put the nodes added inside the ``with`` block in a group (retry, each)."""
        start = len(self._nodes)
        yield
        ids = tuple(n.id for n in self._nodes[start:])
        self._groups.append(Group(f"g{len(self._groups)}", label, kind, ids))

    def graph(self) -> Graph:
        """The graph built so far, numbered in running order (a fork before its branches)."""
        order = _running_order([n.id for n in self._nodes], self._edges)
        new = {old: f"n{i}" for i, old in enumerate(order)}
        rank = {old: i for i, old in enumerate(order)}
        by_id = {n.id: n for n in self._nodes}
        nodes = tuple(attrs.evolve(by_id[old], id=new[old]) for old in order)
        edges = tuple(
            attrs.evolve(e, source=new[e.source], target=new[e.target])
            for e in sorted(self._edges, key=lambda e: (rank[e.source], rank[e.target]))
        )
        groups = tuple(
            attrs.evolve(g, nodes=tuple(new[i] for i in sorted(g.nodes, key=rank.__getitem__))) for g in self._groups
        )
        return Graph(nodes, edges, groups)


def _running_order(ids: list[str], edges: list[Edge]) -> list[str]:
    """Topological order, depth first along edges in the order they were added."""
    successors: dict[str, list[str]] = {i: [] for i in ids}
    waiting = dict.fromkeys(ids, 0)
    for edge in edges:
        successors[edge.source].append(edge.target)
        waiting[edge.target] += 1
    ready = [i for i in reversed(ids) if not waiting[i]]
    order: list[str] = []
    while ready:
        current = ready.pop()
        order.append(current)
        for target in reversed(successors[current]):
            waiting[target] -= 1
            if not waiting[target]:
                ready.append(target)
    return order + [i for i in ids if i not in set(order)]


def graph_of(runnable: AnyRunnable) -> Graph:
    """The graph of ``runnable``: its input node, its expanded body, its output node."""
    builder = GraphBuilder()
    first = builder.add_node(_title(runnable.input_schema(), runnable, "Input"), kind="input", runnable=runnable)
    body = builder.at(runnable, RunPlace((), None, run_name(runnable)))
    last = builder.add_node(_title(runnable.output_schema(), runnable, "Output"), kind="output", runnable=runnable)
    builder.add_edge(first, body.entry)
    builder.add_edge(body.exit, last)
    return builder.graph()


def _title(schema: Mapping[str, object], runnable: AnyRunnable, suffix: str) -> str:
    return str(schema.get("title", f"{runnable.name}{suffix}"))
