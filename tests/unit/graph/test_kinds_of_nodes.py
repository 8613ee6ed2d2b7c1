"""Remote runnables and agents are drawn as such (the issue's "visible as such in every drawing")."""

from __future__ import annotations

from combinators.components import ScriptedChatModel, tool
from combinators.components.agents import agent_loop
from combinators.integrations.serving import RemoteRunnable


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def test_an_agent_is_one_node_of_kind_agent_in_every_drawing() -> None:
    graph = (agent_loop(ScriptedChatModel(["done"]), [add]) | (lambda r: r.output)).get_graph()
    kinds = {node.name: node.kind for node in graph.nodes}
    assert "agent" in kinds.values()
    assert "[agent]" in graph.draw_ascii()
    assert "peripheries=2" in graph.draw_dot()


def test_a_remote_runnable_is_one_node_of_kind_remote_in_every_drawing() -> None:
    remote: RemoteRunnable[str, str] = RemoteRunnable("http://127.0.0.1:9/chat")
    graph = ((lambda s: s.strip()) | remote).get_graph()
    assert [node.kind for node in graph.nodes].count("remote") == 1
    assert "[remote]" in graph.draw_ascii()
    assert "dashed" in graph.draw_dot()
    remote.close()
