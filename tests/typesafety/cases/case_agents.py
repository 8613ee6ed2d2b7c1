"""Agents: ``agent_loop`` is a ``Runnable[AgentInput, AgentResult]``; tools must be tools.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import reveal_type

from combinators import RunnableLambda
from combinators.language_models import ScriptedChatModel
from combinators.tools import tool
from combinators.agents import (
    AgentExecutor,
    AgentResult,
    ToolAgentAction,
    ToolAgentStep,
    agent_loop,
    create_tool_calling_agent,
)
from combinators.prompts import ChatPromptTemplate


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def parse(text: str) -> int:
    return int(text)


def count(text: str) -> int:
    return len(text)


def answer_of(result: AgentResult) -> str:
    return result.output or ""


model = ScriptedChatModel(["ok"])
agent = agent_loop(model, [add])


def agent_loop_is_a_runnable_from_agent_input_to_agent_result() -> None:
    reveal_type(agent)  # R: Runnable[str | Sequence[object] | Mapping[str, object], AgentResult]


def its_result_is_typed() -> None:
    result = agent.invoke("2 + 2?")
    reveal_type(result.output)  # R: str | None
    reveal_type(result.steps)  # R: tuple[AgentStep, ...]


def it_pipes_like_any_runnable() -> None:
    reveal_type(agent | answer_of)  # R: Runnable[str | Sequence[object] | Mapping[str, object], str]


def a_function_is_a_tool() -> None:
    agent_loop(model, [parse])


def a_runnable_that_does_not_take_tool_input_is_not_a_tool() -> None:
    agent_loop(model, [RunnableLambda(parse)])  # type: ignore[list-item]  # E: list-item / reportArgumentType


def an_int_is_not_an_agent_input() -> object:
    return RunnableLambda(count) | agent  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def the_executor_takes_and_gives_dicts() -> None:
    prompt = ChatPromptTemplate.from_messages([("human", "{input}"), ("placeholder", "{agent_scratchpad}")])
    executor = AgentExecutor(agent=create_tool_calling_agent(model, [add], prompt), tools=[add])
    reveal_type(executor.invoke({"input": "hi"}))  # R: dict[str, Any]
    reveal_type(next(executor.stream({"input": "hi"})))  # R: dict[str, Any]


def langchains_agent_values_are_typed(action: ToolAgentAction, step: ToolAgentStep) -> None:
    reveal_type(action.tool)  # R: str
    reveal_type(action.tool_call_id)  # R: str | None
    reveal_type(step.action)  # R: ToolAgentAction
    reveal_type(step.observation)  # R: object
