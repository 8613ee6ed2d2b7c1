"""A compiled LangGraph graph wrapped with from_langchain: invoked, batched and streamed
(its own stream modes), its nodes shown as our inner runs."""

import asyncio
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from combinators import Runnable, RunnableLambda
from effects import RunEnded, RunStarted, RunStreamed

from combinators.integrations.langchain import from_langchain


class Story(TypedDict):
    text: str
    steps: int


def shout(story: Story) -> dict[str, Any]:
    return {"text": story["text"].upper(), "steps": story["steps"] + 1}


def exclaim(story: Story) -> dict[str, Any]:
    return {"text": story["text"] + "!", "steps": story["steps"] + 1}


def compiled() -> Any:
    graph = StateGraph(Story)
    graph.add_node("shout", shout)
    graph.add_node("exclaim", exclaim)
    graph.add_edge(START, "shout")
    graph.add_edge("shout", "exclaim")
    graph.add_edge("exclaim", END)
    return graph.compile()


def test_a_compiled_graph_runs_inside_our_chain() -> None:
    graph: Runnable[dict[str, Any], dict[str, Any]] = from_langchain(compiled(), dict, dict)
    chain = RunnableLambda(lambda text: {"text": text, "steps": 0}) | graph | RunnableLambda(lambda s: s["text"])
    assert chain.invoke("fog") == "FOG!"
    assert graph.batch([{"text": "a", "steps": 0}, {"text": "b", "steps": 5}]) == [
        {"text": "A!", "steps": 2},
        {"text": "B!", "steps": 7},
    ]


def test_streamed_it_gives_the_graphs_own_updates_and_stream_modes() -> None:
    app = compiled()
    graph = from_langchain(app, dict, dict)
    start = {"text": "hi", "steps": 0}
    assert (
        list(graph.stream(start))
        == list(app.stream(start))
        == [
            {"shout": {"text": "HI", "steps": 1}},
            {"exclaim": {"text": "HI!", "steps": 2}},
        ]
    )
    assert list(graph.stream(start, stream_mode="values"))[-1] == {"text": "HI!", "steps": 2}

    async def collect() -> list[object]:
        return [chunk async for chunk in graph.astream(start)]

    assert asyncio.run(collect()) == list(app.stream(start))


def test_its_nodes_are_our_inner_runs_with_their_own_chunks() -> None:
    graph = from_langchain(compiled(), dict, dict)
    start = {"text": "hi", "steps": 0}

    def nodes(effects: list[Any]) -> list[tuple[str, str]]:
        return [
            (type(e).__name__, e.run.name)
            for e in effects
            if isinstance(e, RunStarted | RunEnded | RunStreamed) and len(e.run.parent_ids) == 2
        ]

    async def collect() -> list[Any]:
        return [effect async for effect in graph.astream_effects(start)]

    # Sync, LangGraph hands the handler no node's output stream: ends only.
    assert nodes(list(graph.stream_effects(start))) == [
        ("RunStarted", "shout"),
        ("RunEnded", "shout"),
        ("RunStarted", "exclaim"),
        ("RunEnded", "exclaim"),
    ]
    assert nodes(asyncio.run(collect())) == [
        ("RunStarted", "shout"),
        ("RunStreamed", "shout"),
        ("RunEnded", "shout"),
        ("RunStarted", "exclaim"),
        ("RunStreamed", "exclaim"),
        ("RunEnded", "exclaim"),
    ]
