"""Chat messages as frozen values, the ``+`` of streamed AI chunks, and coercion.

``content`` is a ``str`` or a tuple of parts; a part is a ``str`` or a content block, a
``Mapping`` such as ``{"type": "text", "text": "hi"}`` (blocks stay open-ended mappings
because providers add their own keys; they are copied on construction and typed
read-only). Lists given to a constructor become tuples.

>>> HumanMessage("hi")
HumanMessage('hi')
>>> (AIMessageChunk("Hel", id="lc_run--1") + AIMessageChunk("lo", id="chatcmpl-9")).content
'Hello'
>>> get_buffer_string(coerce_to_messages([("system", "Be brief."), "Hi!"]))
'System: Be brief.\\nHuman: Hi!'

Deliberate differences from the peer: adjacent str parts of list content join (so ``+``
is associative; ``[] + "x"`` keeps the text, which the peer drops, and ``"" + [...]``
adds no empty part), a chunk sum keeps the first ``name``
(the peer drops it), and a chunk's ``tool_calls`` are parsed when first read instead
of at every ``+`` (so summing n chunks never re-parses the arguments n times).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar, Final, Literal, TypeAlias, TypeVar, cast, final

import attrs

from combinators.components.partial_json import parse_partial_json

_T = TypeVar("_T")
_FACTORY: Final = cast("type[object]", attrs.Factory)  # a function to type checkers, a class at runtime

ContentBlock: TypeAlias = Mapping[str, object]
"""An open-ended content block, e.g. ``{"type": "text", "text": "hi"}``."""
ContentPart: TypeAlias = "str | ContentBlock"
Content: TypeAlias = "str | tuple[ContentPart, ...]"
ContentLike: TypeAlias = "str | Sequence[str | Mapping[str, object]]"


def _to_content(value: ContentLike) -> Content:
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):  # pyright: ignore[reportUnnecessaryIsInstance] - untyped callers
        parts: list[ContentPart] = []
        for part in value:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
                parts.append(dict(part))
            else:
                raise TypeError(
                    "message content parts must be str or mappings (content blocks), "
                    f"got {type(part).__name__}"
                )
        return tuple(parts)
    raise TypeError(
        f"message content must be a str or a sequence of parts, got {type(value).__name__}"
    )


def _to_mapping(value: Mapping[str, object] | None) -> Mapping[str, object]:
    # A private copy, typed read-only, so the caller's dict can never change the message.
    if value is None:
        return {}
    if not isinstance(value, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"expected a mapping, got {type(value).__name__}")
    return dict(value)


def _no_items() -> dict[str, object]:
    return {}


def _to_token_details(value: Mapping[str, int] | None) -> Mapping[str, int]:
    return {} if value is None else dict(value)


# -- tool calls and usage -------------------------------------------------------------


@final
@attrs.frozen
class ToolCall:
    """A complete request from the model to call a tool.

    >>> ToolCall("search", {"q": "cats"}, id="call_1").args["q"]
    'cats'
    """

    name: str
    args: Mapping[str, object] = attrs.field(factory=_no_items, converter=_to_mapping)
    id: str | None = None


@final
@attrs.frozen
class ToolCallChunk:
    """A streamed piece of a tool call; pieces with the same ``index`` add up.

    >>> ToolCallChunk(name="search", args='{"q": "ca', index=0).args
    '{"q": "ca'
    """

    name: str | None = None
    args: str | None = None
    id: str | None = None
    index: int | None = None


@final
@attrs.frozen
class InvalidToolCall:
    """A tool call whose arguments are not a JSON object.

    >>> InvalidToolCall(name="f", args="[1]").error is None
    True
    """

    name: str | None = None
    args: str | None = None
    id: str | None = None
    error: str | None = None


def _add_details(left: Mapping[str, int], right: Mapping[str, int]) -> Mapping[str, int]:
    return {key: left.get(key, 0) + right.get(key, 0) for key in {**left, **right}}


@final
@attrs.frozen
class UsageMetadata:
    """Token counts; ``+`` adds them up, details key by key.

    >>> (UsageMetadata(1, 2, 3) + UsageMetadata(10, 20, 30)).total_tokens
    33
    """

    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    input_token_details: Mapping[str, int] = attrs.field(default=None, converter=_to_token_details)
    output_token_details: Mapping[str, int] = attrs.field(default=None, converter=_to_token_details)

    def __add__(self, other: UsageMetadata) -> UsageMetadata:
        if not isinstance(other, UsageMetadata):  # pyright: ignore[reportUnnecessaryIsInstance]
            return NotImplemented
        return UsageMetadata(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.total_tokens + other.total_tokens,
            _add_details(self.input_token_details, other.input_token_details),
            _add_details(self.output_token_details, other.output_token_details),
        )


def _str_mapping(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a mapping, got {type(value).__name__}")
    return cast("Mapping[str, object]", value)


def _optional(value: object, kind: type[_T], what: str) -> _T | None:
    if value is None or isinstance(value, kind):
        return value
    raise TypeError(f"{what} must be {kind.__name__} or None, got {type(value).__name__}")


def _to_usage(value: UsageMetadata | Mapping[str, object] | None) -> UsageMetadata | None:
    if value is None or isinstance(value, UsageMetadata):
        return value
    usage = _str_mapping(value, "usage_metadata")
    def count(key: str) -> int:
        return _optional(usage.get(key), int, f"usage_metadata[{key!r}]") or 0

    def details(key: str) -> Mapping[str, int] | None:
        return cast("Mapping[str, int]", _str_mapping(usage[key], key)) if key in usage else None

    return UsageMetadata(
        count("input_tokens"),
        count("output_tokens"),
        count("total_tokens"),
        details("input_token_details"),
        details("output_token_details"),
    )


def _to_tool_calls(values: Iterable[ToolCall | Mapping[str, object]]) -> tuple[ToolCall, ...]:
    calls: list[ToolCall] = []
    for value in values:
        if not isinstance(value, ToolCall):
            call = _str_mapping(value, "a tool call")
            name = call.get("name")
            if not isinstance(name, str):
                raise TypeError(f"a tool call needs a str 'name', got {call!r}")
            args = _str_mapping(call.get("args", {}), "tool call 'args'")
            value = ToolCall(name, args, id=_optional(call.get("id"), str, "tool call 'id'"))
        calls.append(value)
    return tuple(calls)


def _to_invalid_tool_calls(
    values: Iterable[InvalidToolCall | Mapping[str, object]],
) -> tuple[InvalidToolCall, ...]:
    calls: list[InvalidToolCall] = []
    for value in values:
        if not isinstance(value, InvalidToolCall):
            call = _str_mapping(value, "an invalid tool call")
            fields = [_optional(call.get(k), str, f"invalid tool call {k!r}") for k in _INVALID_FIELDS]
            value = InvalidToolCall(*fields)
        calls.append(value)
    return tuple(calls)


def _to_tool_call_chunks(
    values: Iterable[ToolCallChunk | Mapping[str, object]],
) -> tuple[ToolCallChunk, ...]:
    chunks: list[ToolCallChunk] = []
    for value in values:
        if not isinstance(value, ToolCallChunk):
            chunk = _str_mapping(value, "a tool call chunk")
            name, args, call_id = (_optional(chunk.get(k), str, f"tool call chunk {k!r}") for k in ("name", "args", "id"))
            index = _optional(chunk.get("index"), int, "tool call chunk 'index'")
            value = ToolCallChunk(name, args, call_id, index)
        chunks.append(value)
    return tuple(chunks)


_INVALID_FIELDS: Final = ("name", "args", "id", "error")


# -- messages --------------------------------------------------------------------------


def _text_of(content: Content) -> str:
    if isinstance(content, str):
        return content
    pieces: list[str] = []
    for part in content:
        if isinstance(part, str):
            pieces.append(part)
        elif part.get("type") == "text":
            text = part.get("text")
            if isinstance(text, str):
                pieces.append(text)
    return "".join(pieces)


@attrs.frozen(repr=False)
class BaseMessage:
    """What every message has (abstract: only the concrete message classes are built)."""

    type: ClassVar[str] = "base"
    role_prefix: ClassVar[str] = ""  # how ``get_buffer_string`` names the speaker

    content: Content = attrs.field(converter=_to_content)
    id: str | None = attrs.field(default=None, kw_only=True)
    name: str | None = attrs.field(default=None, kw_only=True)
    additional_kwargs: Mapping[str, object] = attrs.field(
        factory=_no_items, converter=_to_mapping, kw_only=True
    )
    response_metadata: Mapping[str, object] = attrs.field(
        factory=_no_items, converter=_to_mapping, kw_only=True
    )

    def __attrs_pre_init__(self) -> None:
        if type(self) is BaseMessage:
            raise TypeError(
                "BaseMessage is abstract; build a SystemMessage, HumanMessage, AIMessage, "
                "AIMessageChunk or ToolMessage"
            )

    @property
    def text(self) -> str:
        """The text: ``content`` itself, or its str parts and text blocks joined.

        >>> HumanMessage([{"type": "text", "text": "a"}, {"type": "image_url"}, "b"]).text
        'ab'
        """
        return _text_of(self.content)

    def __repr__(self) -> str:
        # Reads like the call that built it: only the fields that differ from defaults.
        shown = [repr(self.content)]
        for field in attrs.fields(type(self))[1:]:
            value = getattr(self, field.name)
            default: object = field.default
            if isinstance(default, _FACTORY):
                default = getattr(default, "factory")()  # noqa: B009 - typed as a function
            if value != default or default is attrs.NOTHING:
                shown.append(f"{field.name}={value!r}")
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

    tool_calls: tuple[ToolCall, ...] = attrs.field(
        default=(), converter=_to_tool_calls, kw_only=True
    )
    invalid_tool_calls: tuple[InvalidToolCall, ...] = attrs.field(
        default=(), converter=_to_invalid_tool_calls, kw_only=True
    )
    usage_metadata: UsageMetadata | None = attrs.field(default=None, converter=_to_usage, kw_only=True)


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

    tool_call_chunks: tuple[ToolCallChunk, ...] = attrs.field(
        default=(), converter=_to_tool_call_chunks, kw_only=True
    )
    usage_metadata: UsageMetadata | None = attrs.field(default=None, converter=_to_usage, kw_only=True)
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
        return AIMessage(
            self.content,
            id=self.id,
            name=self.name,
            additional_kwargs=self.additional_kwargs,
            response_metadata=self.response_metadata,
            tool_calls=self.tool_calls,
            invalid_tool_calls=self.invalid_tool_calls,
            usage_metadata=self.usage_metadata,
        )

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


Message: TypeAlias = "SystemMessage | HumanMessage | AIMessage | AIMessageChunk | ToolMessage"
"""Every message type (a closed union)."""

MESSAGE_TYPES: Final[tuple[type, ...]] = (
    SystemMessage, HumanMessage, AIMessage, AIMessageChunk, ToolMessage,
    ToolCall, ToolCallChunk, InvalidToolCall, UsageMetadata,
)  # fmt: skip
"""The message classes and their parts: an allowlist for ``serialization.loads``."""


# -- adding chunks (the peer's merge rules) ---------------------------------------------

_LAST_WINS: Final = frozenset({"index", "created", "timestamp"})
_KEEP_IF_EQUAL: Final = frozenset({"id", "output_version", "model_provider"})


def merge_dicts(left: Mapping[str, object], right: Mapping[str, object]) -> dict[str, object]:
    """Deep-merge two metadata mappings as streamed chunks do.

    Strings concatenate, mappings merge, lists merge by element ``index``, equal
    values stay, other ints add (``index``, ``created``, ``timestamp``: last wins),
    ``None`` gives way; different types are a ``TypeError``.

    >>> merge_dicts({"a": "x", "n": 1, "f": None}, {"a": "y", "n": 2, "f": "stop"})
    {'a': 'xy', 'n': 3, 'f': 'stop'}
    """
    merged = dict(left)
    for key, value in right.items():
        current = merged.get(key)
        if key not in merged or (value is not None and current is None):
            merged[key] = value
        elif value is None:
            continue
        elif type(current) is not type(value):
            raise TypeError(
                f"cannot merge key {key!r}: {type(current).__name__} and {type(value).__name__}"
            )
        elif isinstance(current, str):
            assert isinstance(value, str)
            if (key == "index" and current.startswith("lc_")) or (
                key in _KEEP_IF_EQUAL and current == value
            ):
                continue
            merged[key] = current + value
        elif isinstance(current, dict):
            merged[key] = merge_dicts(current, value)  # type: ignore[arg-type]  # same type
        elif isinstance(current, list):
            merged[key] = merge_lists(current, value)  # type: ignore[arg-type]  # same type
        elif current == value:
            continue
        elif isinstance(current, int) and not isinstance(current, bool):
            merged[key] = value if key in _LAST_WINS else current + value  # type: ignore[operator]
        else:
            raise TypeError(f"cannot merge key {key!r}: two different {type(current).__name__} values")
    return merged


def _merge_index(element: object) -> int | str | None:
    if isinstance(element, Mapping):
        index = cast("Mapping[str, object]", element).get("index")
        if (isinstance(index, int) and not isinstance(index, bool)) or (
            isinstance(index, str) and index.startswith("lc_")
        ):
            return index
    return None


def _ids_agree(left: Mapping[str, object], right: Mapping[str, object]) -> bool:
    return left.get("id") in (None, "") or right.get("id") in (None, "") or left.get("id") == right.get("id")


def _merge_into(merged: list[object], element: object) -> None:
    index = _merge_index(element)
    if index is not None:
        block = cast("Mapping[str, object]", element)
        for position, existing in enumerate(merged):
            if _merge_index(existing) == index and _ids_agree(cast("Mapping[str, object]", existing), block):
                # The right-hand "type" is dropped so "text" + "text" stays "text".
                addition = {k: v for k, v in block.items() if k != "type"}
                merged[position] = merge_dicts(cast("Mapping[str, object]", existing), addition)
                return
    merged.append(element)


def merge_lists(left: Sequence[object], right: Sequence[object]) -> list[object]:
    """Concatenate, except that mappings with the same ``index`` (and agreeing ids) merge.

    >>> merge_lists([{"index": 0, "text": "a"}], [{"index": 0, "text": "b"}, 5])
    [{'index': 0, 'text': 'ab'}, 5]
    """
    merged = list(left)
    for element in right:
        _merge_into(merged, element)
    return merged


def merge_content(left: Content, right: Content) -> Content:
    """Add two contents: strings concatenate, blocks merge by ``index`` as in the peer.

    Adjacent str parts are one text, so they join; that keeps ``+`` associative (the
    peer keeps ``"a" + ["b"]`` as two parts, and is not).

    >>> merge_content("a", "b"), merge_content(("a",), "b"), merge_content("a", ("b", {"type": "x"}))
    ('ab', ('ab',), ('ab', {'type': 'x'}))
    """
    if isinstance(left, str) and isinstance(right, str):
        return left + right
    merged: list[object] = list(left) if not isinstance(left, str) else [left] if left else []
    for part in (right,) if isinstance(right, str) else right:
        last = merged[-1] if merged else None
        if isinstance(part, str):
            if isinstance(last, str):
                merged[-1] = last + part
            elif part:
                merged.append(part)
        else:
            _merge_into(merged, part)
    return tuple(cast("list[ContentPart]", merged))


def _merge_tool_call_chunks(
    left: tuple[ToolCallChunk, ...], right: tuple[ToolCallChunk, ...]
) -> tuple[ToolCallChunk, ...]:
    def joined(a: str | None, b: str | None) -> str | None:
        return b if a is None else a if b is None else a + b

    merged = list(left)
    for chunk in right:
        if chunk.index is not None:
            for position, existing in enumerate(merged):
                if existing.index == chunk.index and (
                    not existing.id or not chunk.id or existing.id == chunk.id
                ):
                    merged[position] = ToolCallChunk(
                        name=joined(existing.name, chunk.name),
                        args=joined(existing.args, chunk.args),
                        id=existing.id if existing.id == chunk.id else joined(existing.id, chunk.id),
                        index=chunk.index,
                    )
                    break
            else:
                merged.append(chunk)
        else:
            merged.append(chunk)
    return tuple(merged)


_LC_RUN_PREFIX: Final = "lc_run-"
_LC_PREFIX: Final = "lc_"


def _preferred_id(ids: Iterable[str | None]) -> str | None:
    # Provider ids beat "lc_run-*" ids, which beat other "lc_*" ids; first wins a tie.
    best, best_rank = None, -1
    for candidate in ids:
        if not candidate:
            continue
        if not candidate.startswith(_LC_PREFIX):
            return candidate
        rank = 1 if candidate.startswith(_LC_RUN_PREFIX) else 0
        if rank > best_rank:
            best, best_rank = candidate, rank
    return best


def add_ai_message_chunks(first: AIMessageChunk, *others: AIMessageChunk) -> AIMessageChunk:
    """Add chunks in one go (the same as ``first + a + b ...``).

    >>> add_ai_message_chunks(AIMessageChunk("a"), AIMessageChunk("b"), AIMessageChunk("c")).content
    'abc'
    """
    chunks = (first, *others)
    for chunk in chunks:
        if not isinstance(chunk, AIMessageChunk):  # pyright: ignore[reportUnnecessaryIsInstance] - untyped callers
            raise TypeError(f"can only add AIMessageChunk values, got {type(chunk).__name__}")
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
        additional_kwargs = merge_dicts(additional_kwargs, chunk.additional_kwargs)
        response_metadata = merge_dicts(response_metadata, chunk.response_metadata)
        if chunk.tool_call_chunks:
            tool_call_chunks = _merge_tool_call_chunks(tool_call_chunks, chunk.tool_call_chunks)
        if chunk.usage_metadata is not None:
            usage = chunk.usage_metadata if usage is None else usage + chunk.usage_metadata
    return AIMessageChunk(
        content,
        id=_preferred_id(chunk.id for chunk in chunks),
        name=next((chunk.name for chunk in chunks if chunk.name is not None), None),
        additional_kwargs=additional_kwargs,
        response_metadata=response_metadata,
        tool_call_chunks=tool_call_chunks,
        usage_metadata=usage,
        chunk_position="last" if any(c.chunk_position == "last" for c in chunks) else None,
    )


# -- text, dicts and coercion -------------------------------------------------------------


def get_buffer_string(
    messages: Iterable[Message], *, human_prefix: str = "Human", ai_prefix: str = "AI"
) -> str:
    """The conversation as text, one ``Speaker: text`` line per message.

    >>> get_buffer_string([SystemMessage("s"), HumanMessage("h"), AIMessage("a")])
    'System: s\\nHuman: h\\nAI: a'
    """
    lines: list[str] = []
    for message in messages:
        prefix = message.role_prefix
        if isinstance(message, HumanMessage):
            prefix = human_prefix
        elif isinstance(message, (AIMessage, AIMessageChunk)):
            prefix = ai_prefix
        lines.append(f"{prefix}: {message.text}")
    return "\n".join(lines)


def _plain(value: object) -> object:
    # JSON-shaped copies: mappings become dicts, tuples become lists.
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in cast("Mapping[object, object]", value).items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in cast("Sequence[object]", value)]
    return value


def message_to_dict(message: Message) -> dict[str, object]:
    """The peer's ``{"type": ..., "data": {...}}`` shape, with plain lists and dicts.

    >>> message_to_dict(HumanMessage("hi"))["data"]["content"]
    'hi'
    """
    data: dict[str, object] = {
        "content": _plain(message.content),
        "additional_kwargs": _plain(message.additional_kwargs),
        "response_metadata": _plain(message.response_metadata),
        "type": message.type,
        "name": message.name,
        "id": message.id,
    }
    if isinstance(message, (AIMessage, AIMessageChunk)):
        data["tool_calls"] = [
            {"name": c.name, "args": _plain(c.args), "id": c.id, "type": "tool_call"}
            for c in message.tool_calls
        ]
        data["invalid_tool_calls"] = [
            {"name": c.name, "args": c.args, "id": c.id, "error": c.error, "type": "invalid_tool_call"}
            for c in message.invalid_tool_calls
        ]
        data["usage_metadata"] = None if message.usage_metadata is None else _plain(
            attrs.asdict(message.usage_metadata)
        )
    if isinstance(message, AIMessageChunk):
        data["tool_call_chunks"] = [
            {"name": c.name, "args": c.args, "id": c.id, "index": c.index, "type": "tool_call_chunk"}
            for c in message.tool_call_chunks
        ]
        data["chunk_position"] = message.chunk_position
    if isinstance(message, ToolMessage):
        data.update(tool_call_id=message.tool_call_id, status=message.status, artifact=message.artifact)
    return {"type": message.type, "data": data}


_ROLES: Final = "'system', 'developer', 'human', 'user', 'ai', 'assistant' or 'tool'"
_MESSAGE_CLASSES: Final = (SystemMessage, HumanMessage, AIMessage, AIMessageChunk, ToolMessage)


def _from_role(role: str, content: object, extra: Mapping[str, object], source: object) -> Message:
    if not isinstance(content, (str, list, tuple)):
        raise TypeError(
            f"message content must be a str or a list of parts, got {type(content).__name__} in {source!r}"
        )
    body = cast(ContentLike, content)
    rest = dict(extra)
    additional = dict(_str_mapping(rest.pop("additional_kwargs", None) or {}, "'additional_kwargs'"))
    metadata = _str_mapping(rest.pop("response_metadata", None) or {}, "'response_metadata'")
    message_id = _optional(rest.pop("id", None), str, "message 'id'")
    name = _optional(rest.pop("name", None), str, "message 'name'")
    tool_call_id = rest.pop("tool_call_id", None)
    tool_calls = rest.pop("tool_calls", None) or ()
    additional.update(rest)  # unknown keys travel as additional_kwargs, as in the peer
    if role == "developer":
        additional["__openai_role__"] = "developer"
    common = {"id": message_id, "name": name, "additional_kwargs": additional, "response_metadata": metadata}
    if role in ("system", "developer"):
        return SystemMessage(body, **common)  # type: ignore[arg-type]  # typed above
    if role in ("human", "user"):
        return HumanMessage(body, **common)  # type: ignore[arg-type]
    if role in ("ai", "assistant"):
        if not isinstance(tool_calls, (list, tuple)):
            raise TypeError(f"'tool_calls' must be a list, got {type(tool_calls).__name__}")
        calls = cast("Sequence[Mapping[str, object]]", tool_calls)
        return AIMessage(body, tool_calls=calls, **common)  # type: ignore[arg-type]
    if role == "tool":
        if not isinstance(tool_call_id, str):
            raise ValueError(f"a tool message needs a str 'tool_call_id' (use a dict or ToolMessage), got {source!r}")
        return ToolMessage(body, tool_call_id=tool_call_id, **common)  # type: ignore[arg-type]
    raise ValueError(f"unknown message role {role!r} in {source!r}; expected {_ROLES}")


def coerce_to_message(value: object) -> Message:
    """A message from a message, a str (a human message), a ``(role, content)`` pair or a
    ``{"role": ..., "content": ...}`` dict (``"type"`` may stand for ``"role"``).

    >>> coerce_to_message(("assistant", "hi"))
    AIMessage('hi')
    >>> coerce_to_message({"role": "tool", "content": "42", "tool_call_id": "c1"})
    ToolMessage('42', tool_call_id='c1')
    """
    if isinstance(value, _MESSAGE_CLASSES):
        return value
    if isinstance(value, str):
        return HumanMessage(value)
    if isinstance(value, (tuple, list)):
        pair = cast("Sequence[object]", value)
        if len(pair) != 2 or not isinstance(pair[0], str):
            raise ValueError(f"a message as a sequence must be a (role, content) pair, got {value!r}")
        return _from_role(pair[0], pair[1], {}, pair)
    if isinstance(value, Mapping):
        source = cast("Mapping[str, object]", value)
        fields = dict(source)
        role = fields.pop("role", None) or fields.pop("type", None)
        if not isinstance(role, str) or "content" not in fields:
            raise ValueError(f"a message dict needs a str 'role' (or 'type') and a 'content', got {source!r}")
        content = fields.pop("content")
        return _from_role(role, content, fields, source)
    raise TypeError(
        f"cannot make a message from a {type(value).__name__}: expected a message, a str, "
        "a (role, content) pair or a {'role': ..., 'content': ...} dict"
    )


def coerce_to_messages(values: Iterable[object]) -> tuple[Message, ...]:
    """Messages from a sequence of anything ``coerce_to_message`` accepts.

    >>> coerce_to_messages([("system", "s"), {"role": "user", "content": "u"}])
    (SystemMessage('s'), HumanMessage('u'))
    """
    if isinstance(values, (str, Mapping)):
        kind = type(cast(object, values)).__name__
        raise TypeError(
            f"coerce_to_messages expects a sequence of message-likes, got a {kind}; "
            "wrap a single message in a list"
        )
    return tuple(coerce_to_message(value) for value in values)
