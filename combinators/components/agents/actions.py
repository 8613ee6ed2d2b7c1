"""LangChain's agent values, as ``AgentExecutor`` gives them: the tool call a model asked
for (``ToolAgentAction``) and a tool's result for it (``ToolAgentStep``, LangChain's
``AgentStep``), with the messages LangChain shows for each.

``AgentExecutor.stream`` yields them as LangChain's does (``{"actions": [action],
"messages": [...]}``, ``{"steps": [step], "messages": [...]}``), and
``return_intermediate_steps=True`` gives ``(action, observation)`` pairs. On LangServe's
wire they travel as LangChain's (see ``combinators._support.langchain_types``).
``agent_loop``'s own values (``AgentResult``, ``AgentStep``, ``ToolOutcome``) are richer;
these exist so that code ported from LangChain reads the fields it knows
(``action.tool``, ``action.tool_input``, ``step.observation``).

>>> from combinators.messages import AIMessage, ToolCall
>>> message = AIMessage("", tool_calls=[ToolCall("multiply", {"a": 6, "b": 7}, id="call-1")])
>>> (action,) = tool_agent_actions(message)
>>> action.tool, action.tool_input, action.tool_call_id
('multiply', {'a': 6, 'b': 7}, 'call-1')
>>> ToolAgentStep(action, 42).messages
(FunctionMessage('42', name='multiply'),)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import ClassVar, final

import attrs

from combinators.components.messages.message_classes import (
    AIMessage,
    AIMessageChunk,
    FunctionMessage,
    Message,
    ToolCall,
    ToolCallChunk,
    chunk_of,
)
from effects.authoring import is_str_mapping


def _message_log(values: Iterable[Message]) -> tuple[Message, ...]:
    return tuple(values)


@final
@attrs.frozen
class ToolAgentAction:
    """A tool call the model asked for, as LangChain's tool-calling agent reads it:
    ``tool`` and ``tool_input`` (the call's arguments), a ``log`` line, the model's
    message (``message_log``) and the call's id.

    >>> ToolAgentAction("search", {"q": "fog"}, "", (), "c1").messages
    ()
    """

    type: ClassVar[str] = "AgentActionMessageLog"
    """LangChain's ``type`` of the class (its base class's, as LangChain's own reports it)."""

    tool: str
    tool_input: str | Mapping[str, object]
    log: str
    message_log: tuple[Message, ...] = attrs.field(converter=_message_log)
    tool_call_id: str | None

    @property
    def messages(self) -> tuple[Message, ...]:
        """The messages this action stands for: the model's (LangChain's ``messages``)."""
        return self.message_log


def observation_content(observation: object) -> str:
    """A tool's result as LangChain's agent writes it into a message: text as it is,
    other values as JSON (``str()`` when they have none).

    >>> observation_content(42), observation_content("done"), observation_content({"n": 1})
    ('42', 'done', '{"n": 1}')
    """
    if isinstance(observation, str):
        return observation
    try:
        return json.dumps(observation, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(observation)


@final
@attrs.frozen
class ToolAgentStep:
    """A tool call and its result (``observation``): LangChain's ``AgentStep``.

    >>> step = ToolAgentStep(ToolAgentAction("search", "fog", "", (), "c1"), ["doc"])
    >>> step.messages[0].content
    '["doc"]'
    """

    action: ToolAgentAction
    observation: object

    @property
    def messages(self) -> tuple[FunctionMessage, ...]:
        """The message LangChain shows for the result: a ``FunctionMessage`` named after the tool."""
        return (FunctionMessage(observation_content(self.observation), name=self.action.tool),)


def streamed_message(message: AIMessage) -> AIMessageChunk:
    """``message`` as the chunk a streamed model call adds up to (what LangChain's agent
    holds when it streams): its tool calls as tool-call chunks with JSON arguments.

    >>> from combinators.messages import ToolCall
    >>> streamed_message(AIMessage("", tool_calls=[ToolCall("f", {"x": 1}, id="c")])).tool_call_chunks
    (ToolCallChunk(name='f', args='{"x": 1}', id='c', index=0),)
    """
    calls = [ToolCallChunk(call.name, json.dumps(dict(call.args)), call.id, index) for index, call in
             enumerate(message.tool_calls)]  # fmt: skip
    calls += [ToolCallChunk(bad.name, bad.args, bad.id, len(calls) + index) for index, bad in
              enumerate(message.invalid_tool_calls)]  # fmt: skip
    return chunk_of(message, calls)


def _input_of(args: Mapping[str, object]) -> str | Mapping[str, object]:
    # LangChain's unpacking of a single-string tool's one argument (OpenAI's "__arg1").
    single = args.get("__arg1", args)
    if isinstance(single, str) or is_str_mapping(single):
        return single
    return args


def tool_agent_action(message: AIMessage | AIMessageChunk, call: ToolCall) -> ToolAgentAction:
    """The action for one tool call of ``message``, as LangChain's tool-calling agent parses
    it (its ``log`` line included).

    >>> tool_agent_action(AIMessage("Let me see."), ToolCall("f", {"x": 1}, id="c")).log
    "\\nInvoking: `f` with `{'x': 1}`\\nresponded: Let me see.\\n\\n"
    """
    content = message.content if isinstance(message.content, str) else list(message.content)
    said = f"responded: {content}\n" if content else "\n"
    tool_input = _input_of(call.args)
    shown = tool_input if isinstance(tool_input, str) else dict(tool_input)
    log = f"\nInvoking: `{call.name}` with `{shown}`\n{said}\n"
    return ToolAgentAction(call.name, tool_input, log, (message,), call.id)


def tool_agent_actions(message: AIMessage | AIMessageChunk) -> tuple[ToolAgentAction, ...]:
    """One action per tool call of ``message``, in order; a call whose arguments did not
    parse has empty arguments (as the loop answers it).

    >>> [a.tool for a in tool_agent_actions(AIMessage("", tool_calls=[ToolCall("f"), ToolCall("g")]))]
    ['f', 'g']
    """
    calls = [*message.tool_calls, *(ToolCall(bad.name or "", {}, id=bad.id) for bad in message.invalid_tool_calls)]
    return tuple(tool_agent_action(message, call) for call in calls)
