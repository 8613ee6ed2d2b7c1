"""``get_graph()``: every node type's shape, schemas, failed steps, and the hook for nodes of your own."""

from __future__ import annotations

import json
from typing import Any, final

import attrs
import pytest

from combinators import (
    ConfigurableField,
    RouterRunnable,
    Runnable,
    RunnableBranch,
    RunnableLambda,
    RunnableParallel,
    RunnablePassthrough,
    RunnablePick,
    parallel,
    pure,
)
from combinators.graph import Fragment, Graph, GraphBuilder, RunPlace
from effects import Scope
from effects.projections.recording import record, replay
from tests.run_effects import effects_of


def inc(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


def positive(x: int) -> bool:
    return x > 0


def fail(x: int) -> int:
    raise ValueError(f"no {x}")


def steps(graph: Graph) -> list[str]:
    return [n.name for n in graph.nodes if n.kind not in ("input", "output", "join")]


def edges(graph: Graph) -> list[tuple[str, str, bool, str | None]]:
    name = {n.id: n.name for n in graph.nodes}
    return [(name[e.source], name[e.target], e.conditional, e.label) for e in graph.edges]


def test_a_leaf_is_one_node_between_the_input_and_the_output() -> None:
    graph = RunnableLambda(inc).get_graph()
    assert [(n.id, n.name, n.kind) for n in graph.nodes] == [
        ("n0", "inc_input", "input"),
        ("n1", "inc", "step"),
        ("n2", "inc_output", "output"),
    ]
    assert edges(graph) == [("inc_input", "inc", False, None), ("inc", "inc_output", False, None)]
    assert graph.node("n1").input_schema == {"title": "inc_input", "type": "integer"}
    assert graph.node("n1").output_schema == {"title": "inc_output", "type": "integer"}
    assert graph.first_node().name == "inc_input" and graph.last_node().name == "inc_output"


def test_containers_are_expanded() -> None:
    chain = (
        RunnableLambda(inc)
        | RunnableParallel(a=RunnableLambda(double), b=RunnablePassthrough[int]())
        | RunnablePick("a")
    )
    graph = chain.get_graph()
    assert steps(graph) == ["inc", "RunnableParallel<a,b>", "double", "RunnablePassthrough", "RunnablePick<a>"]
    assert edges(graph) == [
        ("inc_input", "inc", False, None),
        ("inc", "RunnableParallel<a,b>", False, None),
        ("RunnableParallel<a,b>", "double", False, None),
        ("RunnableParallel<a,b>", "RunnablePassthrough", False, None),
        ("double", "RunnableParallel<a,b>Output", False, None),
        ("RunnablePassthrough", "RunnableParallel<a,b>Output", False, None),
        ("RunnableParallel<a,b>Output", "RunnablePick<a>", False, None),
        ("RunnablePick<a>", "RunnablePick<a>Output", False, None),
    ]


def test_branches_fallbacks_router_and_alternatives_fork_conditionally() -> None:
    branch = RunnableBranch((positive, RunnableLambda(inc)), RunnableLambda(double))
    assert [e[3] for e in edges(branch.get_graph()) if e[2]] == ["positive", "default"]
    fallbacks = RunnableLambda(fail).with_fallbacks([RunnableLambda(inc), RunnableLambda(double)])
    assert [(e[1], e[3]) for e in edges(fallbacks.get_graph()) if e[2]] == [
        ("fail", "primary"),
        ("inc", "fallback 1"),
        ("double", "fallback 2"),
    ]
    router = RouterRunnable({"up": RunnableLambda(inc), "twice": RunnableLambda(double)})
    assert [(e[1], e[3]) for e in edges(router.get_graph()) if e[2]] == [("inc", "up"), ("double", "twice")]
    alternatives = RunnableLambda(inc).configurable_alternatives(
        ConfigurableField(id="op"), default_key="inc", twice=RunnableLambda(double)
    )
    assert [(e[1], e[3]) for e in edges(alternatives.get_graph()) if e[2]] == [
        ("inc", "op=inc (default)"),
        ("double", "op=twice"),
    ]


def test_wrappers_group_or_pass_through() -> None:
    retried = (RunnableLambda(inc) | RunnableLambda(double)).with_retry(stop_after_attempt=4)
    graph = retried.get_graph()
    assert steps(graph) == ["inc", "double"]
    assert [(g.label, g.kind, [graph.node(i).name for i in g.nodes]) for g in graph.groups] == [
        ("retry (4 attempts)", "retry", ["inc", "double"])
    ]
    each = RunnableLambda(inc).each().get_graph()
    assert [(g.kind, len(g.nodes)) for g in each.groups] == [("each", 1)]
    bound = RunnableLambda(inc).with_config(run_name="increment").with_kwargs().with_listeners()
    assert steps(bound.get_graph()) == ["increment"]
    fields = pure(1).configurable_fields(value=ConfigurableField(id="v"))
    assert steps(fields.get_graph()) == ["pure"]


def test_assign_parallel_tuple_and_bind() -> None:
    assign = RunnablePassthrough.assign(n=RunnableLambda(len)).get_graph()
    assert steps(assign) == ["RunnableAssign<n>", "len", "RunnablePassthrough"]
    pair = parallel(RunnableLambda(inc), RunnableLambda(double)).get_graph()
    assert steps(pair) == ["RunnableParallel<0,1>", "inc", "double"]

    def choose(n: int) -> Runnable[int, int]:
        return RunnableLambda(double) if n > 1 else pure(0)

    bind = RunnableLambda(inc).bind(choose).get_graph()
    assert steps(bind) == ["inc", "bind(choose)"]


def test_a_graph_is_a_value() -> None:
    chain = RunnableLambda(inc) | RunnableParallel(a=RunnableLambda(double))
    assert chain.get_graph() == chain.get_graph()
    assert hash(chain.get_graph()) == hash(chain.get_graph())
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        chain.get_graph().nodes = ()  # type: ignore[misc]
    data = chain.get_graph().to_json()
    assert json.loads(json.dumps(data)) == data
    assert [n["kind"] for n in data["nodes"]] == ["input", "step", "fork", "step", "join", "output"]


def test_failed_steps_are_marked_live_and_from_a_recording() -> None:
    chain = RunnableLambda(inc) | RunnableParallel(ok=RunnableLambda(double), broken=RunnableLambda(fail))
    effects = effects_of(chain, 1)
    live = chain.get_graph().marked(effects)
    status = {n.name: n.status for n in live.nodes}
    assert status["fail"] == "failed" and status["inc"] == "ok"
    assert status["RunnableParallel<ok,broken>"] is None  # it failed only because a branch did
    replayed = chain.get_graph().marked(replay(list(record(effects))))
    assert replayed == live
    for drawing in (live.draw_ascii(), live.draw_mermaid(), live.draw_dot()):
        assert "fail" in drawing
    assert "fail [FAILED]" in live.draw_ascii()
    assert 'n4["fail"]:::failed' in live.draw_mermaid() or ":::failed" in live.draw_mermaid()
    assert 'label="fail\\n(failed)", fillcolor="#ffd6d6"' in live.draw_dot()


def test_a_retry_that_recovers_and_a_fallback_that_takes_over_are_told_apart() -> None:
    calls: list[int] = []

    def flaky(x: int) -> int:
        calls.append(x)
        if len(calls) < 2:
            raise ValueError("first try")
        return x

    chain = RunnableLambda(flaky).with_retry(wait_exponential_jitter=False) | RunnableLambda(fail).with_fallbacks(
        [RunnableLambda(inc)]
    )
    status = {n.name: n.status for n in chain.get_graph().marked(effects_of(chain, 3)).nodes}
    assert status["flaky"] == "ok" and status["fail"] == "failed" and status["inc"] == "ok"


@final
@attrs.frozen
class Remote(Runnable[str, str]):
    """A stand-in for a runnable served elsewhere: it marks itself with the graph hook."""

    url: str

    def step_invoke(self, input: str, scope: Scope, kwargs: Any) -> str:
        return input

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        return graph.step(self, place, kind="remote")


@final
@attrs.frozen
class Agent(Runnable[str, str]):
    """A stand-in agent that expands into its model and its tools."""

    model: Runnable[str, str]
    tools: tuple[Runnable[str, str], ...]

    def step_invoke(self, input: str, scope: Scope, kwargs: Any) -> str:
        return input

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        agent = graph.step(self, place, kind="agent")
        model = graph.child(self.model, place)
        tools = graph.fork(self, None, [(t.name, graph.child(t, place)) for t in self.tools], conditional=True)
        return graph.series([agent, model, tools])


def shout(text: str) -> str:
    return text.upper()


def test_remote_runnables_and_agents_are_marked_in_every_drawing() -> None:
    chain = (
        RunnableLambda(shout)
        | Remote("http://127.0.0.1:1/chain")
        | Agent(RunnableLambda(str.strip), (RunnableLambda(str.lower), RunnableLambda(str.title)))
    )
    graph = chain.get_graph()
    kinds = [(n.name, n.kind) for n in graph.nodes if n.name in ("Remote", "Agent")]
    assert kinds == [("Remote", "remote"), ("Agent", "agent"), ("Agent", "fork")]
    assert "| Remote [remote] |" in graph.draw_ascii() and "| Agent [agent] |" in graph.draw_ascii()
    mermaid = graph.draw_mermaid()
    assert '[/"Remote"/]:::remote' in mermaid and '["Agent"]:::agent' in mermaid
    assert "classDef remote" in mermaid and "classDef agent" in mermaid
    dot = graph.draw_dot()
    assert 'label="Remote\\n(remote)", style="rounded,filled,dashed"' in dot
    assert 'label="Agent\\n(agent)", fillcolor="#fff0e0", color="#d9730d", peripheries=2' in dot
    assert [e.label for e in graph.edges if e.conditional] == ["lower", "title"]


def test_ascii_refuses_a_graph_that_is_not_series_parallel() -> None:
    from combinators.graph import Edge, Node

    crossed = Graph(
        tuple(Node(i, i) for i in "sabt"),
        (Edge("s", "a"), Edge("s", "b"), Edge("a", "b"), Edge("a", "t"), Edge("b", "t")),
    )
    with pytest.raises(ValueError, match="series-parallel"):
        crossed.draw_ascii()
