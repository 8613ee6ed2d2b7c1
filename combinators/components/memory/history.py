"""Conversation histories behind one protocol, an in-memory store for tests, and the base of
histories written the LangChain way.

A history holds one session's messages. ``add_messages`` takes one turn (the turn's
input and output messages) and stores all of it or none of it. A *store* is what
``RunnableWithMessageHistory`` asks for a session's history: any callable from the
session keys to a history, such as ``InMemoryHistoryStore()`` or ``SQLiteHistoryStore(path)``.

>>> from combinators.messages import AIMessage, HumanMessage
>>> store = InMemoryHistoryStore()
>>> store("ann").add_messages([HumanMessage("hi"), AIMessage("hello")])
>>> store("ann").get_messages(), store("bob").get_messages()
([HumanMessage('hi'), AIMessage('hello')], [])

``BaseChatMessageHistory`` is for histories written the LangChain way: a subclass (often
also a ``pydantic.BaseModel``) with a ``messages`` attribute, ``add_messages`` (or
``add_message``) and ``clear``. This base gives it the rest of LangChain's methods, built
on those, and the ``ChatHistory`` protocol (``get_messages`` and the async twins), so it
is accepted wherever a ``ChatHistory`` is. It is an ABC, so its metaclass is compatible
with pydantic's (a ``Protocol`` base is not).

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

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Protocol, final, runtime_checkable

from combinators.components.messages.message_classes import AIMessage, HumanMessage, Message, get_buffer_string


@runtime_checkable
class ChatHistory(Protocol):
    """One session's messages: read them all, add one turn atomically, clear them.

    >>> isinstance(InMemoryChatHistory(), ChatHistory)
    True
    """

    def get_messages(self) -> list[Message]:
        """The session's messages, oldest first."""
        ...

    def add_messages(self, messages: Sequence[Message]) -> None:
        """Append one turn's messages: all of them, or (on failure) none."""
        ...

    def clear(self) -> None:
        """Forget the session's messages."""
        ...

    async def aget_messages(self) -> list[Message]:
        """Async ``get_messages``."""
        ...

    async def aadd_messages(self, messages: Sequence[Message]) -> None:
        """Async ``add_messages``."""
        ...


@final
class InMemoryChatHistory:
    """A session's messages in memory (thread-safe; deliberately mutable, like a fake's script).

    >>> from combinators.messages import HumanMessage
    >>> history = InMemoryChatHistory()
    >>> history.add_messages([HumanMessage("q")]); history.get_messages()
    [HumanMessage('q')]
    """

    __slots__ = ("_messages", "_lock")

    def __init__(self, messages: Sequence[Message] = ()) -> None:
        self._messages: list[Message] = list(messages)
        self._lock = threading.Lock()

    def get_messages(self) -> list[Message]:
        with self._lock:
            return list(self._messages)

    def add_messages(self, messages: Sequence[Message]) -> None:
        with self._lock:
            self._messages.extend(messages)

    def clear(self) -> None:
        with self._lock:
            self._messages.clear()

    async def aget_messages(self) -> list[Message]:
        return self.get_messages()

    async def aadd_messages(self, messages: Sequence[Message]) -> None:
        self.add_messages(messages)

    def __repr__(self) -> str:
        return f"InMemoryChatHistory({self.get_messages()!r})"


@final
class InMemoryHistoryStore:
    """Session id to ``InMemoryChatHistory``, created on first use (a store for tests and demos).

    >>> store = InMemoryHistoryStore()
    >>> store("s") is store("s"), store.sessions()
    (True, ['s'])
    """

    __slots__ = ("_histories", "_lock")

    def __init__(self) -> None:
        self._histories: dict[str, InMemoryChatHistory] = {}
        self._lock = threading.Lock()

    def __call__(self, session_id: str) -> InMemoryChatHistory:
        with self._lock:
            return self._histories.setdefault(session_id, InMemoryChatHistory())

    def sessions(self) -> list[str]:
        """The session ids seen so far."""
        with self._lock:
            return list(self._histories)

    def __repr__(self) -> str:
        return f"InMemoryHistoryStore(sessions={self.sessions()!r})"


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
