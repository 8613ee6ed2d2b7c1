"""Remote runnables and agents are drawn as such (the issue's "visible as such in every drawing")."""

from __future__ import annotations

from combinators.language_models import ScriptedChatModel
from combinators.tools import tool
from combinators.agents import agent_loop
from combinators.integrations.serving import RemoteRunnable


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


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
    @tool
    def halve(x: int) -> float:
        """Halve a number."""
        return x / 2

    graph = agent_loop(ScriptedChatModel(["done"]), [add, halve]).get_graph()
    names = [(node.name, node.kind) for node in graph.nodes]
    assert names[1:3] == [("AgentLoop", "agent"), ("ScriptedChatModel", "step")]
    assert ("add", "step") in names and ("halve", "step") in names
    conditional = sorted(e.label for e in graph.edges if e.conditional)
    assert conditional == ["add", "halve"]
