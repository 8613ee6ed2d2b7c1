"""Conversation memory: the histories kept in memory or SQLite, and ``RunnableWithMessageHistory`` (LangChain's ``langchain_core.chat_history`` and ``langchain_core.runnables.history``).

>>> from combinators.chat_history import InMemoryChatHistory
>>> from combinators.messages import HumanMessage
>>> history = InMemoryChatHistory()
>>> history.add_messages([HumanMessage("hi")])
>>> history.get_messages()
[HumanMessage('hi')]
"""

from combinators.components.memory.history import BaseChatMessageHistory as BaseChatMessageHistory
from combinators.components.memory.history import ChatHistory as ChatHistory
from combinators.components.memory.sqlite import ChatHistoryError as ChatHistoryError
from combinators.components.memory.history import InMemoryChatHistory as InMemoryChatHistory
from combinators.components.memory.history import InMemoryHistoryStore as InMemoryHistoryStore
from combinators.components.memory.with_history import RunnableWithMessageHistory as RunnableWithMessageHistory
from combinators.components.memory.sqlite import SQLiteChatHistory as SQLiteChatHistory
from combinators.components.memory.sqlite import SQLiteHistoryStore as SQLiteHistoryStore

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
