"""Fake chat models that answer with messages they are given: ``ParrotFakeChatModel``
repeats the last message, ``FakeMessagesListChatModel`` cycles through a list.

>>> ParrotFakeChatModel().invoke([("human", "hi"), ("human", "again")])
AIMessage('again', id='lc_run--...')
>>> FakeMessagesListChatModel([AIMessage("one"), AIMessage("two")]).batch(["a", "b"])
[AIMessage('one', id='lc_run--...'), AIMessage('two', id='lc_run--...')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, final

import attrs

from combinators.components.messages.message_classes import AIMessage, Message
from combinators.components.models.chat_model import BaseChatModel
from combinators.components.models.fakes import Script, cycling_script, reply_message, shown
from effects.clock import current_clock


@final
@attrs.frozen
class ParrotFakeChatModel(BaseChatModel):
    """Answers with the content of the last message it is given.

    Difference from the peer: the answer is an ``AIMessage`` (a chat model's output is
    one, here), where the peer returns the last input message itself.
    """

    @property
    def _llm_type(self) -> str:
        return "parrot-fake-chat-model"

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        if not messages:
            raise ValueError("ParrotFakeChatModel needs at least one message to repeat")
        return AIMessage(messages[-1].content)


def _message(value: AIMessage | str) -> AIMessage:
    return AIMessage(value) if isinstance(value, str) else value


def _responses(values: object) -> tuple[AIMessage, ...]:
    if isinstance(values, (str, AIMessage)) or not isinstance(values, (list, tuple)):
        raise TypeError(
            f"FakeMessagesListChatModel's responses must be a list of messages, got {type(values).__name__}"
        )
    return tuple(_message(v) for v in values)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]


@final
@attrs.frozen(repr=False)
class FakeMessagesListChatModel(BaseChatModel):
    """Cycles through whole ``responses`` messages (from ``i``), each given as it is;
    ``stream`` gives each in one piece, as the peer's does. ``sleep`` seconds pass
    before each answer, on the runtime's clock.

    >>> FakeMessagesListChatModel(responses=[AIMessage("a b")], sleep=None).stream("x").__next__()
    AIMessage('a b', id='lc_run--...')
    """

    # Typed as what the constructor takes: mypy reads these classes' fields through
    # dataclass_transform, which ignores converters.
    responses: Sequence[AIMessage | str] = attrs.field(converter=_responses)
    sleep: float | None = None
    i: int = 0
    script: Script = attrs.field(eq=False, repr=False, default=attrs.Factory(cycling_script, takes_self=True))

    @property
    def _llm_type(self) -> str:
        return "fake-messages-list-chat-model"

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        if self.sleep:
            current_clock().sleep(self.sleep)
        return reply_message(self.script.next(), None)  # whole, as given (stop words are not cut)

    def __repr__(self) -> str:
        return shown(self)
