"""LangChain's agent API on ``agent_loop``: ``create_tool_calling_agent`` and ``AgentExecutor``.

Ported code keeps its shapes: the input ``{"input": ..., "chat_history": [...]}``, the
output ``{**input, "output": ...}`` (plus ``intermediate_steps``, ``(ToolAgentAction,
observation)`` pairs, when asked), and ``stream``'s ``AddableDict`` chunks as LangChain's:
per tool call ``{"actions": [ToolAgentAction], "messages": [AIMessageChunk]}`` (the
model's message), per tool result ``{"steps": [ToolAgentStep], "messages":
[FunctionMessage]}``, then ``{"output": ..., "messages": [AIMessage]}``. It runs on ``agent_loop`` with
``LoopPolicy``'s defaults, so unlike the peer: a tool's exception goes back to the
model, the tool calls of one step run concurrently in sync as in async, and
``early_stopping_method="generate"`` works (one last call without tools).

>>> from combinators.language_models import ScriptedChatModel
>>> from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
>>> from combinators.tools import tool
>>> @tool
... def shout(text: str) -> str:
...     '''Shout the text.'''
...     return text.upper()
>>> prompt = ChatPromptTemplate.from_messages(
...     [("system", "You shout."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")])
>>> agent = create_tool_calling_agent(ScriptedChatModel(["Done."]), [shout], prompt)
>>> AgentExecutor(agent=agent, tools=[shout]).invoke({"input": "hi"})
{'input': 'hi', 'output': 'Done.'}
>>> from combinators.messages import AIMessage, ToolCall
>>> asks = AIMessage("", tool_calls=[ToolCall("shout", {"text": "hi"}, id="c1")])
>>> agent = create_tool_calling_agent(ScriptedChatModel([asks, "HI it is."]), [shout], prompt)
>>> for chunk in AgentExecutor(agent=agent, tools=[shout]).stream({"input": "hi"}):
...     print(sorted(chunk), [type(m).__name__ for m in chunk["messages"]])
['actions', 'messages'] ['AIMessageChunk']
['messages', 'steps'] ['FunctionMessage']
['messages', 'output'] ['AIMessage']
"""

from __future__ import annotations

import copy
import functools
import sys
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, Final, Literal, final

import attrs

from combinators.addable import AddableDict
from combinators.components.run_fields import NamedRunFields
from combinators.components.agents.actions import (
    ToolAgentAction,
    ToolAgentStep,
    streamed_message,
    tool_agent_action,
    tool_agent_actions,
)
from combinators.components.agents.loop import AgentLoop, AgentTool, Prompt, draw_loop, tools_tuple
from combinators.graph import Fragment, GraphBuilder, RunPlace
from combinators.components.agents.policy import LoopPolicy
from combinators.components.agents.steps import Finished, MaxIterations, TimedOut
from combinators.components.agents.steps import AgentResult, ToolOutcome
from combinators.components.agents.transcript import MESSAGES_SCHEMA
from combinators.components.messages.message_classes import AIMessage
from combinators.components.models.chat_model import BaseChatModel
from combinators.components.parsers.text import OutputParserError
from combinators import Runnable
from combinators import RunnableTool
from effects.errors import InputError, InputValueError
from effects.authoring import Scope
from effects.authoring import arun_on_total, is_a, run_on_total

STOPPED_AT_MAX_ITERATIONS: Final = "Agent stopped due to max iterations."
"""The output at the iteration limit with ``early_stopping_method="force"`` (the peer's text)."""
STOPPED_AT_TIME_LIMIT: Final = "Agent stopped due to time limit."
"""The output at ``max_execution_time`` with ``early_stopping_method="force"``."""

AGENT_EXECUTOR_INPUT: Final[dict[str, object]] = {
    "title": "AgentExecutorInput",
    "type": "object",
    "properties": {
        "input": {"title": "Input", "type": "string"},
        "chat_history": MESSAGES_SCHEMA | {"title": "Chat History"},
    },
    "required": ["input"],
}
"""``AgentExecutor``'s input schema: ``{"input": str}`` required, as the peer's (other keys,
such as ``chat_history``, pass on to the prompt)."""


@final
@attrs.frozen
class ToolCallingAgent:
    """What ``create_tool_calling_agent`` makes: a model, its tools and a prompt, for an
    ``AgentExecutor`` to run (it is not a runnable of its own).

    >>> from combinators.language_models import ScriptedChatModel
    >>> ToolCallingAgent(ScriptedChatModel(["hi"]), (), None).tools
    ()
    """

    model: BaseChatModel
    tools: tuple[RunnableTool[object], ...] = attrs.field(converter=tools_tuple)
    prompt: Prompt | None


def create_tool_calling_agent(llm: BaseChatModel, tools: Sequence[AgentTool], prompt: Prompt) -> ToolCallingAgent:
    """The peer's ``create_tool_calling_agent``: ``prompt`` must have an
    ``agent_scratchpad`` placeholder (the run's messages so far).

    >>> from combinators.language_models import ScriptedChatModel
    >>> from combinators.prompts import ChatPromptTemplate
    >>> create_tool_calling_agent(ScriptedChatModel([]), [], ChatPromptTemplate.from_messages([("human", "{input}")]))
    Traceback (most recent call last):
    ...
    effects.errors.InputValueError: the agent's prompt needs an 'agent_scratchpad' (or 'messages') placeholder for the run's messages; its variables are ['input']
    """
    AgentLoop(llm, tools_tuple(tools), prompt)  # checks the prompt and the tools now, not at the first run
    return ToolCallingAgent(llm, tools_tuple(tools), prompt)


def create_openai_functions_agent(llm: BaseChatModel, tools: Sequence[AgentTool], prompt: Prompt) -> ToolCallingAgent:
    """The peer's ``create_openai_functions_agent``: the tool-calling agent under the name
    LangChain's pages use (every chat model here calls tools the same way).

    >>> from combinators.prompts import ChatPromptTemplate
    >>> from combinators.language_models import ScriptedChatModel
    >>> prompt = ChatPromptTemplate.from_messages([("human", "{input}"), ("placeholder", "{agent_scratchpad}")])
    >>> create_openai_functions_agent(ScriptedChatModel([]), [], prompt).tools
    ()
    """
    return create_tool_calling_agent(llm, tools, prompt)


def create_openai_tools_agent(llm: BaseChatModel, tools: Sequence[AgentTool], prompt: Prompt) -> ToolCallingAgent:
    """The peer's ``create_openai_tools_agent``: the tool-calling agent (see ``create_openai_functions_agent``).

    >>> from combinators.prompts import ChatPromptTemplate
    >>> from combinators.language_models import ScriptedChatModel
    >>> prompt = ChatPromptTemplate.from_messages([("human", "{input}"), ("placeholder", "{agent_scratchpad}")])
    >>> create_openai_tools_agent(ScriptedChatModel([]), [], prompt).tools
    ()
    """
    return create_tool_calling_agent(llm, tools, prompt)


EarlyStopping = Literal["force", "generate"]


def _observation(outcome: ToolOutcome) -> object:
    """What the tool returned, or the error text the model was told."""
    return outcome.output if outcome.ok else outcome.message.text


@final
@attrs.frozen(repr=False)
class AgentExecutor(NamedRunFields, Runnable[Mapping[str, Any], dict[str, Any]]):
    """The peer's ``AgentExecutor`` over a ``create_tool_calling_agent`` agent, run by ``agent_loop``.

    ``max_iterations`` (None: no limit) and ``max_execution_time`` (seconds) bound the
    run; ``early_stopping_method="force"`` then answers with the peer's canned text,
    ``"generate"`` with one last model call without tools. ``handle_parsing_errors``:
    ``True`` (the default here) tells the model its tool call's arguments were not
    JSON, ``False`` raises ``OutputParserError``.
    """

    agent: ToolCallingAgent
    tools: tuple[RunnableTool[object], ...] = attrs.field(converter=tools_tuple)
    max_iterations: int | None = 15
    max_execution_time: float | None = None
    early_stopping_method: EarlyStopping = "force"
    handle_parsing_errors: bool = True
    return_intermediate_steps: bool = False

    def __attrs_post_init__(self) -> None:
        if self.early_stopping_method not in ("force", "generate"):
            raise InputValueError(
                f"early_stopping_method must be 'force' or 'generate', got {self.early_stopping_method!r}"
            )
        if not is_a(self.handle_parsing_errors, bool):
            raise InputValueError(
                "handle_parsing_errors takes True (the model is told what was wrong) or False (raise);"
                f" got {self.handle_parsing_errors!r}"
            )
        names = sorted(t.name for t in self.tools)
        if names != sorted(t.name for t in self.agent.tools):
            raise InputValueError(
                f"AgentExecutor's tools {names} are not the agent's {sorted(t.name for t in self.agent.tools)}"
            )

    def __repr__(self) -> str:
        return f"AgentExecutor(agent={self.agent!r}, tools={list(self.tools)!r})"

    is_leaf = False

    def input_schema(self) -> dict[str, Any]:
        """``{"input": str}``, required, as the peer's (other keys pass on to the prompt)."""
        return copy.deepcopy(AGENT_EXECUTOR_INPUT)

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """The loop it runs (``draw_loop``: prompt, model, tools), under its own node."""
        return draw_loop(self.loop, self, graph, place)

    @functools.cached_property
    def loop(self) -> AgentLoop:
        """The ``agent_loop`` this executor runs."""
        policy = LoopPolicy(
            max_iterations=sys.maxsize if self.max_iterations is None else self.max_iterations,
            timeout=self.max_execution_time,
            on_limit="final_answer" if self.early_stopping_method == "generate" else "stop",
        )
        return AgentLoop(self.agent.model, self.tools, self.agent.prompt, policy)

    # ------------------------------------------------------------------ shapes

    def _inputs(self, input: Mapping[str, Any]) -> dict[str, Any]:
        if not is_a(input, Mapping):  # untyped callers
            raise InputError(f"AgentExecutor expects a dict such as {{'input': ...}}, got {type(input).__name__}")
        return dict(input)

    def _check(self, piece: AgentResult) -> AgentResult:
        """``piece``, unless parsing errors are not handled and it has a malformed call."""
        if not self.handle_parsing_errors:
            for message in piece.messages:
                for bad in getattr(message, "invalid_tool_calls", ()):
                    raise OutputParserError(f"Could not parse tool input: {bad.args!r}", str(bad.args))
        return piece

    def _chunks(self, piece: AgentResult, asked: dict[str | None, ToolAgentAction]) -> Iterator[AddableDict]:
        """LangChain's stream chunks for ``piece``: one per tool call asked for, one per tool
        result, then the answer. ``asked`` keeps the run's actions by call id, so that a
        result's step holds the action its call announced (built once)."""
        self._check(piece)
        for message in piece.messages:
            if isinstance(message, AIMessage) and (message.tool_calls or message.invalid_tool_calls):
                streamed = streamed_message(message)
                for action in tool_agent_actions(streamed):
                    asked[action.tool_call_id] = action
                    yield AddableDict(actions=[action], messages=[streamed])
        for step in piece.steps:
            for outcome in step.outcomes:
                announced = asked.get(outcome.call.id)
                if announced is None or announced.tool != outcome.call.name:
                    announced = tool_agent_action(streamed_message(step.message), outcome.call)
                done = ToolAgentStep(announced, _observation(outcome))
                yield AddableDict(steps=[done], messages=list(done.messages))
        if piece.stop is not None:
            # LangChain's AgentFinish: its log is the model's answer, empty when a limit stopped the run
            said = piece.output if isinstance(piece.stop, Finished) and piece.output is not None else ""
            yield AddableDict(output=self._output(piece), messages=[AIMessage(said)])

    def _output(self, result: AgentResult) -> str:
        if result.output is not None:
            return result.output
        if isinstance(result.stop, TimedOut):
            return STOPPED_AT_TIME_LIMIT
        if isinstance(result.stop, MaxIterations):
            return STOPPED_AT_MAX_ITERATIONS
        return ""

    def _final(self, inputs: dict[str, Any], result: AgentResult) -> dict[str, Any]:
        final = {**inputs, "output": self._output(result)}
        if self.return_intermediate_steps:
            final["intermediate_steps"] = [
                (tool_agent_action(step.message, o.call), _observation(o))
                for step in result.steps
                for o in step.outcomes
            ]
        return final

    # ------------------------------------------------------------------ running

    def step_invoke(self, input: Mapping[str, Any], scope: Scope, kwargs: Mapping[str, object]) -> dict[str, Any]:
        inputs = self._inputs(input)
        result = AgentResult()
        for piece in self.loop.pieces(inputs, scope):
            result = result + self._check(piece)
        return self._final(inputs, result)

    async def step_ainvoke(
        self, input: Mapping[str, Any], scope: Scope, kwargs: Mapping[str, object]
    ) -> dict[str, Any]:
        inputs = self._inputs(input)
        result = AgentResult()
        async for piece in self.loop.apieces(inputs, scope):
            result = result + self._check(piece)
        return self._final(inputs, result)

    def step_stream(
        self, inputs: Iterator[Mapping[str, Any]], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[dict[str, Any]]:
        def chunks(total: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
            asked: dict[str | None, ToolAgentAction] = {}
            for piece in self.loop.pieces(self._inputs(total), scope):
                yield from self._chunks(piece, asked)

        return run_on_total(inputs, chunks)

    def step_astream(
        self, inputs: AsyncIterator[Mapping[str, Any]], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[dict[str, Any]]:
        async def chunks(total: Mapping[str, Any]) -> AsyncIterator[dict[str, Any]]:
            asked: dict[str | None, ToolAgentAction] = {}
            async for piece in self.loop.apieces(self._inputs(total), scope):
                for chunk in self._chunks(piece, asked):
                    yield chunk

        return arun_on_total(inputs, chunks)
