"""Our chain inside LangGraph: as a StateGraph node through to_langchain (invoke, stream
with stream_mode="messages" showing our model's tokens, and "updates"), and called from a
plain node with LangGraph's config, whose callback manager parents our runs. Each equals the
same graph with a chain of langchain-core's own parts."""

from typing import Any

from langchain_core.language_models import FakeListChatModel as TheirFakeModel
from langchain_core.messages import BaseMessage as TheirMessage
from langchain_core.runnables import Runnable as TheirRunnable
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables import RunnableLambda as TheirLambda
from langgraph.graph import END, START, MessagesState, StateGraph  # pyright: ignore[reportMissingTypeStubs]

from combinators import Runnable, RunnableLambda
from combinators.integrations.langchain import to_langchain, to_ours
from combinators.language_models import FakeListChatModel
from tests.unit.combinators.integrations.langchain.recording import Recorder, tree


def _messages(state: dict[str, Any]) -> Any:
    return state["messages"]


def _update(message: Any) -> dict[str, Any]:
    return {"messages": [message]}


def ours() -> Runnable[Any, Any]:
    return (
        RunnableLambda(_messages, name="messages")
        | FakeListChatModel(responses=["hi there"])
        | RunnableLambda(_update, name="update")
    )


def theirs() -> TheirRunnable[Any, Any]:
    return (
        TheirLambda(_messages, name="messages")
        | TheirFakeModel(responses=["hi there"])
        | TheirLambda(_update, name="update")
    )


def graph(node: Any) -> Any:
    built: Any = StateGraph(MessagesState)
    built.add_node("chat", node)
    built.add_edge(START, "chat")
    built.add_edge("chat", END)
    return built.compile()


INPUT: Any = {"messages": [("human", "hello")]}


def _texts(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m.type, m.text) for m in state["messages"]]


def test_our_chain_as_a_node_invokes_as_langchains_own() -> None:
    mine, peer = Recorder(), Recorder()
    # Bound, LangChain's chain stays one run inside the node (LangGraph flattens a bare
    # RunnableSequence into the node's own sequence; ours is one runnable to it).
    got = graph(to_langchain(ours().with_config(tags=["node"]))).invoke(INPUT, {"callbacks": [mine]})
    expected = graph(theirs().with_config(tags=["node"])).invoke(INPUT, {"callbacks": [peer]})
    assert _texts(got) == _texts(expected) == [("human", "hello"), ("ai", "hi there")]
    assert isinstance(got["messages"][-1], TheirMessage)
    runs = tree(mine.calls)
    assert runs == tree(peer.calls)
    assert ("LangGraph", "chat", "RunnableSequence", "FakeListChatModel") in runs


def test_stream_mode_messages_shows_our_models_tokens() -> None:
    got = [
        (m.text, meta["langgraph_node"])
        for m, meta in graph(to_langchain(ours())).stream(INPUT, stream_mode="messages")
    ]
    expected = [(m.text, meta["langgraph_node"]) for m, meta in graph(theirs()).stream(INPUT, stream_mode="messages")]
    assert got == expected
    assert "".join(text for text, _ in got) == "hi there" and len(got) == len("hi there")


def test_stream_mode_updates() -> None:
    def shape(update: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
        return [(node, _texts(value)) for node, value in update.items()]

    got = [shape(u) for u in graph(to_langchain(ours())).stream(INPUT, stream_mode="updates")]
    expected = [shape(u) for u in graph(theirs()).stream(INPUT, stream_mode="updates")]
    assert got == expected == [[("chat", [("ai", "hi there")])]]


async def test_async_stream_mode_messages() -> None:
    app = graph(to_langchain(ours()))
    got = [m.text async for m, _ in app.astream(INPUT, stream_mode="messages")]
    assert "".join(got) == "hi there"


def test_a_plain_node_passing_langgraphs_config_parents_our_runs() -> None:
    chain = ours()

    def node(state: dict[str, Any], config: RunnableConfig) -> Any:
        # LangGraph's config as is; the state's values as ours and back.
        return to_langchain(chain.invoke(to_ours(state), config))  # type: ignore[arg-type]

    def their_node(state: dict[str, Any], config: RunnableConfig) -> Any:
        return theirs().invoke(state, config)

    mine, peer = Recorder(), Recorder()
    graph(node).invoke(INPUT, {"callbacks": [mine]})
    graph(their_node).invoke(INPUT, {"callbacks": [peer]})
    runs = tree(mine.calls)
    assert runs == tree(peer.calls)
    assert ("LangGraph", "chat", "RunnableSequence", "update") in runs
