"""agent_loop: inputs, outcomes, the sealed transcript, streaming pieces, sync and async."""

from __future__ import annotations

import asyncio
import pickle
from functools import reduce
from operator import add as plus
from typing import Any

import cloudpickle  # type: ignore[import-untyped]
import pytest
from returns.result import Failure, Success

from combinators.language_models import ScriptedChatModel
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.tools import tool
from combinators.agents import (
    AgentResult,
    Finished,
    LoopPolicy,
    MalformedToolCallError,
    ReturnedDirect,
    UnknownToolError,
    agent_loop,
)
from combinators.messages import AIMessage, HumanMessage, InvalidToolCall, SystemMessage, ToolCall, ToolMessage
from combinators import ToolArgumentsError
from effects.errors import InputError, InputValueError
from tests.unit.combinators.components.agents.helpers import CALLED, add, answered_once, calls, fail, lookup


def test_a_question_in_an_answer_out() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 2, "b": 3})), "It is 5."])
    result = agent_loop(model, [add]).invoke("2 + 3?")
    assert result.output == "It is 5." and result.stop == Finished()
    [step] = result.steps
    assert [o.result for o in step.outcomes] == [Success(5)]
    assert step.tool_messages == (ToolMessage("5", tool_call_id="call_0", name="add"),)
    assert [type(m) for m in result.messages] == [HumanMessage, AIMessage, ToolMessage, AIMessage]
    assert answered_once(result.messages)
    # the model saw the question, then its own call and the tool's answer
    assert model.calls[1].messages == result.messages[:3]
    assert [c.tools for c in model.calls] == [("add",), ("add",)]


@pytest.mark.parametrize(
    ("given", "conversation"),
    [
        ("hi", [HumanMessage("hi")]),
        (
            {"input": "hi", "chat_history": [("human", "a"), ("ai", "b")]},
            [HumanMessage("a"), AIMessage("b"), HumanMessage("hi")],
        ),
        ({"messages": [SystemMessage("s"), ("human", "hi")]}, [SystemMessage("s"), HumanMessage("hi")]),
        ([("human", "hi")], [HumanMessage("hi")]),
    ],
    ids=["str", "input and chat_history", "messages", "a list of messages"],
)
def test_every_input_shape_starts_the_conversation(given: Any, conversation: list[Any]) -> None:
    model = ScriptedChatModel(["ok"])
    result = agent_loop(model, [add]).invoke(given)
    assert list(result.messages) == [*conversation, AIMessage("ok", id=result.messages[-1].id)]
    assert list(model.calls[0].messages) == conversation


@pytest.mark.parametrize("given", [3, {"question": "hi"}, {"messages": "hi"}, [object()]])
def test_other_inputs_are_a_clear_error_naming_the_agent(given: Any) -> None:
    with pytest.raises(InputError, match="AgentLoop expects"):
        agent_loop(ScriptedChatModel(["x"]), [add]).invoke(given)


def test_a_prompt_gets_the_variables_and_the_scratchpad() -> None:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Be {mood}."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    model = ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "Two."])
    result = agent_loop(model, [add], prompt=prompt).invoke({"input": "1+1?", "mood": "brief"})
    assert result.output == "Two."
    first, second = model.calls
    assert first.messages == (SystemMessage("Be brief."), HumanMessage("1+1?"))
    assert second.messages[:2] == first.messages and [m.type for m in second.messages[2:]] == ["ai", "tool"]
    assert [m.type for m in result.messages] == ["human", "ai", "tool", "ai"]  # the conversation, not the prompt


def test_a_prompt_without_a_place_for_the_run_messages_is_refused_when_built() -> None:
    with pytest.raises(InputValueError, match="agent_scratchpad"):
        agent_loop(ScriptedChatModel([]), [add], prompt=ChatPromptTemplate.from_messages([("human", "{input}")]))


def test_two_tools_with_one_name_are_refused() -> None:
    with pytest.raises(InputValueError, match="same name: add"):
        agent_loop(ScriptedChatModel([]), [add, add])


def test_tool_errors_unknown_tools_bad_and_malformed_arguments_go_back_to_the_model() -> None:
    CALLED.clear()
    asked = AIMessage(
        "",
        tool_calls=[
            ToolCall("fail", {"reason": "disk full"}, id="c1"),
            ToolCall("nope", {}, id="c2"),
            ToolCall("add", {"a": "one"}, id="c3"),
        ],
        invalid_tool_calls=[InvalidToolCall("add", '{"a": 1,', "c4")],
    )
    model = ScriptedChatModel([asked, "Sorry."])
    result = agent_loop(model, [add, fail]).invoke("go")
    assert result.output == "Sorry." and result.stop == Finished()
    outcomes = result.steps[0].outcomes
    errors = [o.result.failure() for o in outcomes]  # type: ignore[union-attr]
    assert [type(e) for e in errors] == [ValueError, UnknownToolError, ToolArgumentsError, MalformedToolCallError]
    assert [o.message.status for o in outcomes] == ["error"] * 4
    assert outcomes[0].message.content == "ValueError: disk full"
    assert "unknown tool 'nope'; the tools are: add, fail" in str(outcomes[1].message.content)
    assert "$.a: 'one' is not of type 'integer'" in str(outcomes[2].message.content)
    assert "$: 'b' is a required property" in str(outcomes[2].message.content)
    assert [o.message.tool_call_id for o in outcomes] == ["c1", "c2", "c3", "c4"]
    assert CALLED == ["fail"]  # bad arguments: add was never called
    assert answered_once(result.messages)
    # what the model saw next: every call answered
    assert [m.type for m in model.calls[1].messages] == ["human", "ai", "tool", "tool", "tool", "tool"]


def test_calls_without_ids_get_fresh_ones_that_their_answers_use() -> None:
    def no_ids(messages: list[Any]) -> AIMessage:
        return AIMessage("", tool_calls=[ToolCall("add", {"a": 1, "b": 2})])

    result = agent_loop(ScriptedChatModel([no_ids, "3"]), [add]).invoke("x")
    call = result.steps[0].message.tool_calls[0]
    assert call.id and call.id.startswith("call_")
    assert result.steps[0].outcomes[0].message.tool_call_id == call.id


def test_results_that_are_not_text_reach_the_model_as_json() -> None:
    result = agent_loop(ScriptedChatModel([calls(("lookup", {"key": "k"})), "ok"]), [lookup]).invoke("x")
    assert result.steps[0].tool_messages[0].content == '{"key": "k", "found": true}'
    assert result.steps[0].outcomes[0].output == {"key": "k", "found": True}


def test_return_direct_ends_with_the_tool_result() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 2, "b": 2}))])
    result = agent_loop(model, [add], policy=LoopPolicy(return_direct={"add"})).invoke("x")
    assert (result.output, result.stop) == ("4", ReturnedDirect("add"))
    assert len(model.calls) == 1 and answered_once(result.messages)


def test_return_direct_needs_every_call_of_the_step_to_be_direct() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 2, "b": 2}), ("lookup", {"key": "k"})), "done"])
    result = agent_loop(model, [add, lookup], policy=LoopPolicy(return_direct={"add"})).invoke("x")
    assert (result.output, result.stop) == ("done", Finished())


def test_stream_yields_typed_pieces_that_add_up_to_invoke() -> None:
    def model() -> ScriptedChatModel:
        return ScriptedChatModel([calls(("add", {"a": 1, "b": 2}), ("add", {"a": 3, "b": 4})), "Done."])

    pieces = list(agent_loop(model(), [add]).stream("sum"))
    action, step, final = pieces
    assert [c.name for c in action.actions] == ["add", "add"] and action.stop is None
    assert [m.type for m in action.messages] == ["human", "ai"]  # the first piece opens the conversation
    assert step.steps and step.actions == () and [m.type for m in step.messages] == ["tool", "tool"]
    assert (final.output, final.stop, final.actions) == ("Done.", Finished(), ())
    total = reduce(plus, pieces)
    invoked = agent_loop(model(), [add]).invoke("sum")
    assert _without_ids(total) == _without_ids(invoked)


def test_async_agrees_with_sync() -> None:
    def model() -> ScriptedChatModel:
        return ScriptedChatModel([calls(("add", {"a": 1, "b": 2})), calls(("fail", {"reason": "r"})), "Done."])

    synced = agent_loop(model(), [add, fail]).invoke("x")
    awaited = asyncio.run(agent_loop(model(), [add, fail]).ainvoke("x"))

    async def pieces() -> list[AgentResult]:
        return [p async for p in agent_loop(model(), [add, fail]).astream("x")]

    streamed = reduce(plus, asyncio.run(pieces()))
    assert _without_ids(synced) == _without_ids(awaited) == _without_ids(streamed)


def test_an_async_only_tool_under_sync_invoke_is_an_error_before_the_model_is_called() -> None:
    @tool
    async def ping() -> str:
        """Ping."""
        return "pong"

    model = ScriptedChatModel(["never"])
    with pytest.raises(InputError, match="tool 'ping' has only an async function; run the agent with ainvoke"):
        agent_loop(model, [ping]).invoke("x")
    assert model.calls == ()
    assert asyncio.run(agent_loop(ScriptedChatModel([calls(("ping", {})), "ok"]), [ping]).ainvoke("x")).output == "ok"


def test_the_agent_is_a_value() -> None:
    agent = agent_loop(ScriptedChatModel(["x"]), [add], policy=LoopPolicy(max_iterations=3))
    assert agent == agent_loop(ScriptedChatModel(["x"]), [add], policy=LoopPolicy(max_iterations=3))
    assert repr(agent).startswith("agent_loop(ScriptedChatModel(") and "policy=LoopPolicy(max_iterations=3" in repr(
        agent
    )
    copy = pickle.loads(cloudpickle.dumps(agent))  # a @tool's function pickles by value: equal by repr
    assert repr(copy) == repr(agent) and copy.invoke("q").output == "x"


def test_tool_outcome_results_are_returns_results() -> None:
    result = agent_loop(ScriptedChatModel([calls(("fail", {"reason": "r"})), "ok"]), [fail]).invoke("x")
    outcome = result.steps[0].outcomes[0]
    assert isinstance(outcome.result, Failure) and not outcome.ok and outcome.output is None


def _without_ids(result: AgentResult) -> tuple[Any, ...]:
    """A result without the fresh ids each run makes (message ids and made-up call ids)."""
    shown = []
    for message in result.messages:
        if isinstance(message, AIMessage):
            shown.append(("ai", message.text, tuple((c.name, dict(c.args)) for c in message.tool_calls)))
        elif isinstance(message, ToolMessage):
            shown.append(("tool", message.text, message.status))
        else:
            shown.append((message.type, message.text))
    return (result.output, result.stop, tuple(shown), len(result.steps))
