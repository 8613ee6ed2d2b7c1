"""Conversation histories behind one protocol, and an in-memory store for tests.

A history holds one session's messages. ``add_messages`` takes one turn (the turn's
input and output messages) and stores all of it or none of it. A *store* is what
``RunnableWithMessageHistory`` asks for a session's history: any callable from the
session keys to a history, such as ``InMemoryHistoryStore()`` or ``SQLiteHistoryStore(path)``.

>>> from combinators.messages import AIMessage, HumanMessage
>>> store = InMemoryHistoryStore()
>>> store("ann").add_messages([HumanMessage("hi"), AIMessage("hello")])
>>> store("ann").get_messages(), store("bob").get_messages()
([HumanMessage('hi'), AIMessage('hello')], [])
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol, final, runtime_checkable

from combinators.components.messages.message_classes import Message


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
