"""``BaseChatModel`` and ``SimpleChatModel``: messages in, an ``AIMessage`` out.

Implement ``_generate`` (and optionally ``_agenerate``, ``_stream``, ``_astream``);
the input may be a string, messages, ``(role, text)`` tuples, dicts or a prompt
value. ``stop`` and other call options arrive as keyword arguments
(``model.invoke(x, stop=["\\n"])`` or ``model.with_kwargs(stop=[...])``). A model
without a stream hook yields one ``AIMessage`` from ``stream``.

>>> import attrs
>>> from combinators.components.messages.message_classes import AIMessage
>>> @attrs.frozen
... class Echo(BaseChatModel):
...     def _generate(self, messages, stop=None, **kwargs):
...         return AIMessage(messages[-1].text.upper())
>>> Echo().invoke("hello")
AIMessage('HELLO', id='lc_run--...')
>>> Echo().describe_input("hi")
{'messages': [[HumanMessage('hi')]]}
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeAlias, TypeVar


from combinators.components.messages.message_classes import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    Message,
    coerce_to_messages,
    whole_message,
)
from combinators.components.messages.ai_fields import fresh_run_id
from combinators.components.models.model_params import langsmith_metadata, model_params
from combinators.components.prompts.prompt_values import ChatPromptValue, StringPromptValue
from combinators.components.tools.specs import ToolChoice, ToolSpec, tool_choice_to_openai, tool_to_openai
from combinators.components.run_fields import NamedRunFields
from combinators import Runnable
from combinators.authoring import DeclaredFields, is_library_code
from effects.errors import EmptyStreamError, InputError
from effects import RunInfo
from effects.authoring import Scope
from effects.authoring import closing
from effects.authoring import arun_on_total, in_worker, is_list_of, run_on_total, stream_in_worker
from effects.authoring import allow_slot_copy, field_setter, slot_copy

if TYPE_CHECKING:
    from combinators.authoring import InputDraw

MessageLikeRepresentation: TypeAlias = "BaseMessage | str | tuple[str, str] | list[str] | Mapping[str, object]"
"""One message, or what stands for one: a (role, content) pair, a str (from a human), a
``{"role": ..., "content": ...}`` dict."""

LanguageModelInput: TypeAlias = "str | StringPromptValue | ChatPromptValue | Sequence[MessageLikeRepresentation]"
"""What a model accepts: text, a prompt value, or a list of message-likes."""

ChatOutput: TypeAlias = "AIMessage | AIMessageChunk"
"""What a chat model gives: an ``AIMessage`` from ``invoke``, chunks from ``stream``."""


def to_messages(value: object, model: str) -> list[Message]:
    """The messages a model input stands for.

    >>> to_messages("hi", "m")
    [HumanMessage('hi')]
    >>> to_messages(3, "m")
    Traceback (most recent call last):
    ...
    effects.errors.InputError: m expects a str, messages or a prompt value, got int
    """
    if isinstance(value, str):
        return list(coerce_to_messages([value]))
    if isinstance(value, StringPromptValue | ChatPromptValue):
        return value.to_messages()
    if isinstance(value, Sequence) and not isinstance(value, bytes):
        items: Sequence[object] = value  # pyright: ignore[reportUnknownVariableType]
        return list(coerce_to_messages(items))
    raise InputError(f"{model} expects a str, messages or a prompt value, got {type(value).__name__}")


def split_options(kwargs: Mapping[str, object], model: str) -> tuple[list[str] | None, dict[str, object]]:
    """A call's ``stop`` sequences, and its other options: a str is one stop sequence
    (not a sequence of one-letter ones).

    >>> split_options({"stop": ("\\n",), "temperature": 0}, "m")
    (['\\n'], {'temperature': 0})
    >>> split_options({"stop": "END"}, "m")
    (['END'], {})
    >>> split_options({"stop": [1]}, "m")
    Traceback (most recent call last):
    ...
    effects.errors.InputError: m expects stop to be a str or a list of str, got [1]
    """
    options = dict(kwargs)
    stop = options.pop("stop", None)
    if stop is None:
        return None, options
    if isinstance(stop, str):
        return [stop], options
    if not is_list_of(stop, str):
        raise InputError(f"{model} expects stop to be a str or a list of str, got {stop!r}")
    return list(stop), options


RUN_ID_PREFIX: Final = "lc_run--"
"""Message ids made from a model run's id, as the peer makes them."""


def run_message_id(run: RunInfo | None, *, streamed: bool) -> str:
    """The id a model run gives the message it produced, as the peer gives it.

    Streamed chunks and their sum get ``lc_run--<run id>``; a message made in one go
    ``lc_run--<run id>-0`` (generation 0 of the run). A run nobody watches has no run id:
    its message gets a fresh id of the same form (so histories and anything that merges
    messages by id work the same, watched or not).

    >>> from uuid import UUID
    >>> run = RunInfo(UUID(int=7), (), "model", "chat_model", (), {})
    >>> run_message_id(run, streamed=False)
    'lc_run--00000000-0000-0000-0000-000000000007-0'
    >>> run_message_id(None, streamed=True).startswith("lc_run--")
    True
    """
    run_id = fresh_run_id() if run is None else run.run_id
    return f"{RUN_ID_PREFIX}{run_id}" if streamed else f"{RUN_ID_PREFIX}{run_id}-0"


_M = TypeVar("_M", AIMessage, AIMessageChunk)


def _with_id(message: _M, message_id: str | None) -> _M:
    # A provider's own id is kept; only a message without one gets the run's. Every
    # streamed chunk of a watched run goes through here: copy the converted fields
    # as they are instead of building the message again (a third of the cost).
    if message_id is None or message.id is not None:
        return message
    copy = slot_copy(message)
    _SET_ID[type(message)](copy, message_id)
    return copy


# Each field's slot read and written directly (effects._fast checks the classes at import).
for _kind in (AIMessage, AIMessageChunk):
    allow_slot_copy(_kind, "chat_model._with_id")
_SET_ID: Final = {kind: field_setter(kind, "id", "chat_model._with_id") for kind in (AIMessage, AIMessageChunk)}


_Out = TypeVar("_Out")


class LanguageModel(NamedRunFields, Runnable[LanguageModelInput, _Out], DeclaredFields, fields=False):
    """What chat models (``BaseChatModel``) and text models (``BaseLLM``) share: the kind of
    model, its tokens as stream events when it ``streams``, and what traces show of a call
    (with its ``_ls_model_type``, the peer's ``chat`` or ``llm``)."""

    __slots__ = ()

    _ls_model_type: ClassVar[str]

    @property
    def streams(self) -> bool:
        """Whether this model has a token stream of its own."""
        raise NotImplementedError

    @property
    def _llm_type(self) -> str:
        """The kind of model, as the peer's models name theirs (default: the class name).

        >>> from combinators.language_models import FakeListChatModel, FakeListLLM
        >>> FakeListChatModel(["a"])._llm_type, FakeListLLM(["a"])._llm_type
        ('fake-list-chat-model', 'fake-list')
        """
        return type(self).__name__

    @property
    def emits_stream_events(self) -> bool:
        return self.streams

    def input_draw(self) -> InputDraw:
        """Strings (``combinators.testing.inputs_for`` asks): a chat model reads one as a
        human message, a text model as its prompt."""
        from combinators.authoring import DrawValues  # loaded when asked

        return DrawValues(str)

    def describe_params(self, kwargs: Mapping[str, object]) -> Mapping[str, object]:
        """Traces show the provider, the model and its options (``model_params``)."""
        return model_params(self, kwargs)

    def run_metadata(self, params: Mapping[str, object]) -> Mapping[str, object]:
        """The peer's ``ls_*`` metadata on this model's run events (provider, model name,
        type, temperature, max tokens, stop), from ``describe_params``."""
        return langsmith_metadata(params, self._ls_model_type)


class BaseChatModel(LanguageModel[ChatOutput], fields=False):
    """Base of chat models: implement ``_generate``; stream hooks are optional.

    ``disable_streaming`` (``True``, or ``"tool_calling"``: only when tools are
    bound) makes ``stream`` give one whole message; ``streaming`` (``None``: only
    when watched) says whether ``invoke`` streams: a model invoked inside a run that
    someone watches as it happens (``astream_events``, ``astream_log``) streams its
    tokens to them and still returns the whole message, as the peer's do.

    A subclass declares its fields as annotated class attributes and is built by
    keyword, as a peer model is (``Echo(prefix="> ")``): it becomes a frozen attrs class.
    """

    __slots__ = ()

    run_type = "chat_model"
    _ls_model_type = "chat"

    # ``disable_streaming`` (never stream: ``True``; not when tools are bound:
    # ``"tool_calling"``) and ``streaming`` (whether ``invoke`` streams: always, never, or
    # ``None``: when someone watches) are fields a model declares if it has them, as
    # ``ChatOpenAI`` does; a model without them has the defaults. Not declared here: a
    # subclass's fields are its own (``DeclaredFields``), never the base's.

    # ------------------------------------------------------------------ hooks

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        """Hook: the reply to ``messages``."""
        raise NotImplementedError(f"{type(self).__name__} must implement _generate")

    async def _agenerate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        """Hook: async ``_generate`` (default: the sync one, on a worker thread when it is
        a user's, so it never holds the event loop; inline when it is the library's own)."""
        if self._generate_blocks():
            return await in_worker(None, self._generate, messages, stop, **kwargs)
        return self._generate(messages, stop, **kwargs)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        """Hook: the reply as chunks (default: no token stream)."""
        raise NotImplementedError

    def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        """Hook: async ``_stream`` (default: the sync one, on one worker thread when it is
        a user's; inline when it is the library's own)."""
        if self._stream_blocks():
            return stream_in_worker(None, lambda: self._stream(messages, stop, **kwargs))
        return _async_iter(self._stream(messages, stop, **kwargs))

    def _generate_blocks(self) -> bool:
        """Whether an async call runs ``_generate`` on a worker thread: it is a user's sync
        code (no ``_agenerate`` of its own), which must not hold the event loop."""
        hooks = type(self)
        return hooks._agenerate is BaseChatModel._agenerate and not is_library_code(hooks._generate)

    def _stream_blocks(self) -> bool:
        """Whether an async stream runs ``_stream`` on a worker thread (as ``_generate_blocks``)."""
        hooks = type(self)
        return hooks._astream is BaseChatModel._astream and not is_library_code(hooks._stream)

    @property
    def streams(self) -> bool:
        """Whether this model has a token stream of its own."""
        own = getattr(type(self), "_stream")
        return own is not BaseChatModel._stream or getattr(type(self), "_astream") is not BaseChatModel._astream

    def _streams_with(self, options: Mapping[str, object]) -> bool:
        disabled: object = getattr(self, "disable_streaming", False)
        return self.streams and not (disabled is True or (disabled == "tool_calling" and bool(options.get("tools"))))

    def _invoke_streams(self, scope: Scope, options: Mapping[str, object]) -> bool:
        if not self._streams_with(options):
            return False
        streaming: object = getattr(self, "streaming", None)
        return scope.wants_chunks if streaming is None else bool(streaming)

    # ------------------------------------------------------------------ tools

    def bind_tools(
        self, tools: Sequence[ToolSpec], *, tool_choice: ToolChoice | None = None
    ) -> Runnable[LanguageModelInput, ChatOutput]:
        """This model with ``tools`` offered on every call, as the keyword argument
        ``tools`` (their chat-completions specs; ``tool_choice`` too, if given).

        >>> from combinators.language_models import GenericFakeChatModel, Script
        >>> def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> bound = GenericFakeChatModel(Script(["hi"])).bind_tools([add])
        >>> [spec["function"]["name"] for spec in bound.kwargs["tools"]]
        ['add']
        """
        specs = [tool_to_openai(tool) for tool in tools]
        options: dict[str, object] = {"tools": specs}
        if tool_choice is not None:
            options["tool_choice"] = tool_choice_to_openai(tool_choice, specs)
        return self.with_kwargs(**options)

    # ------------------------------------------------------------------ running

    def describe_input(self, input: LanguageModelInput) -> object:
        return {"messages": [to_messages(input, self.name)]}

    def step_invoke(self, input: LanguageModelInput, scope: Scope, kwargs: Mapping[str, object]) -> ChatOutput:
        stop, options = split_options(kwargs, self.name)
        messages = to_messages(input, self.name)
        if self._invoke_streams(scope, options):
            return self._streamed_whole(self._stream(messages, stop, **options), scope)
        reply = self._generate(messages, stop, **options)
        return _with_id(reply, run_message_id(scope.run, streamed=False))

    async def step_ainvoke(self, input: LanguageModelInput, scope: Scope, kwargs: Mapping[str, object]) -> ChatOutput:
        stop, options = split_options(kwargs, self.name)
        messages = to_messages(input, self.name)
        if self._invoke_streams(scope, options):
            if self._stream_blocks():
                chunks = stream_in_worker(scope, lambda: self._stream(messages, stop, **options))
                return await self._astreamed_whole(chunks, scope)
            if type(self)._astream is BaseChatModel._astream:
                # The library's own sync stream never waits: read it as it is, without an
                # async generator around every chunk.
                return self._streamed_whole(self._stream(messages, stop, **options), scope)
            return await self._astreamed_whole(self._astream(messages, stop, **options), scope)
        reply = await self._areply(messages, stop, options, scope)
        return _with_id(reply, run_message_id(scope.run, streamed=False))

    def _areply(
        self, messages: list[Message], stop: list[str] | None, options: Mapping[str, object], scope: Scope
    ) -> Awaitable[AIMessage]:
        """``_agenerate``, or a user's sync ``_generate`` on a worker thread of this run."""
        if self._generate_blocks():
            return in_worker(scope, self._generate, messages, stop, **options)
        return self._agenerate(messages, stop, **options)

    def _streamed_whole(self, chunks: Iterator[AIMessageChunk], scope: Scope) -> AIMessage:
        message_id = run_message_id(scope.run, streamed=True)
        seen: list[AIMessageChunk] = []
        try:
            for chunk in chunks:
                chunk = _with_id(chunk, message_id)
                scope.stream_chunk(chunk)
                seen.append(chunk)
        finally:
            close = getattr(chunks, "close", None)  # a generator stopped early runs its finally now
            if close is not None:
                close()
        return self._whole(seen)

    async def _astreamed_whole(self, chunks: AsyncIterator[AIMessageChunk], scope: Scope) -> AIMessage:
        message_id = run_message_id(scope.run, streamed=True)
        seen: list[AIMessageChunk] = []
        async with closing(chunks) as stream:
            async for chunk in stream:
                chunk = _with_id(chunk, message_id)
                scope.stream_chunk(chunk)
                seen.append(chunk)
        return self._whole(seen)

    def _whole(self, chunks: list[AIMessageChunk]) -> AIMessage:
        if not chunks:
            raise EmptyStreamError(f"{self.name} streamed no chunk: there is no reply")
        return whole_message(chunks)

    def step_stream(
        self, inputs: Iterator[LanguageModelInput], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[ChatOutput]:
        return run_on_total(inputs, lambda total: self._reply_stream(total, scope, kwargs))

    def step_astream(
        self, inputs: AsyncIterator[LanguageModelInput], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[ChatOutput]:
        return arun_on_total(inputs, lambda total: self._areply_stream(total, scope, kwargs))

    def _reply_stream(
        self, input: LanguageModelInput, scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[ChatOutput]:
        stop, options = split_options(kwargs, self.name)
        messages = to_messages(input, self.name)
        if not self._streams_with(options):
            reply = self._generate(messages, stop, **options)
            yield _with_id(reply, run_message_id(scope.run, streamed=False))
            return
        message_id = run_message_id(scope.run, streamed=True)
        for chunk in self._stream(messages, stop, **options):
            yield _with_id(chunk, message_id)

    async def _areply_stream(
        self, input: LanguageModelInput, scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[ChatOutput]:
        stop, options = split_options(kwargs, self.name)
        messages = to_messages(input, self.name)
        if not self._streams_with(options):
            reply = await self._areply(messages, stop, options, scope)
            yield _with_id(reply, run_message_id(scope.run, streamed=False))
            return
        message_id = run_message_id(scope.run, streamed=True)
        made = (
            stream_in_worker(scope, lambda: self._stream(messages, stop, **options))
            if self._stream_blocks()
            else self._astream(messages, stop, **options)
        )
        async with closing(made) as chunks:
            async for message_chunk in chunks:
                yield _with_id(message_chunk, message_id)


class SimpleChatModel(BaseChatModel, fields=False):
    """A chat model from a text function: implement ``_call`` (and optionally ``_call_stream``).

    >>> import attrs
    >>> @attrs.frozen
    ... class Parrot(SimpleChatModel):
    ...     def _call(self, messages, stop=None):
    ...         return "you said: " + messages[-1].text
    >>> Parrot().invoke("hi").text
    'you said: hi'
    """

    __slots__ = ()

    def _call(self, messages: list[Message], stop: list[str] | None = None) -> str:
        """Hook: the reply text."""
        raise NotImplementedError(f"{type(self).__name__} must implement _call")

    def _call_stream(self, messages: list[Message], stop: list[str] | None = None) -> Iterator[str]:
        """Hook: the reply as text tokens (default: none; ``stream`` yields one message)."""
        raise NotImplementedError

    @property
    def streams(self) -> bool:
        return getattr(type(self), "_call_stream") is not SimpleChatModel._call_stream

    def _generate_blocks(self) -> bool:
        return super()._generate_blocks() or (
            type(self)._agenerate is BaseChatModel._agenerate and not is_library_code(type(self)._call)
        )

    def _stream_blocks(self) -> bool:
        return super()._stream_blocks() or (
            type(self)._astream is BaseChatModel._astream and not is_library_code(type(self)._call_stream)
        )

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage(self._call(messages, stop))

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        for token in self._call_stream(messages, stop):
            yield AIMessageChunk(token)


async def _async_iter(chunks: Iterator[AIMessageChunk]) -> AsyncIterator[AIMessageChunk]:
    for chunk in chunks:
        yield chunk
