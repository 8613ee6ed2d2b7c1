"""Properties of the graph of any generated chain: one entry, one exit, every step present, DOT that Graphviz reads."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from typing import Any, cast

from hypothesis import given, settings

from combinators import (
    Runnable,
    RunnableAssign,
    RunnableBind,
    RunnableBinding,
    RunnableBranch,
    RunnableEach,
    RunnableLambda,
    RunnableParallel,
    RunnableParallelTuple,
    RunnableRetry,
    RunnableSequence,
    RunnableWithFallbacks,
)
from combinators.graph import Graph
from combinators.testing import runnables
from tests.unit.combinators.graph.test_graph_drawings import require_dot


def expected_steps(chain: Runnable[Any, Any]) -> list[str]:
    """The steps a drawing must show, by name (an oracle written apart from the derivation)."""
    if isinstance(chain, RunnableBinding):
        bound = cast(RunnableBinding[Any, Any], chain)
        inner = expected_steps(bound.bound)
        return [bound.config.run_name] if bound.config.run_name and len(inner) == 1 else inner
    if isinstance(chain, RunnableSequence):
        return [s for step in chain.steps for s in expected_steps(step)]
    if isinstance(chain, RunnableParallel):
        return [chain.name, *(s for step in chain.steps.values() for s in expected_steps(step))]
    if isinstance(chain, RunnableParallelTuple):
        return [chain.name, *(s for step in chain.branches for s in expected_steps(step))]
    if isinstance(chain, RunnableAssign):
        branches = [s for step in chain.mapper.steps.values() for s in expected_steps(step)]
        return [chain.name, *branches, "RunnablePassthrough"]
    if isinstance(chain, RunnableBranch):
        targets = [t for _, t in chain.branches] + [chain.default]
        return [chain.name, *(s for t in targets for s in expected_steps(t))]
    if isinstance(chain, RunnableWithFallbacks):
        return [chain.name, *(s for r in chain.runnables for s in expected_steps(r))]
    if isinstance(chain, RunnableRetry | RunnableEach):
        return expected_steps(cast(Any, chain).bound)
    if isinstance(chain, RunnableBind):
        return [*expected_steps(chain.first), "bind"]
    return [chain.name]


def reachable(graph: Graph, start: str, forward: bool) -> set[str]:
    seen = {start}
    stack = [start]
    while stack:
        current = stack.pop()
        for nxt in graph.successors(current) if forward else graph.predecessors(current):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


@settings(max_examples=60, deadline=None)
@given(runnables(int, str, max_leaves=7))
def test_every_chain_has_one_entry_one_exit_and_all_its_steps(chain: Runnable[int, str]) -> None:
    graph = chain.get_graph()
    first, last = graph.first_node(), graph.last_node()
    assert (first.kind, last.kind) == ("input", "output")
    ids = {n.id for n in graph.nodes}
    assert reachable(graph, first.id, True) == ids
    assert reachable(graph, last.id, False) == ids
    shown = [n.name.split("(")[0] for n in graph.nodes if n.kind not in ("input", "output", "join")]
    assert Counter(shown) == Counter(expected_steps(chain))
    drawn = graph.draw_ascii()  # series-parallel, so the box drawing never refuses it
    assert all(f"| {name}" in drawn for name in shown)
    for group in graph.groups:
        assert set(group.nodes) <= ids
        # every frame, nested ones too, once
        assert drawn.count(f"- {group.label} -") == sum(g.label == group.label for g in graph.groups)
    # Each node is declared once, in its innermost group (graphviz keeps a node in one cluster).
    dot_lines = [line.strip() for line in graph.draw_dot().splitlines()]
    assert all(sum(line.startswith(f'"{id}" [') for line in dot_lines) == 1 for id in ids)
    mermaid_lines = [line.strip() for line in graph.draw_mermaid().splitlines()]
    assert all(sum(line.startswith((f"{id}[", f"{id}(", f"{id}{{")) for line in mermaid_lines) == 1 for id in ids)


@settings(max_examples=25, deadline=None)
@given(runnables(int, str, max_leaves=6))
def test_the_dot_of_every_chain_parses_with_graphviz(chain: Runnable[int, str]) -> None:
    dot = shutil.which("dot") or require_dot()
    graph = chain.get_graph()
    done = subprocess.run([dot, "-Tcanon"], input=graph.draw_dot().encode(), capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    canon = done.stdout.decode()
    assert all(f"{n.id}\t[" in canon or f"{n.id} [" in canon for n in graph.nodes)


@settings(max_examples=40, deadline=None)
@given(runnables(int, str, max_leaves=6))
def test_a_graph_read_back_from_its_json_is_the_same_graph(chain: Runnable[int, str]) -> None:
    graph = chain.get_graph()
    assert Graph.from_json(json.loads(json.dumps(graph.to_json()))) == graph


@settings(max_examples=40, deadline=None)
@given(runnables(int, str, max_leaves=6))
def test_a_served_chains_graph_drawn_inside_a_remote_runnable_keeps_its_steps(chain: Runnable[int, str]) -> None:
    from combinators.integrations.serving import RemoteRunnable

    served = chain.get_graph()
    remote: RemoteRunnable[int, str] = RemoteRunnable("http://127.0.0.1:9/served", graph=served)
    graph = (RunnableLambda(abs) | remote).get_graph()
    ids = {n.id for n in graph.nodes}
    first, last = graph.first_node(), graph.last_node()
    assert reachable(graph, first.id, True) == ids and reachable(graph, last.id, False) == ids
    inside = [n.name for n in served.nodes[1:-1]]
    assert [n.name for n in graph.nodes[2:-1]] == inside  # the served body, in its running order
    [frame] = [g for g in graph.groups if g.kind == "remote"]
    assert [graph.node(id).name for id in frame.nodes] == inside
    drawn = graph.draw_ascii()  # joins are bars, not boxes
    assert all(f"| {n.name}" in drawn for n in served.nodes[1:-1] if n.kind != "join")
    for group in graph.groups:
        assert set(group.nodes) <= ids
