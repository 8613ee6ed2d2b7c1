"""The agent's conversation: reading its input, answering tool calls, sealing it.

A transcript is *sealed* when every tool call of its AI messages has exactly one
``ToolMessage``; only a sealed transcript is a valid input for a model's next turn
(providers refuse dangling calls). ``sealed`` answers what is left with error
messages, so a run that stopped anywhere still leaves a usable conversation.

>>> from combinators.messages import AIMessage, HumanMessage, ToolCall
>>> asked = [HumanMessage("2+2?"), AIMessage("", tool_calls=[ToolCall("add", {"a": 2, "b": 2}, id="c1")])]
>>> [m.content for m in sealed(asked, "the run was cancelled")[2:]]
['not run: the run was cancelled']
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, TypeAlias, final

import attrs

from combinators.components.messages.message_classes import (
    AIMessage,
    HumanMessage,
    Message,
    ToolCall,
    ToolMessage,
    coerce_to_messages,
)
from combinators.components.tools.message_tools import content_parts
from effects.authoring import is_mapping
from effects.errors import CombinatorsError, InputError
from effects.projections.jsonable import to_jsonable

AgentInput: TypeAlias = "str | Sequence[object] | Mapping[str, object]"
"""What an agent takes: a question (``str``), ``{"input": str, "chat_history": [...]}``,
``{"messages": [...]}``, a list of messages (or message-likes: ``(role, text)``,
dicts), or, with a prompt, any dict of the prompt's variables."""

MESSAGES_SCHEMA: Final[dict[str, object]] = {"title": "Messages", "type": "array"}
"""The JSON Schema of a list of messages, in the agents' input schemas."""

AGENT_LOOP_INPUT: Final[dict[str, object]] = {
    "title": "AgentLoopInput",
    "anyOf": [
        {"title": "Question", "type": "string"},
        MESSAGES_SCHEMA,
        {
            "title": "QuestionAndHistory",
            "type": "object",
            "properties": {"input": {"title": "Input", "type": "string"}, "chat_history": MESSAGES_SCHEMA},
            "required": ["input"],
        },
        {
            "title": "Conversation",
            "type": "object",
            "properties": {"messages": MESSAGES_SCHEMA},
            "required": ["messages"],
        },
    ],
}
"""The input schema of ``agent_loop`` without a prompt: what ``read_input`` accepts (a
string, a list of messages, or an object with ``input`` or with ``messages``)."""


class UnknownToolError(CombinatorsError, LookupError):
    """The model called a tool the agent does not have (the model is told, with the list).

    >>> print(UnknownToolError("nope", ("add", "search")))
    unknown tool 'nope'; the tools are: add, search
    """

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown tool {name!r}; the tools are: {', '.join(known) or '(none)'}")

    def __reduce__(self) -> tuple[type[UnknownToolError], tuple[str, tuple[str, ...]]]:
        return (type(self), (self.name, self.known))


class MalformedToolCallError(CombinatorsError, ValueError):
    """A tool call whose arguments are not a JSON object (the tool is not run).

    >>> print(MalformedToolCallError("search", '{"q": '))
    the arguments of the call to 'search' are not a JSON object: '{"q": '
    """

    def __init__(self, name: str | None, args: str | None) -> None:
        self.name = name
        self.args_text = args
        super().__init__(f"the arguments of the call to {name!r} are not a JSON object: {args!r}")

    def __reduce__(self) -> tuple[type[MalformedToolCallError], tuple[str | None, str | None]]:
        return (type(self), (self.name, self.args_text))


class ToolCallNotRun(CombinatorsError, RuntimeError):
    """A tool call the run did not answer (cancelled, out of time, past the last step).

    >>> str(ToolCallNotRun("the agent's time limit (2.0 s) ran out"))
    "not run: the agent's time limit (2.0 s) ran out"
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"not run: {reason}")

    def __reduce__(self) -> tuple[type[ToolCallNotRun], tuple[str]]:
        return (type(self), (self.reason,))


@final
@attrs.frozen
class Conversation:
    """An agent input, read: the conversation's messages and a prompt's variables.

    >>> read_input({"input": "hi", "chat_history": [("ai", "hello")]}, "Agent", prompted=False).messages
    (AIMessage('hello'), HumanMessage('hi'))
    """

    messages: tuple[Message, ...]
    variables: Mapping[str, object]


def _messages(value: object, owner: str, what: str) -> tuple[Message, ...]:
    kind = type(value).__name__
    if isinstance(value, str | Mapping) or not isinstance(value, Sequence):
        raise InputError(f"{owner} expects {what} to be a list of messages, got {kind}")
    items: Sequence[object] = value  # pyright: ignore[reportUnknownVariableType]
    try:
        return coerce_to_messages(items)
    except (TypeError, ValueError) as error:
        raise InputError(f"{owner} expects {what} to be a list of messages: {error}") from None


def _is_sequence(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, bytes)


def read_input(input: object, owner: str, *, prompted: bool) -> Conversation:
    """The conversation an ``AgentInput`` stands for (a clear error for anything else).

    >>> read_input(3, "Agent", prompted=False)
    Traceback (most recent call last):
    ...
    effects.errors.InputError: Agent expects a question (str), a list of messages, or a dict with 'input' or 'messages'; got int
    """
    if isinstance(input, str):
        return Conversation((HumanMessage(input),), {"input": input})
    if is_mapping(input):
        variables = {str(k): v for k, v in input.items()}
        if "messages" in variables:
            return Conversation(_messages(variables["messages"], owner, "'messages'"), variables)
        if "input" in variables:
            question = variables["input"]
            history = _messages(variables.get("chat_history", []), owner, "'chat_history'")
            asked = question if isinstance(question, str) else json.dumps(to_jsonable(question))
            return Conversation((*history, HumanMessage(asked)), variables)
        if prompted:
            return Conversation((), variables)
        raise InputError(
            f"{owner} expects a dict with 'input' or 'messages' (or a prompt for other keys); "
            f"got keys {sorted(variables)}"
        )
    if _is_sequence(input):  # of messages: _messages reads (and checks) the items
        conversation = _messages(input, owner, "its input")
        return Conversation(conversation, {"messages": list(conversation)})
    raise InputError(
        f"{owner} expects a question (str), a list of messages, or a dict with 'input' or "
        f"'messages'; got {type(input).__name__}"
    )


def result_content(output: object) -> str | list[str | Mapping[str, object]]:
    """A tool's result as message content: text and content blocks as they are, other
    values as the JSON of their JSON form, ``str()`` for values that have none.

    >>> result_content({"hits": 2}), result_content(3.5), result_content("done")
    ('{"hits": 2}', '3.5', 'done')
    >>> class Opaque:
    ...     def __str__(self): return "opaque"
    >>> result_content(Opaque())
    'opaque'
    """
    if isinstance(output, str):
        return output
    if type(output) is int or (type(output) is float and math.isfinite(output)):
        return repr(output)  # what json.dumps writes for them (the common case: no encoder)
    if output is None or isinstance(output, bool | int) or (isinstance(output, float) and math.isfinite(output)):
        return json.dumps(output)  # JSON already (the common case: skip the general form)
    parts = content_parts(output)
    if parts is not None:
        return parts
    encoded = to_jsonable(output)
    if isinstance(encoded, dict) and encoded.get("type") == "repr":
        return str(output)
    return json.dumps(encoded, ensure_ascii=False)


def answer(call: ToolCall, output: object) -> ToolMessage:
    """The model's answer to ``call`` from the tool's output.

    >>> answer(ToolCall("add", id="c1"), 4)
    ToolMessage('4', name='add', tool_call_id='c1')
    """
    if isinstance(output, ToolMessage):
        return output
    return ToolMessage(result_content(output), tool_call_id=call.id or "", name=call.name)


def error_answer(call: ToolCall, error: BaseException) -> ToolMessage:
    """An error ``ToolMessage`` telling the model what went wrong (type and message).

    >>> error_answer(ToolCall("div", id="c2"), ZeroDivisionError("division by zero")).content
    'ZeroDivisionError: division by zero'
    """
    text = str(error)
    if not isinstance(error, CombinatorsError):
        text = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return ToolMessage(text, tool_call_id=call.id or "", name=call.name, status="error")


def unanswered(messages: Iterable[Message]) -> list[ToolCall]:
    """The tool calls of ``messages`` that no ``ToolMessage`` answers, in order (calls
    with malformed arguments included: they need an answer too).

    >>> unanswered([AIMessage("", tool_calls=[ToolCall("f", id="a"), ToolCall("g", id="b")]),
    ...             ToolMessage("1", tool_call_id="a")])
    [ToolCall(name='g', args={}, id='b')]
    """
    seen = list(messages)
    answered = {m.tool_call_id for m in seen if isinstance(m, ToolMessage)}
    asked = [
        call
        for m in seen
        if isinstance(m, AIMessage)
        for call in (*m.tool_calls, *(ToolCall(c.name or "", {}, id=c.id) for c in m.invalid_tool_calls))
    ]
    return [call for call in asked if call.id not in answered]


def sealed(messages: Iterable[Message], reason: str) -> list[Message]:
    """``messages`` with an error ``ToolMessage`` for every call left unanswered."""
    seen = list(messages)
    return seen + [error_answer(call, ToolCallNotRun(reason)) for call in unanswered(seen)]
