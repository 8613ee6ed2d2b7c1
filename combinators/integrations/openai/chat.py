"""``ChatOpenAI``: a chat model on any server that speaks OpenAI's chat-completions protocol.

OpenAI itself, vLLM, llama.cpp's server, Ollama, LM Studio, ...: set ``base_url`` to
the server's API root. The official ``openai`` package (the optional extra
``openai``) carries the requests; it is imported when the first request is made.

- ``invoke`` / ``ainvoke`` give an ``AIMessage`` with ``usage_metadata`` and
  ``response_metadata`` (``model_name``, ``finish_reason``, ``token_usage``, ...).
- ``stream`` / ``astream`` give ``AIMessageChunk`` s as the server sends tokens (and
  ``on_chat_model_stream`` events); streamed tool-call pieces add up, by index, into
  the ``tool_calls`` of the summed message.
- ``bind_tools`` and ``with_structured_output`` return typed runnables.
- Server failures are typed (``openai_errors``): ``ModelNotFoundError`` for an unknown
  model, ``ModelRateLimitError``, ``ModelServerError``, ``ModelStreamError``, ... each
  with ``status`` and ``model``, for ``with_retry`` and ``with_fallbacks`` to target.

>>> model = ChatOpenAI(model="qwen2.5", base_url="http://127.0.0.1:8000/v1", temperature=0.0)
>>> model
ChatOpenAI(model='qwen2.5', base_url='http://127.0.0.1:8000/v1', temperature=0.0)
>>> ChatOpenAI(api_key="sk-secret")
ChatOpenAI(api_key=Secret('**********'))
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, Final, Literal, Protocol, TypeVar, final, overload

import attrs

from combinators.components.models.chat_model import BaseChatModel, ChatOutput, LanguageModelInput
from combinators.components.messages.message_classes import AIMessage, AIMessageChunk, Message
from combinators.integrations.openai.client import (
    ClientCache,
    OpenAIConnection,
    check_retries,
    shown_fields,
    to_body,
    to_secret,
)
from combinators.components.models.errors import ModelStreamError
from combinators.integrations.openai.messages import (
    chunk_to_message_chunk,
    completion_to_message,
    messages_to_openai,
)
from combinators.integrations.openai.structured import StructuredOutputParser, response_format
from combinators.components.tools.specs import (
    ToolChoice,
    ToolSpec,
    tool_choice_to_openai,
    tool_to_openai,
)
from combinators.authoring import sensitive
from combinators.components.secrets import SET_BY_LOADS, Secret
from combinators import Runnable, RunnableBinding
from effects.projections.jsonable import JsonValue
from effects import NOTHING
from effects.authoring import closing
from effects.authoring import is_a, is_list
from effects.guards import checked

__all__ = ["DEFAULT_MODEL", "ChatOpenAI"]

T = TypeVar("T")
_X = TypeVar("_X")

DEFAULT_MODEL: Final = "gpt-4o-mini"
"""The model asked for when none is named."""


def _to_stop(value: Sequence[str] | str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return (value,) if isinstance(value, str) else tuple(value)


def _check_timeout(_instance: object, _attribute: object, value: float | None) -> None:
    if value is not None and not (is_a(value, (int, float)) and value > 0):
        raise ValueError(f"timeout must be a number of seconds > 0 (or None), got {value!r}")


class _Chunk(Protocol):
    def to_dict(self) -> dict[str, object]: ...


@final
class _Finish:
    """A stream's message chunks, and whether one of them finished (a ``finish_reason``)."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen = False

    def _read(self, data: _Chunk) -> AIMessageChunk | None:
        chunk, finish = chunk_to_message_chunk(data.to_dict())
        self.seen = self.seen or finish is not None
        return chunk

    def chunks(self, datas: Iterator[_Chunk]) -> Iterator[AIMessageChunk]:
        for data in datas:
            if (chunk := self._read(data)) is not None:
                yield chunk

    async def achunks(self, datas: AsyncIterator[_Chunk]) -> AsyncIterator[AIMessageChunk]:
        async for data in datas:
            if (chunk := self._read(data)) is not None:
                yield chunk


@final
@attrs.frozen(repr=False)
class ChatOpenAI(BaseChatModel, OpenAIConnection):
    """A chat model over the OpenAI chat-completions protocol.

    ``api_key`` (a ``Secret``, or a str made into one) is read from ``OPENAI_API_KEY``
    only when not given; ``base_url`` from ``OPENAI_BASE_URL`` only when not given. A
    server at another address that needs no key gets ``"EMPTY"``. A model built by
    ``loads`` has ``secrets_from_env=False``: it reads no secret from the environment,
    whatever its data says (its base URL may be the data's). ``timeout`` (seconds
    per request; ``None`` keeps the client's default) and ``max_retries`` go to the
    ``openai`` client, which retries 408, 409, 429 and 5xx answers and lost connections
    with its own back-off on the wall clock; for a policy on the runtime's clock, set
    ``max_retries=0`` and use ``with_retry`` on ``TransientModelError``. ``extra_body``
    is merged into every request (``top_p``, ``seed``, a server's own options, ...);
    keyword arguments at call time (``model.invoke(x, temperature=0.2)``) win over both.
    ``streaming=True`` makes ``invoke`` ask for a stream (and add it up), ``False``
    never, ``None`` (the default) only when the run is watched as it happens;
    ``disable_streaming`` (``True`` or ``"tool_calling"``) keeps ``stream`` to one
    request without a stream, as the peer's.

    >>> ChatOpenAI(stop=["\\n"], extra_body={"seed": 7}).stop
    ('\\n',)
    >>> ChatOpenAI(streaming=False, disable_streaming="tool_calling")
    ChatOpenAI(streaming=False, disable_streaming='tool_calling')
    """

    model: str = DEFAULT_MODEL
    base_url: str | None = attrs.field(default=None, metadata=sensitive("endpoint"))
    # Typed as what the constructor takes: mypy reads these classes' fields through
    # dataclass_transform, which ignores converters.
    api_key: Secret | str | None = attrs.field(default=None, converter=to_secret, metadata=sensitive("secret"))
    temperature: float | None = None
    max_tokens: int | None = None
    stop: Sequence[str] | str | None = attrs.field(default=None, converter=_to_stop)
    timeout: float | None = attrs.field(default=None, validator=_check_timeout)
    max_retries: int = attrs.field(default=2, validator=check_retries)
    stream_usage: bool = True
    streaming: bool | None = None
    disable_streaming: bool | Literal["tool_calling"] = False
    extra_body: Mapping[str, object] = attrs.field(factory=dict[str, object], converter=to_body, hash=False)
    secrets_from_env: bool = attrs.field(default=True, metadata={SET_BY_LOADS: False, **sensitive("secret")})
    _clients: ClientCache = attrs.field(init=False, factory=ClientCache, eq=False, repr=False)

    def __repr__(self) -> str:
        return f"ChatOpenAI({shown_fields(self)})"

    # ------------------------------------------------------------------ settings

    def request_body(
        self, messages: Sequence[Message], stop: Sequence[str] | None = None, *, stream: bool = False, **kwargs: object
    ) -> dict[str, object]:
        """The JSON body of the request for ``messages`` (what the server receives).

        >>> ChatOpenAI(model="m", temperature=0.5).request_body([AIMessage("hi")], stop=["."], seed=1)
        {'model': 'm', 'messages': [{'role': 'assistant', 'content': 'hi'}], 'temperature': 0.5, 'stop': ['.'], 'seed': 1, 'stream': False}
        """
        body: dict[str, object] = {"model": self.model, "messages": messages_to_openai(messages)}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        words = stop if stop is not None else self.stop
        if words:
            body["stop"] = list(words)
        body.update(self.extra_body)
        body.update((key, value) for key, value in kwargs.items() if value is not None and key != "stream")
        body["stream"] = stream
        if stream:
            if self.stream_usage:
                body.setdefault("stream_options", {"include_usage": True})
        return body

    # ------------------------------------------------------------------ errors

    def _unfinished(self, model: str) -> ModelStreamError:
        return ModelStreamError(
            service="openai",
            hint="the stream ended before the model finished: no finish_reason",
            model=model,
            base_url=self.resolved_base_url,
        )

    def _request(
        self, messages: list[Message], stop: list[str] | None, stream: bool, kwargs: Mapping[str, object]
    ) -> tuple[str, list[Any], dict[str, object]]:
        """The model, the wire messages and the other fields, as the client takes them.

        The messages are ``Any`` to the checkers: the SDK types them as its TypedDicts,
        which JSON built from our messages (any role a ``ChatMessage`` names) is not.
        """
        body = self.request_body(messages, stop, stream=stream, **kwargs)
        model = checked(body.pop("model"), str, "the model must be a str")
        wire = body.pop("messages")
        if not is_list(wire):
            raise TypeError(f"the messages must be a list, got {type(wire).__name__}")
        body.pop("stream")
        return model, wire, body

    def _sync_chunks(self, chunks: Iterator[_X], model: str) -> Iterator[_X]:
        while True:
            with self._typed_errors(model, streaming=True):
                item = next(chunks, NOTHING)
            if item is NOTHING:
                return
            yield item

    async def _async_chunks(self, chunks: AsyncIterator[_X], model: str) -> AsyncIterator[_X]:
        while True:
            with self._typed_errors(model, streaming=True):
                item = await anext(chunks, NOTHING)
            if item is NOTHING:
                return
            yield item

    # ------------------------------------------------------------------ hooks

    @property
    def _llm_type(self) -> str:
        return "openai-chat"

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        model, wire, body = self._request(messages, stop, False, kwargs)
        with self._typed_errors(model):
            completion = self._sync_client().chat.completions.create(
                model=model, messages=wire, stream=False, extra_body=body
            )
        return completion_to_message(completion.to_dict())

    async def _agenerate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        model, wire, body = self._request(messages, stop, False, kwargs)
        with self._typed_errors(model):
            completion = await self._async_client().chat.completions.create(
                model=model, messages=wire, stream=False, extra_body=body
            )
        return completion_to_message(completion.to_dict())

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        model, wire, body = self._request(messages, stop, True, kwargs)
        with self._typed_errors(model):
            stream = self._sync_client().chat.completions.create(
                model=model, messages=wire, stream=True, extra_body=body
            )
        finish = _Finish()
        with stream:
            yield from finish.chunks(self._sync_chunks(iter(stream), model))
        if not finish.seen:
            raise self._unfinished(model)

    async def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        model, wire, body = self._request(messages, stop, True, kwargs)
        with self._typed_errors(model):
            stream = await self._async_client().chat.completions.create(
                model=model, messages=wire, stream=True, extra_body=body
            )
        finish = _Finish()
        datas = self._async_chunks(aiter(stream), model)
        async with stream, closing(datas), closing(finish.achunks(datas)) as chunks:
            async for chunk in chunks:
                yield chunk
        if not finish.seen:
            raise self._unfinished(model)

    # ------------------------------------------------------------------ tools and structured output

    def bind_tools(
        self,
        tools: Sequence[ToolSpec],
        *,
        tool_choice: ToolChoice | None = None,
        parallel_tool_calls: bool | None = None,
        strict: bool | None = None,
    ) -> RunnableBinding[LanguageModelInput, ChatOutput]:
        """This model with ``tools`` offered on every call (and ``tool_choice``, if given).

        >>> def add(a: int, b: int) -> int:
        ...     '''Add two integers.'''
        ...     return a + b
        >>> bound = ChatOpenAI(model="m").bind_tools([add], tool_choice="add")
        >>> bound.kwargs["tool_choice"]
        {'type': 'function', 'function': {'name': 'add'}}
        """
        specs = [tool_to_openai(tool, strict=strict) for tool in tools]
        options: dict[str, object] = {"tools": specs} if specs else {}
        if tool_choice is not None:
            options["tool_choice"] = tool_choice_to_openai(tool_choice, specs)
        if parallel_tool_calls is not None:
            options["parallel_tool_calls"] = parallel_tool_calls
        return self.with_kwargs(**options)

    @overload
    def with_structured_output(
        self, schema: type[T], *, strict: bool | None = None
    ) -> Runnable[LanguageModelInput, T]: ...

    @overload
    def with_structured_output(
        self, schema: Mapping[str, object], *, strict: bool | None = None
    ) -> Runnable[LanguageModelInput, dict[str, JsonValue]]: ...

    def with_structured_output(
        self, schema: type[T] | Mapping[str, object], *, strict: bool | None = None
    ) -> Runnable[LanguageModelInput, object]:
        """This model answering in ``schema``'s JSON, parsed into its type.

        ``schema`` is an attrs class, a TypedDict or a JSON Schema dict (then the result
        is a dict). The server gets the protocol's ``json_schema`` response format;
        ``strict=True`` asks for strict schema adherence (OpenAI then wants every
        property required).

        >>> import attrs
        >>> @attrs.frozen
        ... class Person:
        ...     name: str
        ...     age: int
        >>> chain = ChatOpenAI(model="m").with_structured_output(Person)
        >>> chain.steps[-1]
        StructuredOutputParser(schema=<class 'combinators.integrations.openai.chat.Person'>)
        """
        fmt = response_format(schema, strict=strict)
        return self.with_kwargs(response_format=fmt) | StructuredOutputParser(schema)
