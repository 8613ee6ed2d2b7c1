"""Conversation memory: ``RunnableWithMessageHistory`` and the histories it keeps (in memory, SQLite).

>>> from combinators import RunnableLambda
>>> from combinators.components.memory import InMemoryHistoryStore, RunnableWithMessageHistory
>>> chat = RunnableWithMessageHistory(RunnableLambda(lambda messages: f"{len(messages)} seen"), InMemoryHistoryStore())
>>> chat.invoke("hi", {"configurable": {"session_id": "s"}}), chat.invoke("hi", {"configurable": {"session_id": "s"}})
('1 seen', '3 seen')
"""

from combinators.components.memory.base_history import BaseChatMessageHistory as BaseChatMessageHistory
from combinators.components.memory.history import ChatHistory as ChatHistory
from combinators.components.memory.history import InMemoryChatHistory as InMemoryChatHistory
from combinators.components.memory.history import InMemoryHistoryStore as InMemoryHistoryStore
from combinators.components.memory.sqlite import ChatHistoryError as ChatHistoryError
from combinators.components.memory.sqlite import SQLiteChatHistory as SQLiteChatHistory
from combinators.components.memory.sqlite import SQLiteHistoryStore as SQLiteHistoryStore
from combinators.components.memory.with_history import RunnableWithMessageHistory as RunnableWithMessageHistory

__all__ = [
    "BaseChatMessageHistory",
    "ChatHistory",
    "ChatHistoryError",
    "InMemoryChatHistory",
    "InMemoryHistoryStore",
    "RunnableWithMessageHistory",
    "SQLiteChatHistory",
    "SQLiteHistoryStore",
]
