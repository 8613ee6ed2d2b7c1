"""Chat messages as frozen values, and the ``+`` of streamed AI chunks.

``content`` is a ``str`` or a tuple of parts; a part is a ``str`` or a content block, a
``Mapping`` such as ``{"type": "text", "text": "hi"}`` (blocks stay open-ended mappings
because providers add their own keys; they are copied on construction and typed
read-only). Lists given to a constructor become tuples.

>>> HumanMessage("hi")
HumanMessage('hi')
>>> (AIMessageChunk("Hel", id="lc_run--1") + AIMessageChunk("lo", id="chatcmpl-9")).content
'Hello'

The merge rules of ``+`` are in ``message_merge``, coercion from message-likes and the
text and dict forms in ``message_coercion``; both are importable from here too.

Deliberate differences from the peer: adjacent str parts of list content join (so ``+``
is associative; ``[] + "x"`` keeps the text, which the peer drops, and ``"" + [...]``
adds no empty part), a chunk sum keeps the first ``name``
(the peer drops it), and a chunk's ``tool_calls`` are parsed when first read instead
of at every ``+`` (so summing n chunks never re-parses the arguments n times).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Final, Literal, TypeAlias, final

import attrs

from combinators.authoring import changed_fields

from combinators.components.messages.merge import merge_content as merge_content
from combinators.components.messages.merge import merge_dicts as merge_dicts
from combinators.components.messages.merge import merge_lists as merge_lists
from combinators.components.messages.merge import merge_tool_call_chunks, preferred_id
from combinators.components.messages.fields import Content as Content
from combinators.components.messages.fields import ContentBlock as ContentBlock
from combinators.components.messages.fields import ContentLike as ContentLike
from combinators.components.messages.fields import ContentPart as ContentPart
from combinators.components.messages.fields import checked_mapping as checked_mapping
from combinators.components.messages.fields import checked_optional as checked_optional
from combinators.components.messages.fields import (
    no_items,
    text_of,
    to_content,
    to_mapping,
)
from combinators.components.partial_json.reader import parse_partial_json
from effects.authoring import checked

if TYPE_CHECKING:
    from combinators.components.messages.coercion import coerce_to_message as coerce_to_message
    from combinators.components.messages.coercion import coerce_to_messages as coerce_to_messages
    from combinators.components.messages.coercion import get_buffer_string as get_buffer_string
    from combinators.components.messages.coercion import message_to_dict as message_to_dict


from combinators.components.messages.ai_fields import InvalidToolCall as InvalidToolCall
from combinators.components.messages.ai_fields import ToolCall as ToolCall
from combinators.components.messages.ai_fields import ToolCallChunk as ToolCallChunk
from combinators.components.messages.ai_fields import UsageMetadata as UsageMetadata
from combinators.components.messages.ai_fields import (
    to_invalid_tool_calls,
    to_tool_call_chunks,
    to_tool_calls,
    to_usage,
)


# -- messages --------------------------------------------------------------------------


@attrs.frozen(repr=False)
class BaseMessage:
    """What every message has (abstract: only the concrete message classes are built).

    >>> isinstance(HumanMessage("hi"), BaseMessage), HumanMessage("hi").text
    (True, 'hi')
    """

    type: ClassVar[str] = "base"
    role_prefix: ClassVar[str] = ""  # how ``get_buffer_string`` names the speaker

    content: Content = attrs.field(converter=to_content)
    id: str | None = attrs.field(default=None, kw_only=True)
    name: str | None = attrs.field(default=None, kw_only=True)
    additional_kwargs: Mapping[str, object] = attrs.field(factory=no_items, converter=to_mapping, kw_only=True)
    response_metadata: Mapping[str, object] = attrs.field(factory=no_items, converter=to_mapping, kw_only=True)

    def __attrs_pre_init__(self) -> None:
        if type(self) is BaseMessage:
            raise TypeError(
                "BaseMessage is abstract; build a SystemMessage, HumanMessage, AIMessage, "
                "AIMessageChunk, ToolMessage, FunctionMessage or ChatMessage"
            )

    @classmethod
    def __get_pydantic_core_schema__(cls, source: object, handler: object) -> object:
        """Lets a pydantic model hold messages as they are (a history's ``messages`` field,
        say), checked by class. Only pydantic calls this, so only it imports pydantic.

        >>> import pydantic
        >>> class Turns(pydantic.BaseModel):
        ...     messages: list[BaseMessage]
        >>> Turns(messages=[HumanMessage("hi")]).messages
        [HumanMessage('hi')]
        """
        from pydantic_core import core_schema

        return core_schema.is_instance_schema(cls)

    @property
    def text(self) -> str:
        """The text: ``content`` itself, or its str parts and text blocks joined.

        >>> HumanMessage([{"type": "text", "text": "a"}, {"type": "image_url"}, "b"]).text
        'ab'
        """
        return text_of(self.content)

    def __repr__(self) -> str:
        # Reads like the call that built it: only the fields that differ from defaults.
        shown = [repr(self.content), *changed_fields(self, skip=("content",))]
        return f"{type(self).__name__}({', '.join(shown)})"


@final
@attrs.frozen(repr=False)
class SystemMessage(BaseMessage):
    """Instructions for the model.

    >>> SystemMessage("Be brief.").type
    'system'
    """

    type: ClassVar[str] = "system"
    role_prefix: ClassVar[str] = "System"


@final
@attrs.frozen(repr=False)
class HumanMessage(BaseMessage):
    """What the user said.

    >>> HumanMessage("hi", id="m1")
    HumanMessage('hi', id='m1')
    """

    type: ClassVar[str] = "human"
    role_prefix: ClassVar[str] = "Human"


@final
@attrs.frozen(repr=False)
class AIMessage(BaseMessage):
    """What the model said, with the tools it asked for and the tokens it used.

    >>> AIMessage("", tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c1"}]).tool_calls
    (ToolCall(name='f', args={'x': 1}, id='c1'),)
    """

    type: ClassVar[str] = "ai"
    role_prefix: ClassVar[str] = "AI"

    tool_calls: tuple[ToolCall, ...] = attrs.field(default=(), converter=to_tool_calls, kw_only=True)
    invalid_tool_calls: tuple[InvalidToolCall, ...] = attrs.field(
        default=(), converter=to_invalid_tool_calls, kw_only=True
    )
    usage_metadata: UsageMetadata | None = attrs.field(default=None, converter=to_usage, kw_only=True)


def _parse_tool_call_chunks(
    chunks: tuple[ToolCallChunk, ...],
) -> tuple[tuple[ToolCall, ...], tuple[InvalidToolCall, ...]]:
    calls: list[ToolCall] = []
    invalid: list[InvalidToolCall] = []
    for chunk in chunks:
        try:
            args = parse_partial_json(chunk.args) if chunk.args else {}
        except ValueError:
            args = None
        if isinstance(args, dict):
            calls.append(ToolCall(chunk.name or "", args, id=chunk.id))
        else:
            invalid.append(InvalidToolCall(chunk.name, chunk.args, chunk.id))
    return tuple(calls), tuple(invalid)


@final
@attrs.frozen(repr=False)
class AIMessageChunk(BaseMessage):
    """A streamed piece of an ``AIMessage``; chunks add up with ``+``.

    ``tool_calls`` are parsed (as partial JSON) from ``tool_call_chunks`` when read.

    >>> chunk = AIMessageChunk("", tool_call_chunks=[ToolCallChunk("f", '{"a": 1', "c1", 0)])
    >>> chunk.tool_calls
    (ToolCall(name='f', args={'a': 1}, id='c1'),)
    """

    type: ClassVar[str] = "AIMessageChunk"
    role_prefix: ClassVar[str] = "AI"

    tool_call_chunks: tuple[ToolCallChunk, ...] = attrs.field(default=(), converter=to_tool_call_chunks, kw_only=True)
    usage_metadata: UsageMetadata | None = attrs.field(default=None, converter=to_usage, kw_only=True)
    chunk_position: Literal["last"] | None = attrs.field(default=None, kw_only=True)

    @functools.cached_property
    def _parsed_tool_calls(self) -> tuple[tuple[ToolCall, ...], tuple[InvalidToolCall, ...]]:
        return _parse_tool_call_chunks(self.tool_call_chunks)

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        """The tool calls whose (partial) arguments parse to a JSON object."""
        return self._parsed_tool_calls[0]

    @property
    def invalid_tool_calls(self) -> tuple[InvalidToolCall, ...]:
        """The tool calls whose arguments are not a JSON object."""
        return self._parsed_tool_calls[1]

    def to_message(self) -> AIMessage:
        """The complete ``AIMessage`` this chunk (usually a sum of chunks) stands for.

        >>> AIMessageChunk("hi", id="x").to_message()
        AIMessage('hi', id='x')
        """
        return _whole(
            self.content, self.id, self.name, self.additional_kwargs, self.response_metadata,
            self.tool_call_chunks, self.usage_metadata,
        )  # fmt: skip

    def __add__(self, other: AIMessageChunk | Sequence[AIMessageChunk]) -> AIMessageChunk:
        if isinstance(other, AIMessageChunk):
            return add_ai_message_chunks(self, other)
        if isinstance(other, (list, tuple)):
            return add_ai_message_chunks(self, *other)  # which checks the element types
        return NotImplemented


@final
@attrs.frozen(repr=False)
class ToolMessage(BaseMessage):
    """The result of a tool call, answering the call with ``tool_call_id``.

    >>> ToolMessage("42", tool_call_id="c1").tool_call_id
    'c1'
    """

    type: ClassVar[str] = "tool"
    role_prefix: ClassVar[str] = "Tool"

    tool_call_id: str = attrs.field(kw_only=True)
    status: Literal["success", "error"] = attrs.field(default="success", kw_only=True)
    artifact: object = attrs.field(default=None, kw_only=True)


@final
@attrs.frozen(repr=False)
class FunctionMessage(BaseMessage):
    """The result of a function call in the older function-calling form, named by ``name``
    (required): LangChain's ``FunctionMessage``, what its ``AgentExecutor.stream`` gives
    for each tool result (a model gets ``ToolMessage`` answers from ``agent_loop``).

    >>> FunctionMessage("42", name="multiply")
    FunctionMessage('42', name='multiply')
    >>> FunctionMessage("42")
    Traceback (most recent call last):
    ...
    TypeError: a FunctionMessage needs the function's name (a str), got None
    """

    type: ClassVar[str] = "function"
    role_prefix: ClassVar[str] = "Function"

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise TypeError(f"a FunctionMessage needs the function's name (a str), got {self.name!r}")


@final
@attrs.frozen(repr=False)
class ChatMessage(BaseMessage):
    """A message from a speaker named by ``role`` (for roles the other classes do not cover).

    >>> ChatMessage("Looks good.", role="critic").role
    'critic'
    """

    type: ClassVar[str] = "chat"

    role: str = attrs.field(kw_only=True)


Message: TypeAlias = (
    "SystemMessage | HumanMessage | AIMessage | AIMessageChunk | ToolMessage | FunctionMessage | ChatMessage"
)
"""Every message type (a closed union)."""

MESSAGE_CLASSES: Final = (
    SystemMessage, HumanMessage, AIMessage, AIMessageChunk, ToolMessage, FunctionMessage, ChatMessage,
)  # fmt: skip
"""The message classes (what ``Message`` is), for ``isinstance``."""

MESSAGE_TYPES: Final[tuple[type, ...]] = (*MESSAGE_CLASSES, ToolCall, ToolCallChunk, InvalidToolCall, UsageMetadata)
"""The message classes and their parts: an allowlist for ``serialization.loads``."""


# -- adding chunks ------------------------------------------------------------------------


def add_ai_message_chunks(first: AIMessageChunk, *others: AIMessageChunk) -> AIMessageChunk:
    """Add chunks in one go (the same as ``first + a + b ...``).

    >>> add_ai_message_chunks(AIMessageChunk("a"), AIMessageChunk("b"), AIMessageChunk("c")).content
    'abc'
    """
    added = _Sum(first, others)
    last = any(c.chunk_position == "last" for c in added.chunks)
    return chunk_of(added, added.tool_call_chunks, chunk_position="last" if last else None)


def chunk_of(
    message: AIMessage | AIMessageChunk | _Sum,
    tool_call_chunks: Sequence[ToolCallChunk],
    *,
    chunk_position: Literal["last"] | None = None,
) -> AIMessageChunk:
    """The ``AIMessageChunk`` with ``message``'s fields (an AI message's, a chunk's or a
    sum's) and ``tool_call_chunks``.

    >>> chunk_of(AIMessage("hi", id="x", name="bot"), (), chunk_position="last")
    AIMessageChunk('hi', id='x', name='bot', chunk_position='last')
    """
    return AIMessageChunk(
        message.content,
        id=message.id,
        name=message.name,
        additional_kwargs=message.additional_kwargs,
        response_metadata=message.response_metadata,
        tool_call_chunks=tool_call_chunks,
        usage_metadata=message.usage_metadata,
        chunk_position=chunk_position,
    )


def whole_message(chunks: Sequence[AIMessageChunk]) -> AIMessage:
    """The ``AIMessage`` that streamed ``chunks`` (at least one) add up to: the same as
    ``add_ai_message_chunks(*chunks).to_message()``, without building the sum's chunk.

    >>> whole_message([AIMessageChunk("4"), AIMessageChunk("2")])
    AIMessage('42')
    """
    added = _Sum(chunks[0], chunks[1:])
    return _whole(
        added.content, added.id, added.name, added.additional_kwargs, added.response_metadata,
        added.tool_call_chunks, added.usage_metadata,
    )  # fmt: skip


def _whole(
    content: Content,
    id: str | None,
    name: str | None,
    additional_kwargs: Mapping[str, object],
    response_metadata: Mapping[str, object],
    tool_call_chunks: tuple[ToolCallChunk, ...],
    usage: UsageMetadata | None,
) -> AIMessage:
    # The calls are parsed here, not through a chunk's cached property: the chunk is
    # usually a sum made for this one message, and the cache costs more than the parse.
    calls, invalid = _parse_tool_call_chunks(tool_call_chunks) if tool_call_chunks else ((), ())
    return AIMessage(
        content,
        id=id,
        name=name,
        additional_kwargs=additional_kwargs,
        response_metadata=response_metadata,
        tool_calls=calls,
        invalid_tool_calls=invalid,
        usage_metadata=usage,
    )


@final
class _Sum:
    """The fields of a sum of chunks, merged by the peer's rules (``merge``)."""

    __slots__ = (
        "chunks",
        "content",
        "id",
        "name",
        "additional_kwargs",
        "response_metadata",
        "tool_call_chunks",
        "usage_metadata",
    )

    def __init__(self, first: AIMessageChunk, others: Sequence[AIMessageChunk]) -> None:
        chunks = self.chunks = (first, *others)
        for chunk in chunks:
            checked(chunk, AIMessageChunk, "can only add AIMessageChunk values")
        texts = [chunk.content for chunk in chunks if isinstance(chunk.content, str)]
        content: Content
        if len(texts) == len(chunks):
            content = "".join(texts)  # one join instead of n concatenations
        else:
            content = first.content
            for chunk in others:
                content = merge_content(content, chunk.content)
        additional_kwargs, response_metadata = first.additional_kwargs, first.response_metadata
        tool_call_chunks = first.tool_call_chunks
        usage = first.usage_metadata
        for chunk in others:
            if chunk.additional_kwargs:  # merging an empty mapping only copies (the message copies anyway)
                additional_kwargs = merge_dicts(additional_kwargs, chunk.additional_kwargs)
            if chunk.response_metadata:
                response_metadata = merge_dicts(response_metadata, chunk.response_metadata)
            if chunk.tool_call_chunks:
                tool_call_chunks = merge_tool_call_chunks(tool_call_chunks, chunk.tool_call_chunks)
            if chunk.usage_metadata is not None:
                usage = chunk.usage_metadata if usage is None else usage + chunk.usage_metadata
        self.content = content
        self.id = preferred_id(chunk.id for chunk in chunks)
        self.name = next((chunk.name for chunk in chunks if chunk.name is not None), None)
        self.additional_kwargs = additional_kwargs
        self.response_metadata = response_metadata
        self.tool_call_chunks = tool_call_chunks
        self.usage_metadata = usage


# -- re-exports -----------------------------------------------------------------------------

_COERCION: Final = frozenset({"coerce_to_message", "coerce_to_messages", "get_buffer_string", "message_to_dict"})


def __getattr__(name: str) -> object:
    # The coercion functions build these values, so their module imports this one; they
    # are re-exported on first use (PEP 562) so that this module never imports it back.
    if name in _COERCION:
        return getattr(importlib.import_module("combinators.components.messages.coercion"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
