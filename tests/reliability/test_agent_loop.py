"""Promises of agent_loop over random scripts (hypothesis):

- the model is called at most ``max_iterations`` times (one more with ``final_answer``);
- every tool call is answered exactly once (the transcript is sealed), whatever the stop;
- the events are well nested and the root's end is the last event;
- the last ``stream_log`` state's final output is ``invoke``'s result;
- sync and async runs (invoke, ainvoke, astream added up) agree.
"""

from __future__ import annotations

import asyncio
import re
from functools import reduce
from operator import add as plus
from typing import Any

from hypothesis import given, strategies as st

from combinators.language_models import ScriptedChatModel
from combinators.agents import AgentResult, LoopPolicy, agent_loop
from combinators.messages import AIMessage
from combinators.testing import agent_scripts
from combinators.testing.nesting import nesting_problem
from effects.projections.jsonable import to_jsonable
from tests.unit.combinators.components.agents.helpers import add, answered_once, fail, lookup

TOOLS = [add, fail, lookup]
ARGS = {
    "add": st.fixed_dictionaries({"a": st.integers(-5, 5), "b": st.integers(-5, 5)}),
    # sometimes arguments that fail the schema: the model is told, the tool is not run
    "fail": st.one_of(st.fixed_dictionaries({"reason": st.sampled_from(["disk", "net"])}), st.just({"reason": 3})),
    "lookup": st.fixed_dictionaries({"key": st.sampled_from(["a", "b"])}),
}
SCRIPTS = agent_scripts(ARGS, max_steps=4, max_calls=3, unknown_tools=True, finish=None)
POLICIES = st.builds(
    LoopPolicy,
    max_iterations=st.integers(1, 5),
    on_limit=st.sampled_from(["stop", "final_answer"]),
    max_concurrency=st.sampled_from([None, 1, 2]),
    return_direct=st.sampled_from([frozenset(), frozenset({"lookup"})]),
)


def padded(script: list[AIMessage]) -> list[Any]:
    # A script that ends without an answer still has a reply for a last call.
    return [*script, "padding answer"]


_FRESH = re.compile(r"^(scripted-|call_|lc_run--)[0-9a-f-]{8,}")


def same_shape(value: Any) -> Any:
    """The JSON form with the ids each run makes afresh numbered by first appearance."""
    names: dict[str, str] = {}

    def walk(node: Any) -> Any:
        if isinstance(node, str) and _FRESH.match(node):
            return names.setdefault(node, f"id-{len(names)}")
        if isinstance(node, list):
            return [walk(v) for v in node]
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items()}
        return node

    return walk(to_jsonable(value))


@given(SCRIPTS, POLICIES)
def test_model_calls_are_bounded_and_every_call_is_answered_once(script: list[AIMessage], policy: LoopPolicy) -> None:
    model = ScriptedChatModel(padded(script))
    result = agent_loop(model, TOOLS, policy=policy).invoke("question")
    bound = policy.max_iterations + (1 if policy.on_limit == "final_answer" else 0)
    assert len(model.calls) <= bound
    assert result.stop is not None and answered_once(result.messages)
    assert result.actions == ()
    if policy.on_limit == "final_answer" and len(model.calls) == bound:
        assert model.calls[-1].tools == ()  # the last call had no tools
    answered_in_steps = sum(len(step.outcomes) for step in result.steps)
    answers = sum(1 for m in result.messages if m.type == "tool")
    # every answer is a step's outcome, except those sealing a last answer's calls (not run)
    assert answered_in_steps == answers or (policy.on_limit == "final_answer" and answered_in_steps < answers)


@given(SCRIPTS, POLICIES)
def test_events_are_well_nested_and_the_root_ends_last(script: list[AIMessage], policy: LoopPolicy) -> None:
    agent = agent_loop(ScriptedChatModel(padded(script)), TOOLS, policy=policy).with_config(run_name="Agent")

    async def collect() -> list[dict[str, Any]]:
        return [dict(e) async for e in agent.astream_events("question")]

    events = asyncio.run(collect())
    assert nesting_problem(events) is None
    assert (events[0]["event"], events[-1]["event"]) == ("on_chain_start", "on_chain_end")
    assert events[-1]["name"] == "Agent" and events[-1]["parent_ids"] == []
    starts = [e for e in events if e["event"] == "on_tool_start"]
    ends = [e for e in events if e["event"] in ("on_tool_end", "on_tool_error")]
    assert len(starts) == len(ends)


@given(SCRIPTS, POLICIES)
def test_the_last_log_state_is_the_invoke_result(script: list[AIMessage], policy: LoopPolicy) -> None:
    invoked = agent_loop(ScriptedChatModel(padded(script)), TOOLS, policy=policy).invoke("question")
    agent = agent_loop(ScriptedChatModel(padded(script)), TOOLS, policy=policy)

    async def last_state() -> Any:
        state = None
        async for log in agent.astream_log("question", diff=False):
            state = log.state
        return state

    state = asyncio.run(last_state())
    assert same_shape(state["final_output"]) == same_shape(invoked)


@given(SCRIPTS, POLICIES)
def test_sync_and_async_agree(script: list[AIMessage], policy: LoopPolicy) -> None:
    def agent() -> Any:
        return agent_loop(ScriptedChatModel(padded(script)), TOOLS, policy=policy)

    synced = agent().invoke("question")
    awaited = asyncio.run(agent().ainvoke("question"))

    async def pieces() -> list[AgentResult]:
        return [p async for p in agent().astream("question")]

    streamed = reduce(plus, asyncio.run(pieces()))
    added = reduce(plus, agent().stream("question"))
    assert same_shape(synced) == same_shape(awaited) == same_shape(streamed) == same_shape(added)
