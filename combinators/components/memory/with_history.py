"""``RunnableWithMessageHistory``: a runnable that remembers the conversation of each session.

Each call finds its session from ``config["configurable"]`` (``session_id`` unless
``history_factory_config`` names other keys), loads the history (a ``load_history``
child run), runs the runnable on the history and the new input, then stores the
turn's input and output messages (a ``save_history`` child run, one ``add_messages``,
so one transaction). A stream stores its turn only once it has finished: a stream
closed early or failed stores nothing.

Shapes, as LangChain's: the input is a str, a message, a list of messages, or a dict
holding them under ``input_messages_key``; the runnable gets the history either under
``history_messages_key`` of that dict, or in front of the input messages; the output
is a str, a message, a list of messages, or a dict holding them under
``output_messages_key``.

>>> from combinators import RunnableLambda
>>> from combinators.messages import AIMessage
>>> from combinators.chat_history import InMemoryHistoryStore
>>> def count(messages: list) -> AIMessage:
...     return AIMessage(f"{len(messages)} messages so far")
>>> store = InMemoryHistoryStore()
>>> chat = RunnableWithMessageHistory(RunnableLambda(count), store)
>>> ann = {"configurable": {"session_id": "ann"}}
>>> chat.invoke("hi", ann).text, chat.invoke("again", ann).text
('1 messages so far', '3 messages so far')
>>> [m.text for m in store("ann").get_messages()]
['hi', '1 messages so far', 'again', '3 messages so far']
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import Any, Final, Generic, TypeVar, cast, final

import attrs

from combinators import ConfigurableError, ConfigurableFieldSpec, InputError, Runnable
from combinators.components.memory.history import ChatHistory
from combinators.components.run_fields import NamedRunFields
from combinators.components.messages.message_classes import AIMessage, BaseMessage, HumanMessage, Message
from effects.authoring import (
    Scope,
    total_or_nothing,
    arun_on_total,
    closing,
    is_list_or_tuple,
    is_mapping,
    run_on_total,
)

Out = TypeVar("Out")

SESSION_ID: Final = ConfigurableFieldSpec(
    id="session_id",
    annotation=str,
    name="Session ID",
    description="Unique identifier for a session.",
    default="",
    is_shared=True,
)


def _specs(values: Iterable[ConfigurableFieldSpec]) -> tuple[ConfigurableFieldSpec, ...]:
    # A named, typed converter: attrs' `converter=tuple` leaves the field untyped for mypy.
    return tuple(values)


def _messages_in(value: object, key: str | None, what: str) -> list[Message]:
    """The messages of an input or an output, in any of the shapes the peer accepts."""
    if is_mapping(value):
        given = value
        chosen = key if key is not None else (next(iter(given)) if len(given) == 1 else what)
        if chosen not in given:
            raise InputError(
                f"RunnableWithMessageHistory expects the {what} messages under {chosen!r}, got keys {list(given)}"
            )
        value = given[chosen]
    kind = type(value).__name__
    if isinstance(value, str):
        return [HumanMessage(value) if what == "input" else AIMessage(value)]
    if isinstance(value, BaseMessage):
        return [cast(Message, value)]
    if is_list_or_tuple(value):
        items: list[object] = list(value)
        if items and is_list_or_tuple(items[0]):  # a chat model's batch of one conversation
            items = list(items[0])
        if all(isinstance(m, BaseMessage) for m in items):
            return cast(list[Message], items)
    raise InputError(f"RunnableWithMessageHistory expects {what} as a str, a message or a list of messages, got {kind}")


@final
@attrs.frozen
class _LoadHistory(Runnable[object, list[Message]]):
    history: ChatHistory

    @property
    def name(self) -> str:
        return "load_history"

    def step_invoke(self, input: object, scope: Scope, kwargs: Mapping[str, object]) -> list[Message]:
        return self.history.get_messages()

    async def step_ainvoke(self, input: object, scope: Scope, kwargs: Mapping[str, object]) -> list[Message]:
        return await self.history.aget_messages()


@final
@attrs.frozen
class _SaveHistory(Runnable[list[Message], int]):
    history: ChatHistory

    @property
    def name(self) -> str:
        return "save_history"

    def step_invoke(self, input: list[Message], scope: Scope, kwargs: Mapping[str, object]) -> int:
        self.history.add_messages(input)
        return len(input)

    async def step_ainvoke(self, input: list[Message], scope: Scope, kwargs: Mapping[str, object]) -> int:
        await self.history.aadd_messages(input)
        return len(input)


@final
@attrs.frozen(repr=False)
class RunnableWithMessageHistory(NamedRunFields, Runnable[Any, Out], Generic[Out]):
    """``runnable`` with each session's history loaded before and the turn stored after
    (``name=``, ``tags=``, ``metadata=``, ``verbose=`` and ``callbacks=`` as every component
    takes them: they act on this runnable's own run)."""

    runnable: Runnable[Any, Out]
    get_session_history: Callable[..., ChatHistory]
    input_messages_key: str | None = attrs.field(default=None, kw_only=True)
    output_messages_key: str | None = attrs.field(default=None, kw_only=True)
    history_messages_key: str | None = attrs.field(default=None, kw_only=True)
    history_factory_config: tuple[ConfigurableFieldSpec, ...] = attrs.field(
        default=(SESSION_ID,), converter=_specs, kw_only=True
    )

    is_leaf = False
    input_known_at_start = False

    def __repr__(self) -> str:
        options = [
            f"{name}={getattr(self, name)!r}"
            for name in ("input_messages_key", "output_messages_key", "history_messages_key")
            if getattr(self, name) is not None
        ]
        if self.history_factory_config != (SESSION_ID,):
            options.append(f"history_factory_config={list(self.history_factory_config)!r}")
        shown = ", ".join([repr(self.runnable), repr(self.get_session_history), *options])
        return f"RunnableWithMessageHistory({shown})"

    def own_config_specs(self) -> tuple[ConfigurableFieldSpec, ...]:
        """The session keys this runnable reads from ``config["configurable"]``."""
        return self.history_factory_config

    def _history(self, scope: Scope) -> ChatHistory:
        configurable = scope.config.configurable
        keys = [spec.id for spec in self.history_factory_config]
        missing = [key for key in keys if key not in configurable]
        if missing:
            example = ", ".join(f"{key!r}: ..." for key in keys)
            raise ConfigurableError(
                f"{self.name} needs config['configurable'] to name the session: missing"
                f" {', '.join(repr(k) for k in missing)}; call it with config={{'configurable': {{{example}}}}}"
            )
        values = {key: configurable[key] for key in keys}
        if len(keys) == 1 and _takes_one_positional(self.get_session_history):
            return self.get_session_history(values[keys[0]])
        return self.get_session_history(**values)

    def _inner_input(self, input: object, history: list[Message]) -> object:
        if self.history_messages_key is not None:
            return {**_dict(input), self.history_messages_key: history}
        new = _messages_in(input, self.input_messages_key, "input")
        if self.input_messages_key is not None:
            return {**_dict(input), self.input_messages_key: [*history, *new]}
        return [*history, *new]

    def _turn(self, input: object, output: object) -> list[Message]:
        return [
            *_messages_in(input, self.input_messages_key, "input"),
            *_messages_in(output, self.output_messages_key, "output"),
        ]

    def step_invoke(self, input: Any, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        history = self._history(scope)
        past = scope.invoke(_LoadHistory(history), input)
        output: Out = scope.invoke(self.runnable, self._inner_input(input, past), None, kwargs)
        scope.invoke(_SaveHistory(history), self._turn(input, output))
        return output

    async def step_ainvoke(self, input: Any, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        history = self._history(scope)
        past = await scope.ainvoke(_LoadHistory(history), input)
        output: Out = await scope.ainvoke(self.runnable, self._inner_input(input, past), None, kwargs)
        await scope.ainvoke(_SaveHistory(history), self._turn(input, output))
        return output

    def step_stream(self, inputs: Iterator[Any], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        return run_on_total(inputs, lambda input: self._stream_turn(input, scope, kwargs))

    def step_astream(
        self, inputs: AsyncIterator[Any], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[Out]:
        return arun_on_total(inputs, lambda input: self._astream_turn(input, scope, kwargs))

    def _stream_turn(self, input: object, scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        history = self._history(scope)
        past = scope.invoke(_LoadHistory(history), input)
        chunks: list[Out] = []
        for chunk in scope.stream(self.runnable, iter((self._inner_input(input, past),)), None, kwargs):
            chunks.append(chunk)
            yield chunk
        if chunks:
            scope.invoke(_SaveHistory(history), self._turn(input, total_or_nothing(iter(chunks))))

    async def _astream_turn(self, input: object, scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        history = self._history(scope)
        past = await scope.ainvoke(_LoadHistory(history), input)

        async def once() -> AsyncIterator[object]:
            yield self._inner_input(input, past)

        chunks: list[Out] = []
        async with closing(scope.astream(self.runnable, once(), None, kwargs)) as outputs:
            async for chunk in outputs:
                chunks.append(chunk)
                yield chunk
        if chunks:
            await scope.ainvoke(_SaveHistory(history), self._turn(input, total_or_nothing(iter(chunks))))


def _dict(value: object) -> dict[str, object]:
    if not is_mapping(value):
        raise InputError(
            f"RunnableWithMessageHistory with a messages key expects a dict input, got {type(value).__name__}"
        )
    return {str(key): item for key, item in value.items()}


def _takes_one_positional(function: Callable[..., object]) -> bool:
    """Whether a one-key factory is called with the value (``get(session_id)``), as the peer does."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # a builtin or a C callable: call it positionally
        return True
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters)
