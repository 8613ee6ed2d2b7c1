"""``BaseChatModel`` and ``SimpleChatModel``: messages in, an ``AIMessage`` out.

Implement ``_generate`` (and optionally ``_agenerate``, ``_stream``, ``_astream``);
the input may be a string, messages, ``(role, text)`` tuples, dicts or a prompt
value. ``stop`` and other call options arrive as keyword arguments
(``model.invoke(x, stop=["\\n"])`` or ``model.with_kwargs(stop=[...])``). A model
without a stream hook yields one ``AIMessage`` from ``stream``.

>>> import attrs
>>> from combinators.components.messages.values import AIMessage
>>> @attrs.frozen
... class Echo(BaseChatModel):
...     def _generate(self, messages, stop=None, **kwargs):
...         return AIMessage(messages[-1].text.upper())
>>> Echo().invoke("hello")
AIMessage('HELLO')
>>> Echo().describe_input("hi")
{'messages': [[HumanMessage('hi')]]}
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, TypeAlias

from combinators.components.messages.values import (
    AIMessage,
    AIMessageChunk,
    Message,
    coerce_to_messages,
)
from combinators.components.models.model_params import model_params
from combinators.components.prompts.values import ChatPromptValue, StringPromptValue
from combinators import Runnable
from effects.errors import InputError
from effects.authoring import Scope
from effects.authoring import closing
from effects.authoring import NOTHING, aadded_up, added_up

LanguageModelInput: TypeAlias = "str | StringPromptValue | ChatPromptValue | Sequence[object]"
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


def _split_options(kwargs: Mapping[str, Any]) -> tuple[list[str] | None, dict[str, Any]]:
    options = dict(kwargs)
    stop = options.pop("stop", None)
    return (list(stop) if stop is not None else None), options


class BaseChatModel(Runnable[LanguageModelInput, ChatOutput]):
    """Base of chat models: implement ``_generate``; stream hooks are optional."""

    __slots__ = ()

    run_type = "chat_model"

    # ------------------------------------------------------------------ hooks

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        """Hook: the reply to ``messages``."""
        raise NotImplementedError(f"{type(self).__name__} must implement _generate")

    async def _agenerate(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AIMessage:
        """Hook: async ``_generate`` (default: the sync one, inline)."""
        return self._generate(messages, stop, **kwargs)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        """Hook: the reply as chunks (default: no token stream)."""
        raise NotImplementedError

    def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        """Hook: async ``_stream`` (default: the sync one)."""
        return _async_iter(self._stream(messages, stop, **kwargs))

    @property
    def streams(self) -> bool:
        """Whether this model has a token stream of its own."""
        own = getattr(type(self), "_stream")
        return own is not BaseChatModel._stream or getattr(type(self), "_astream") is not BaseChatModel._astream

    @property
    def emits_stream_events(self) -> bool:
        return self.streams

    # ------------------------------------------------------------------ running

    def describe_input(self, input: LanguageModelInput) -> object:
        return {"messages": [to_messages(input, self.name)]}

    def describe_params(self, kwargs: Mapping[str, Any]) -> Mapping[str, object]:
        """Traces show the provider, the model and its options (``model_params``)."""
        return model_params(self, kwargs)

    def step_invoke(
        self, input: LanguageModelInput, scope: Scope, kwargs: Mapping[str, Any]
    ) -> ChatOutput:
        stop, options = _split_options(kwargs)
        return self._generate(to_messages(input, self.name), stop, **options)

    async def step_ainvoke(
        self, input: LanguageModelInput, scope: Scope, kwargs: Mapping[str, Any]
    ) -> ChatOutput:
        stop, options = _split_options(kwargs)
        return await self._agenerate(to_messages(input, self.name), stop, **options)

    def step_stream(
        self, inputs: Iterator[LanguageModelInput], scope: Scope, kwargs: Mapping[str, Any]
    ) -> Iterator[ChatOutput]:
        total: Any = added_up(inputs)
        if total is NOTHING:
            return
        stop, options = _split_options(kwargs)
        messages = to_messages(total, self.name)
        if not self.streams:
            yield self._generate(messages, stop, **options)
            return
        yield from self._stream(messages, stop, **options)

    async def step_astream(
        self, inputs: AsyncIterator[LanguageModelInput], scope: Scope, kwargs: Mapping[str, Any]
    ) -> AsyncIterator[ChatOutput]:
        total: Any = await aadded_up(inputs)
        if total is NOTHING:
            return
        stop, options = _split_options(kwargs)
        messages = to_messages(total, self.name)
        if not self.streams:
            yield await self._agenerate(messages, stop, **options)
            return
        async with closing(self._astream(messages, stop, **options)) as chunks:
            async for message_chunk in chunks:
                yield message_chunk


class SimpleChatModel(BaseChatModel):
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

