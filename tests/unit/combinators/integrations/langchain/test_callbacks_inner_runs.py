"""Observed, a wrapped LangChain object's inner runs are ours: our astream_events (v2 and
v1) of from_langchain(chain) equals langchain-core's own astream_events of the same chain
as a tree (each run's events in order, runs by parent), and our astream_log's final state
equals its own, the wrapper's own run and run ids aside. Compared live, with the
langchain-core the tests run against."""

import asyncio
import itertools
import warnings
from collections.abc import Mapping
from typing import Any, Literal, cast

import attrs
import pytest
from langchain_core.language_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage as TheirAIMessage
from langchain_core.output_parsers import StrOutputParser as TheirStrParser
from langchain_core.prompts import ChatPromptTemplate as TheirChatPrompt
from langchain_core.runnables import Runnable as TheirRunnable
from langchain_core.runnables import RunnableLambda as TheirLambda
from langchain_core.runnables import RunnableParallel as TheirParallel

from effects import Effect, RunFailed

from combinators.messages import AIMessage, AIMessageChunk
from combinators.integrations.langchain import from_langchain, to_ours
from tests.unit.combinators.integrations.langchain.test_runnable_langgraph import compiled


def _without_run_ids(value: object) -> object:
    # A model's message ids are made from LangChain's run ids ("lc_run--<uuid>"), also
    # inside an events v1 model end's generations.
    if isinstance(value, AIMessage | AIMessageChunk) and (value.id or "").startswith("lc_run--"):
        return attrs.evolve(value, id="lc_run--")
    if isinstance(value, list):
        return [_without_run_ids(item) for item in cast(list[object], value)]
    if isinstance(value, dict):
        return {key: _without_run_ids(item) for key, item in cast(dict[object, object], value).items()}
    return value


Shape = tuple[tuple[str, str, tuple[str, ...], tuple[str, ...], object], ...]


def tree_of(events: list[dict[str, Any]], skip: object) -> dict[tuple[str, ...], Shape]:
    # Runs keyed by their path of names from the root (a parallel's branches may start and
    # finish in either order, in LangChain's own runs too); each run's events in order, its
    # parent's path beside them. A parallel streams its branches' chunks as they come, so
    # those chunks are compared as a set (in order of their text).
    paths: dict[str, tuple[str, ...]] = {}
    runs: dict[tuple[str, ...], list[tuple[str, str, tuple[str, ...], tuple[str, ...], object]]] = {}
    for event in events:
        if event["run_id"] == skip:
            continue
        parents = [p for p in event["parent_ids"] if p != skip]
        parent = paths[parents[-1]] if parents else ()
        path = paths.setdefault(event["run_id"], (*parent, event["name"]))
        data = {key: _without_run_ids(to_ours(value)) for key, value in event["data"].items()}
        if not parents and event["event"].endswith("_end"):
            # LangChain's root run ends without its input; below our wrapper it is a child,
            # whose end carries it (as every child's does in both).
            data.pop("input", None)
        shape = (event["event"], event["name"], path, parent, tuple(event["tags"]), data)
        runs.setdefault(path, []).append(shape)
    return {path: _settled(shapes) for path, shapes in runs.items()}


def _settled(shapes: list[tuple[str, str, tuple[str, ...], tuple[str, ...], object]]) -> Shape:
    if not shapes[0][1].startswith("RunnableParallel"):
        return tuple(shapes)
    streamed = sorted((s for s in shapes if s[0] == "on_chain_stream"), key=repr)
    return (shapes[0], *streamed, *(s for s in shapes[1:] if s[0] != "on_chain_stream"))


async def _both(
    chain: TheirRunnable[Any, Any], input: object, version: Literal["v1", "v2"] = "v2"
) -> tuple[dict[tuple[str, ...], Shape], dict[tuple[str, ...], Shape]]:
    theirs: list[dict[str, Any]] = [dict(event) async for event in chain.astream_events(input, version=version)]
    ours: list[dict[str, Any]] = [
        dict(event) async for event in from_langchain(chain, object, object).astream_events(input, version=version)
    ]
    wrapper = ours[0]["run_id"]
    assert ours[0]["name"] == theirs[0]["name"] and ours[-1]["run_id"] == wrapper
    return tree_of(ours, wrapper), tree_of(theirs, None)


def _content(message: TheirAIMessage) -> object:
    return message.content


def _shout(text: str) -> str:
    return text.upper()


CHAINS: dict[str, tuple[Any, object]] = {
    "prompt | model | parser": (
        TheirChatPrompt.from_messages([("human", "{q}")]) | FakeListChatModel(responses=["ab"]) | TheirStrParser(),
        {"q": "x"},
    ),
    "model with tool calls | lambda": (
        GenericFakeChatModel(
            messages=itertools.cycle([TheirAIMessage("a b", id="m", tool_calls=[{"name": "f", "args": {}, "id": "c"}])])
        )
        | TheirLambda(_content),
        "go",
    ),
    "parallel of lambdas": (TheirParallel(shout=TheirLambda(_shout), same=TheirLambda(lambda text: text)), "hi"),
    "compiled langgraph": (compiled(), {"text": "hi", "steps": 0}),
}


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_our_events_of_a_wrapped_chain_equal_langchains_own_as_a_tree(name: str) -> None:
    chain, input = CHAINS[name]
    ours, theirs = asyncio.run(_both(chain, input))
    assert ours == theirs


# Events v1 of a compiled LangGraph graph: LangChain's root end shows the graph's last
# update (the stream's last chunk); ours, below the wrapper, the graph's end output (its
# values), as its callbacks report it. Compared in v2 and in the run log.
V1_CHAINS = sorted(name for name in CHAINS if name != "compiled langgraph")


@pytest.mark.parametrize("name", V1_CHAINS)
def test_our_events_v1_of_a_wrapped_chain_equal_langchains_own_as_a_tree(name: str) -> None:
    chain, input = CHAINS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # LangChain deprecates its v1
        ours, theirs = asyncio.run(_both(chain, input, "v1"))
    assert ours == theirs


async def final_log(runnable: Any, input: object) -> dict[str, Any]:
    state: Any = None
    async for patch in runnable.astream_log(input):
        state = patch if state is None else state + patch
    return dict(state.state)


def log_shape(state: dict[str, Any], inner_root: str | None) -> tuple[dict[str, object], dict[str, object]]:
    # The run log's root (its streamed and final output) and each logged run by its key,
    # ids, times and metadata aside; a parallel's branches stream in either order.
    def shown(value: object) -> object:
        return _without_run_ids(to_ours(value))

    streamed = cast(list[object], shown(state["streamed_output"]))
    top = {
        "name": state["name"],
        "type": state["type"],
        "streamed_output": sorted(streamed, key=repr),
        "final_output": shown(state["final_output"]),
    }
    logs = {
        key: {field: shown(value) for field, value in run.items() if field not in ("id", "start_time", "end_time")}
        for key, run in state["logs"].items()
        if key != inner_root
    }
    for run in logs.values():
        # A LangGraph node's checkpoint namespace holds an id made per run.
        metadata = cast(dict[str, object], run.get("metadata", {}))
        run["metadata"] = {k: v for k, v in metadata.items() if not k.endswith("checkpoint_ns")}
    return top, logs


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_our_run_log_of_a_wrapped_chain_equals_langchains_own(name: str) -> None:
    chain, input = CHAINS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # LangChain deprecates astream_log
        theirs = asyncio.run(final_log(chain, input))
        ours = asyncio.run(final_log(from_langchain(chain, object, object), input))
    # Below our wrapper (the log's root), LangChain's root run is logged under its name.
    assert ours["name"] == theirs["name"] and ours["name"] in ours["logs"]
    assert log_shape(ours, ours["name"]) == log_shape(theirs, None)


def test_unobserved_the_object_is_given_no_handler() -> None:
    seen: list[object] = []

    def record(text: str, config: Mapping[str, Any]) -> str:
        seen.append(config.get("callbacks"))
        return text

    wrapped = from_langchain(TheirLambda(record), str, str)
    wrapped.invoke("x")
    assert seen and not getattr(seen[0], "handlers", None)
    list(wrapped.stream_effects("x"))
    assert getattr(seen[1], "handlers", None)


def test_an_inner_failure_is_our_failed_inner_run() -> None:
    def fail(_: str) -> str:
        raise ValueError("boom")

    chain = TheirLambda(str.strip) | TheirLambda(fail, name="fail")
    effects: list[Effect] = []
    with pytest.raises(ValueError, match="boom"):
        for effect in from_langchain(chain, str, str).stream_effects(" x "):
            effects.append(effect)
    failed = [(e.run.name, len(e.run.parent_ids)) for e in effects if isinstance(e, RunFailed)]
    assert ("fail", 2) in failed
