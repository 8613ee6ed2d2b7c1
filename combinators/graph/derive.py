"""``get_graph()``: a runnable's ``Graph``, containers expanded, derived from the value alone.

Every runnable describes itself through one hook, ``Runnable.graph_fragment(graph, place)``:
a leaf adds one node, a container adds its children's fragments and joins them. The
library's own containers are described here (one rule per node type); a runnable of
your own, or one declared elsewhere (an agent, a remote runnable), overrides the hook.

>>> from combinators import RunnableLambda, RunnableParallel
>>> chain = RunnableLambda(abs) | RunnableParallel(a=RunnableLambda(str), b=RunnableLambda(float))
>>> [(n.name, n.kind) for n in graph_of(chain).nodes]
[('RunnableSequenceInput', 'input'), ('abs', 'step'), ('RunnableParallel<a,b>', 'fork'), ('str', 'step'), ('float', 'step'), ('RunnableParallel<a,b>Output', 'join'), ('RunnableSequenceOutput', 'output')]
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast, final

import attrs

from combinators import (
    RunnableAssign,
    RunnableBind,
    RunnableBinding,
    RunnableBranch,
    RunnableEach,
    RunnableParallel,
    RunnableParallelTuple,
    RunnableRetry,
    RunnableSequence,
    RunnableWithFallbacks,
)
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
    ) -> Fragment:
        """Branches between a fork node (``owner``, at ``place`` when it is a run) and a join node.

        ``conditional``: one branch runs per call (its label says when); otherwise all run.
        """
        fork = self.add_node(owner.name, kind="fork", runnable=owner, path=() if place is None else place.path)
        join_name = str(owner.output_schema().get("title", f"{owner.name}Output"))
        join = self.add_node(join_name, kind="join", runnable=owner)
        for label, fragment in branches:
            self.add_edge(fork, fragment.entry, conditional=conditional, label=label)
            self.add_edge(fragment.exit, join)
        return Fragment(fork, join)

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


def _title(schema: dict[str, Any], runnable: AnyRunnable, suffix: str) -> str:
    return str(schema.get("title", f"{runnable.name}{suffix}"))


def library_fragment(runnable: AnyRunnable, graph: GraphBuilder, place: RunPlace) -> Fragment:
    """The library's nodes: containers expanded by their rule, anything else one step."""
    if isinstance(runnable, RunnableSequence):
        steps = [graph.child(s, place, f"seq:step:{i}") for i, s in enumerate(runnable.steps, 1)]
        return graph.series(steps)
    if isinstance(runnable, RunnableParallel):
        keyed = [(None, graph.child(s, place, f"map:key:{k}")) for k, s in runnable.steps.items()]
        return graph.fork(runnable, place, keyed, conditional=False)
    if isinstance(runnable, RunnableParallelTuple):
        indexed = [(None, graph.child(s, place, f"map:key:{i}")) for i, s in enumerate(runnable.branches)]
        return graph.fork(runnable, place, indexed, conditional=False)
    if isinstance(runnable, RunnableAssign):
        return _assign(runnable, graph, place)
    if isinstance(runnable, RunnableBranch):
        return _branch(runnable, graph, place)
    if isinstance(runnable, RunnableWithFallbacks):
        labels = ["primary", *(f"fallback {i}" for i in range(1, len(runnable.fallbacks) + 1))]
        tried = [(label, graph.child(r, place)) for label, r in zip(labels, runnable.runnables)]
        return graph.fork(runnable, place, tried, conditional=True)
    if isinstance(runnable, RunnableRetry):
        retried: RunnableRetry[Any, Any] = runnable
        with graph.grouped(f"retry ({retried.policy.max_attempts} attempts)", "retry"):
            return graph.child(retried.bound, place)
    if isinstance(runnable, RunnableEach):
        each_one: AnyRunnable = cast(Any, runnable).bound  # RunnableEach[A, B] is generic apart
        with graph.grouped("each (per element)", "each"):
            return graph.child(each_one, place)
    if isinstance(runnable, RunnableBind):
        then = getattr(runnable.then, "__name__", "f")
        first = graph.child(runnable.first, place)
        chosen = graph.add_node(f"bind({then})", runnable=runnable, path=place.path)
        return graph.series([first, Fragment(chosen, chosen)])
    return graph.step(runnable, place)


def _assign(runnable: RunnableAssign, graph: GraphBuilder, place: RunPlace) -> Fragment:
    mapper = RunPlace(place.path, None, runnable.mapper.name)
    keyed = [(None, graph.child(s, mapper, f"map:key:{k}")) for k, s in runnable.mapper.steps.items()]
    kept = graph.add_node("RunnablePassthrough")
    return graph.fork(runnable, place, [*keyed, (None, Fragment(kept, kept))], conditional=False)


def _branch(runnable: RunnableBranch[Any, Any], graph: GraphBuilder, place: RunPlace) -> Fragment:
    arms: list[tuple[str | None, Fragment]] = []
    for i, (condition, target) in enumerate(runnable.branches, 1):
        shown = run_name(condition)
        label = f"condition {i}" if shown == "RunnableLambda" else shown
        arms.append((label, graph.child(target, place, f"branch:{i}")))
    arms.append(("default", graph.child(runnable.default, place, "branch:default")))
    return graph.fork(runnable, place, arms, conditional=True)
