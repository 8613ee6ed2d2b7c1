"""The input schema a served runnable publishes (``/input_schema``, ``/openapi.json``, the
playground's form) and checks every request against, before anything runs.

It is the runnable's own ``input_schema()``, except where LangChain's published schema
tells a client more: a sequence publishes its first step's (so ``prompt | model |
parser`` names the prompt's variables, required, and a missing one is a 422 naming it);
a binding (``with_config``, ``bind``) its runnable's; a parallel the object whose
properties are its branches' (when they take objects); ``AgentExecutor`` takes
``{"input": str}`` (required, as LangChain's; other keys such as ``chat_history`` pass);
``agent_loop`` without a prompt the union it accepts: a string, a list of messages, or
an object with ``input`` or with ``messages``.

>>> from combinators.prompts import ChatPromptTemplate
>>> from combinators.output_parsers import StrOutputParser
>>> chain = ChatPromptTemplate.from_messages([("human", "{question}")]) | StrOutputParser()
>>> schema = served_input_schema(chain)
>>> schema["required"], list(schema["properties"])
(['question'], ['question'])
"""

from __future__ import annotations

from typing import Final, Never

from combinators.runnable.composing import AnyRunnable
from combinators.components.agents.executor import AgentExecutor
from combinators.components.agents.loop import AgentLoop
from combinators.nodes.binding import RunnableBinding
from combinators.nodes.parallel import RunnableParallel
from combinators.nodes.sequence import RunnableSequence
from effects.projections.jsonable import JsonValue

_MESSAGES: Final[dict[str, JsonValue]] = {"title": "Messages", "type": "array"}

AGENT_EXECUTOR_INPUT: Final[dict[str, JsonValue]] = {
    "title": "AgentExecutorInput",
    "type": "object",
    "properties": {
        "input": {"title": "Input", "type": "string"},
        "chat_history": _MESSAGES | {"title": "Chat History"},
    },
    "required": ["input"],
}
"""What ``AgentExecutor`` takes (other keys pass on to the prompt)."""

AGENT_LOOP_INPUT: Final[dict[str, JsonValue]] = {
    "title": "AgentLoopInput",
    "anyOf": [
        {"title": "Question", "type": "string"},
        _MESSAGES,
        {
            "title": "QuestionAndHistory",
            "type": "object",
            "properties": {"input": {"title": "Input", "type": "string"}, "chat_history": _MESSAGES},
            "required": ["input"],
        },
        {"title": "Conversation", "type": "object", "properties": {"messages": _MESSAGES}, "required": ["messages"]},
    ],
}
"""What ``agent_loop`` without a prompt takes."""


def served_input_schema(runnable: AnyRunnable) -> dict[str, JsonValue]:
    """The JSON Schema a server publishes for ``runnable``'s input and checks requests against.

    >>> from combinators import RunnableLambda
    >>> def shout(text: str) -> str:
    ...     return text.upper()
    >>> served_input_schema(RunnableLambda(shout))
    {'title': 'shout_input', 'type': 'string'}
    """
    for _ in range(100):  # a sequence of sequences of bindings...: bounded, never a cycle
        if isinstance(runnable, RunnableSequence):
            runnable = runnable.first
        elif isinstance(runnable, RunnableBinding):
            runnable = runnable.bound
        else:
            break
    if isinstance(runnable, AgentExecutor):
        return dict(AGENT_EXECUTOR_INPUT)
    if isinstance(runnable, AgentLoop) and runnable.prompt is None:
        return dict(AGENT_LOOP_INPUT)
    if isinstance(runnable, RunnableParallel):
        return _parallel(runnable)
    return runnable.input_schema()


def _parallel(runnable: RunnableParallel[Never]) -> dict[str, JsonValue]:
    """The branches' object schemas merged (each branch gets the same input), as LangChain's;
    the parallel's own schema when a branch takes something other than an object."""
    own = runnable.input_schema()
    properties: dict[str, JsonValue] = {}
    required: list[JsonValue] = []
    for branch in runnable.steps.values():
        schema = served_input_schema(branch)
        if schema.get("type") != "object":
            if set(schema) - {"title", "description"}:
                return own  # a branch that takes a string, or anything: no object to publish
            continue
        given, names = schema.get("properties"), schema.get("required")
        if isinstance(given, dict):
            properties.update(given)
        if isinstance(names, list):
            required.extend(name for name in names if isinstance(name, str) and name not in required)
    if not properties:
        return own
    merged: dict[str, JsonValue] = {"title": own.get("title", "RunnableParallelInput"), "type": "object"}
    merged["properties"] = properties
    if required:
        merged["required"] = required
    return merged
