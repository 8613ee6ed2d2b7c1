"""``BaseChatMessageHistory``: chat histories written the LangChain way.

LangChain users write a history as a subclass (often also a ``pydantic.BaseModel``)
with a ``messages`` attribute, ``add_messages`` (or ``add_message``) and ``clear``. This
base gives it the rest of LangChain's methods, built on those, and the
``ChatHistory`` protocol (``get_messages`` and the async twins), so it is accepted
wherever a ``ChatHistory`` is. It is an ABC, so its metaclass is compatible with
pydantic's (a ``Protocol`` base is not).

>>> from combinators.messages import AIMessage
>>> class ListHistory(BaseChatMessageHistory):
...     def __init__(self) -> None:
...         self.messages = []
...     def add_messages(self, messages) -> None:
...         self.messages.extend(messages)
...     def clear(self) -> None:
...         self.messages = []
>>> history = ListHistory()
>>> history.add_user_message("hi"); history.add_ai_message(AIMessage("hello"))
>>> history.get_messages()
[HumanMessage('hi'), AIMessage('hello')]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from combinators.components.messages.message_classes import AIMessage, HumanMessage, Message, get_buffer_string


class BaseChatMessageHistory(ABC):
    """The base of histories written as LangChain writes them (see the module docstring).

    A subclass provides ``messages`` (an attribute, a field or a property),
    ``add_messages`` or ``add_message``, and ``clear``.
    """

    messages: list[Message]
    """The session's messages, oldest first (provided by the subclass)."""

    def get_messages(self) -> list[Message]:
        """The messages, as the ``ChatHistory`` protocol reads them."""
        return list(self.messages)

    async def aget_messages(self) -> list[Message]:
        """Async ``get_messages`` (by default the sync one)."""
        return self.get_messages()

    def add_user_message(self, message: HumanMessage | str) -> None:
        """Add a human message (text becomes a ``HumanMessage``)."""
        self.add_message(message if isinstance(message, HumanMessage) else HumanMessage(message))

    def add_ai_message(self, message: AIMessage | str) -> None:
        """Add an AI message (text becomes an ``AIMessage``)."""
        self.add_message(message if isinstance(message, AIMessage) else AIMessage(message))

    def add_message(self, message: Message) -> None:
        """Add one message (by default through ``add_messages``)."""
        if type(self).add_messages is BaseChatMessageHistory.add_messages:
            raise NotImplementedError(f"{type(self).__name__} must implement add_messages or add_message")
        self.add_messages([message])

    def add_messages(self, messages: Sequence[Message]) -> None:
        """Add a turn's messages (by default one ``add_message`` each)."""
        for message in messages:
            self.add_message(message)

    async def aadd_messages(self, messages: Sequence[Message]) -> None:
        """Async ``add_messages`` (by default the sync one)."""
        self.add_messages(messages)

    @abstractmethod
    def clear(self) -> None:
        """Forget the session's messages."""

    async def aclear(self) -> None:
        """Async ``clear`` (by default the sync one)."""
        self.clear()

    def __str__(self) -> str:
        return get_buffer_string(self.get_messages())
