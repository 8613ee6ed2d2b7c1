"""Remote runnables and agents are drawn as such (the issue's "visible as such in every drawing")."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from combinators.graph import Graph
from combinators.language_models import ScriptedChatModel
from combinators.prompts import ChatPromptTemplate
from combinators.tools import tool
from combinators.agents import AgentExecutor, LoopPolicy, agent_loop, create_tool_calling_agent
from combinators.integrations.serving import RemoteRunnable

PROMPT = ChatPromptTemplate.from_messages([("human", "{input}"), ("placeholder", "{agent_scratchpad}")])


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@tool
def halve(x: int) -> float:
    """Halve a number."""
    return x / 2


def test_an_agent_is_one_node_of_kind_agent_in_every_drawing() -> None:
    graph = (agent_loop(ScriptedChatModel(["done"]), [add]) | (lambda r: r.output)).get_graph()
    kinds = [node.kind for node in graph.nodes]
    assert "agent" in kinds and kinds.count("agent") == 1
    assert "[agent]" in graph.draw_ascii()
    agent_lines = [line for line in graph.draw_dot().splitlines() if "peripheries=2" in line]
    assert len(agent_lines) == 1 and "AgentLoop" in agent_lines[0] and "#d9730d" in agent_lines[0]
    assert '["AgentLoop"]:::agent' in graph.draw_mermaid()


def test_a_remote_runnable_is_one_node_of_kind_remote_in_every_drawing() -> None:
    remote: RemoteRunnable[str, str] = RemoteRunnable("http://127.0.0.1:9/chat")
    graph = ((lambda s: s.strip()) | remote).get_graph()
    assert [node.kind for node in graph.nodes].count("remote") == 1
    assert "[remote]" in graph.draw_ascii()
    assert "dashed" in graph.draw_dot()
    remote_lines = [line for line in graph.draw_dot().splitlines() if "#1f6feb" in line and "dashed" in line]
    assert len(remote_lines) == 1 and "RemoteRunnable" in remote_lines[0]
    assert '[/"RemoteRunnable"/]:::remote' in graph.draw_mermaid()
    remote.close()


def test_an_agent_draws_its_inside_the_model_then_its_tools() -> None:
    graph = agent_loop(ScriptedChatModel(["done"]), [add, halve]).get_graph()
    names = [(node.name, node.kind) for node in graph.nodes]
    assert names[1:3] == [("AgentLoop", "agent"), ("ScriptedChatModel", "step")]
    assert ("add", "step") in names and ("halve", "step") in names
    conditional = sorted(e.label for e in graph.edges if e.conditional)
    assert conditional == ["add", "halve"]


def _loop_drawing(graph: Graph, agent: str, label: str) -> None:
    names = [(node.name, node.kind) for node in graph.nodes]
    assert names == [
        (f"{agent}Input", "input"),
        (agent, "agent"),
        ("ChatPromptTemplate", "step"),
        ("ScriptedChatModel", "step"),
        ("tools", "fork"),
        ("add", "step"),
        ("halve", "step"),
        ("AgentLoopOutput", "join"),
        (f"{agent}Output", "output"),
    ]
    [loop] = graph.groups
    assert loop.kind == "loop" and loop.label == label
    assert [graph.node(i).name for i in loop.nodes] == [name for name, _ in names[2:8]]
    plain = sorted((graph.node(e.source).name, graph.node(e.target).name) for e in graph.edges if not e.conditional)
    assert (agent, "ChatPromptTemplate") in plain and ("ChatPromptTemplate", "ScriptedChatModel") in plain
    assert ("ScriptedChatModel", "tools") in plain and ("AgentLoopOutput", f"{agent}Output") in plain
    assert sorted(str(e.label) for e in graph.edges if e.conditional) == ["add", "halve"]
    assert label in graph.draw_ascii()
    assert f'subgraph g0 ["{label}"]' in graph.draw_mermaid()


BOUNDED = "loop (until the model answers, at most 15 model calls)"


def test_an_agent_loop_draws_its_prompt_model_and_tools_inside_the_loop() -> None:
    _loop_drawing(
        agent_loop(ScriptedChatModel(["done"]), [add, halve], prompt=PROMPT).get_graph(), "AgentLoop", BOUNDED
    )


def test_an_agent_executor_draws_the_loop_it_runs_under_its_own_node() -> None:
    model = ScriptedChatModel(["done"])
    agent = create_tool_calling_agent(model, [add, halve], PROMPT)
    _loop_drawing(AgentExecutor(agent=agent, tools=[add, halve]).get_graph(), "AgentExecutor", BOUNDED)
    unbounded = AgentExecutor(agent=agent, tools=[add, halve], max_iterations=None)
    _loop_drawing(unbounded.get_graph(), "AgentExecutor", "loop (until the model answers)")


def test_a_bounded_loop_says_its_bound_and_graphviz_reads_the_cluster() -> None:
    policy = LoopPolicy(max_iterations=3)
    graph = agent_loop(ScriptedChatModel(["done"]), [add], policy=policy).get_graph()
    [loop] = graph.groups
    assert loop.label == "loop (until the model answers, at most 3 model calls)"
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    canon = subprocess.run(["dot", "-Tcanon"], input=graph.draw_dot().encode(), capture_output=True, check=True)
    text = canon.stdout.decode()
    assert "subgraph cluster_g0" in text and 'label="loop (until the model answers, at most 3 model calls)"' in text


def test_a_remote_runnable_is_one_node_carrying_the_servers_schemas() -> None:
    # The server publishes schemas, not a graph (as LangServe): the node carries them once known.
    served = ({"title": "ChatInput", "type": "string"}, {"title": "ChatOutput", "type": "integer"})
    remote: RemoteRunnable[str, int] = RemoteRunnable("http://127.0.0.1:9/chat", schemas=served)
    graph = remote.get_graph()
    [node] = [n for n in graph.nodes if n.kind == "remote"]
    assert (node.input_schema, node.output_schema) == served
    assert [n.name for n in graph.nodes] == ["ChatInput", "RemoteRunnable", "ChatOutput"]
    remote.close()
