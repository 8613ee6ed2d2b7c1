"""The one table of LangChain's value types and the fields they share with ours.

Every conversion between LangChain's values and this library's (the LangChain bridge,
``combinators.integrations.langchain``; the LangServe wire format) reads this table, so
the two cannot drift: a field added here crosses both ways everywhere. It is plain data
(dotted names, no import of LangChain), so it loads without the ``langchain`` extra.

>>> VALUE_TYPES["AIMessage"].ours
'combinators.messages.AIMessage'
>>> "tool_calls" in VALUE_TYPES["AIMessage"].fields
True
>>> VALUE_TYPES["AIMessage"].tag, WIRE_TAGS["ChatPromptValueConcrete"].name
('ai', 'ChatPromptValue')
"""

import importlib
from collections.abc import Mapping
from typing import Final

import attrs

from effects.guards import is_subclass


@attrs.frozen
class ValueType:
    """One LangChain value class and its counterpart here.

    ``fields`` are the constructor fields both classes share by name (each crosses as is,
    converted recursively); ``derived`` are LangChain fields computed from the others
    (a chunk's ``tool_calls`` from its ``tool_call_chunks``), which never cross.
    ``tag`` is the ``type`` key of the class's field dict on LangServe's wire (what
    LangChain's ``model_dump()`` writes and both LangChain clients revive; empty for a
    class whose dump has none). ``declared`` names the fields LangChain declares as a base
    class, with that base's keys: pydantic dumps a field by its declared class, so only
    those keys of the value (or of each item) travel.

    >>> ValueType("langchain_core.documents.Document", "combinators.documents.Document", ("page_content",)).name
    'Document'
    """

    langchain: str
    ours: str
    fields: tuple[str, ...]
    derived: tuple[str, ...] = ()
    tag: str = ""
    declared: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def name(self) -> str:
        """The class name, the same on both sides."""
        return self.langchain.rpartition(".")[2]


_MESSAGE: Final = ("content", "id", "name", "additional_kwargs", "response_metadata")


def _message(name: str, tag: str, *extra: str, derived: tuple[str, ...] = ()) -> ValueType:
    return ValueType(
        f"langchain_core.messages.{name}", f"combinators.messages.{name}", (*_MESSAGE, *extra), derived, tag
    )


VALUE_TYPES: Final[Mapping[str, ValueType]] = {
    value.name: value
    for value in (
        _message("SystemMessage", "system"),
        _message("HumanMessage", "human"),
        _message("AIMessage", "ai", "tool_calls", "invalid_tool_calls", "usage_metadata"),
        _message(
            "AIMessageChunk",
            "AIMessageChunk",
            "tool_call_chunks",
            "usage_metadata",
            "chunk_position",
            derived=("tool_calls", "invalid_tool_calls"),
        ),
        _message("ToolMessage", "tool", "tool_call_id", "status", "artifact"),
        _message("FunctionMessage", "function"),
        _message("ChatMessage", "chat", "role"),
        ValueType(
            "langchain_core.documents.Document",
            "combinators.documents.Document",
            ("page_content", "metadata", "id"),
            tag="Document",
        ),
        ValueType(
            "langchain_core.prompt_values.StringPromptValue",
            "combinators.prompt_values.StringPromptValue",
            ("text",),
            tag="StringPromptValue",
        ),
        ValueType(
            "langchain_core.prompt_values.ChatPromptValue",
            "combinators.prompt_values.ChatPromptValue",
            ("messages",),
            tag="ChatPromptValueConcrete",
        ),
    )
}
"""LangChain's value classes by name (messages, documents, prompt values)."""

GENERATION_TYPES: Final[Mapping[str, ValueType]] = {
    value.name: value
    for value in (
        ValueType(
            "langchain_core.outputs.Generation",
            "combinators.outputs.Generation",
            ("text", "generation_info"),
            tag="Generation",
        ),
        ValueType(
            "langchain_core.outputs.ChatGeneration",
            "combinators.outputs.ChatGeneration",
            ("message", "generation_info"),
            ("text",),
            tag="ChatGeneration",
        ),
    )
}
"""What a model generated (LangServe's wire carries these too; the bridge does not convert them)."""

_BASE_MESSAGE_KEYS: Final = ("content", "additional_kwargs", "response_metadata", "type", "name", "id")

AGENT_TYPES: Final[Mapping[str, ValueType]] = {
    value.name: value
    for value in (
        ValueType(
            "langchain_classic.agents.output_parsers.tools.ToolAgentAction",
            "combinators.agents.ToolAgentAction",
            ("tool", "tool_input", "log", "message_log", "tool_call_id"),
            tag="AgentActionMessageLog",  # (its base class's: LangChain's ToolAgentAction does not set its own)
            declared=(("message_log", _BASE_MESSAGE_KEYS),),  # declared as BaseMessage
        ),
        ValueType(
            "langchain_core.agents.AgentStep",
            "combinators.agents.ToolAgentStep",
            ("action", "observation"),
            declared=(("action", ("tool", "tool_input", "log", "type")),),  # declared as AgentAction
        ),
    )
}
"""What LangChain's ``AgentExecutor.stream`` gives (the bridge does not convert them:
LangChain keeps them in ``langchain_classic``, which the bridge does not need)."""

WIRE_VALUE_TYPES: Final[tuple[ValueType, ...]] = (
    *VALUE_TYPES.values(),
    *GENERATION_TYPES.values(),
    *AGENT_TYPES.values(),
)
"""Every class LangServe's wire carries as LangChain's field dict."""

WIRE_TAGS: Final[Mapping[str, ValueType]] = {value.tag: value for value in WIRE_VALUE_TYPES if value.tag}
"""The tagged ones by their ``type`` tag: the only dicts a server or client of ours turns
back into objects (when they validate as that class)."""

READ_AS: Final[Mapping[str, str]] = {
    "HumanMessageChunk": "human",
    "SystemMessageChunk": "system",
    "ChatMessageChunk": "chat",
    "ToolMessageChunk": "tool",
    "FunctionMessageChunk": "function",
    "ChatGenerationChunk": "ChatGeneration",
}
"""Tags of LangServe's wire that have no class here, read as the class LangChain's
subclasses (``HumanMessageChunk`` is a ``HumanMessage``): only AI messages stream in
chunks here, so these arrive whole (they do not add up with ``+``). The other tags
LangServe revives stay dicts: ``AgentAction``, ``AgentFinish``, ``LLMResult`` (no class
here), and an ``AgentActionMessageLog`` without ``message_log`` or ``tool_call_id``
(only ``ToolAgentAction`` has a class)."""

PART_TYPES: Final[Mapping[str, tuple[str, tuple[str, ...]]]] = {
    "ToolCall": ("tool_call", ("name", "args", "id")),
    "ToolCallChunk": ("tool_call_chunk", ("name", "args", "id", "index")),
    "InvalidToolCall": ("invalid_tool_call", ("name", "args", "id", "error")),
    "UsageMetadata": (
        "",
        ("input_tokens", "output_tokens", "total_tokens", "input_token_details", "output_token_details"),
    ),
}
"""The parts of a message, which LangChain keeps as typed dicts: our class name -> (the
dict's ``type`` tag, empty when it has none; its keys)."""

DISCRIMINATOR_FIELDS: Final = frozenset({"type"})
"""LangChain fields that only name the class (never a field of ours)."""


def resolve_class(dotted: str) -> type:
    """The class a dotted name of the table names (its module imported on first use).

    >>> resolve_class("combinators.documents.Document").__name__
    'Document'
    """
    module, _, name = dotted.rpartition(".")
    found: object = getattr(importlib.import_module(module), name)
    if not is_subclass(found, object):
        raise TypeError(f"{dotted} is not a class")
    return found
