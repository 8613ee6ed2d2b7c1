"""``SQLiteChatHistory``: conversation histories in one SQLite file (the standard library's ``sqlite3``).

One file holds any number of sessions. It runs in WAL mode, so readers never block the
writer; every turn is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``), so a crash in
the middle of a turn loses nothing committed before it and leaves no half turn; threads
and processes may write to the same file, and to the same session, concurrently. Each
operation opens its own connection, so a history value is safe to share and to pickle.

Messages are stored as our JSON serialization and loaded back with an allowlist of
the message classes only. A file that is not such a history (corrupt, or another
program's database) is a ``ChatHistoryError`` naming it; it is never reset.

>>> import os, tempfile
>>> from combinators.messages import AIMessage, HumanMessage
>>> path = os.path.join(tempfile.mkdtemp(), "chat.db")
>>> history = SQLiteChatHistory(path, "ann")
>>> history.add_messages([HumanMessage("hi"), AIMessage("hello")])
>>> SQLiteChatHistory(path, "ann").get_messages()
[HumanMessage('hi'), AIMessage('hello')]
>>> SQLiteHistoryStore(path)("bob").get_messages()
[]
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final, TypeVar, final

import attrs

from combinators.components.messages.message_classes import MESSAGE_TYPES, Message
from combinators.components.messages.message_classes import MESSAGE_CLASSES
from combinators.components.serialization import DisallowedTypeError, MalformedDataError, dumps, loads
from effects.errors import CombinatorsError

T = TypeVar("T")

APPLICATION_ID: Final = 0x63624348  # "cbCH": marks the file as a combinators chat history
SCHEMA_VERSION: Final = 1
_BUSY_MS: Final = 30_000
_SCHEMA: Final = (
    "CREATE TABLE chat_messages ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " session_id TEXT NOT NULL,"
    " message TEXT NOT NULL)",
    "CREATE INDEX chat_messages_by_session ON chat_messages (session_id, id)",
    f"PRAGMA application_id = {APPLICATION_ID}",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)


class ChatHistoryError(CombinatorsError, RuntimeError):
    """A history file that cannot be used (corrupt, foreign, newer) or a stored message that
    cannot be loaded; the message names the file.

    >>> issubclass(ChatHistoryError, RuntimeError)
    True
    """


def _initialise(connection: sqlite3.Connection, path: str) -> None:
    """Create the schema in an empty file (once, even when processes race to do it)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        if connection.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            _refuse_foreign(connection, path)
            for statement in _SCHEMA:
                connection.execute(statement)
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _refuse_foreign(connection: sqlite3.Connection, path: str) -> None:
    application = connection.execute("PRAGMA application_id").fetchone()[0]
    if application == APPLICATION_ID:
        return  # another writer initialised the file since the caller looked: it is ours
    tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    if application != 0 or tables:
        raise ChatHistoryError(
            f"{path} is a SQLite database of another program (application_id={application},"
            f" tables: {', '.join(tables) or 'none'}), not a chat history; refusing to touch it"
        )


@contextmanager
def _connected(path: str) -> Generator[sqlite3.Connection, None, None]:
    """A checked connection to the history file (created if it does not exist)."""
    try:
        connection = sqlite3.connect(path, timeout=_BUSY_MS / 1000, isolation_level=None)
    except sqlite3.Error as error:
        raise ChatHistoryError(f"cannot open the chat history {path}: {error}") from error
    try:
        connection.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
        application = connection.execute("PRAGMA application_id").fetchone()[0]
        if application != APPLICATION_ID:
            connection.execute("BEGIN")  # one snapshot: another writer may be initialising it
            try:
                _refuse_foreign(connection, path)
            finally:
                connection.execute("COMMIT")
        if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = FULL")
        if application != APPLICATION_ID:
            _initialise(connection, path)
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise ChatHistoryError(
                f"{path} is a chat history of schema version {version}; this library reads version {SCHEMA_VERSION}"
            )
        yield connection
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise
        raise ChatHistoryError(f"the chat history {path} cannot be used: {error}") from error
    except sqlite3.DatabaseError as error:  # "file is not a database", "disk image is malformed"
        raise ChatHistoryError(
            f"{path} is not a readable chat history (corrupt, or not a SQLite file): {error}; it was left as it is"
        ) from error
    finally:
        connection.close()


def _insert(connection: sqlite3.Connection, session_id: str, text: str) -> None:
    connection.execute("INSERT INTO chat_messages (session_id, message) VALUES (?, ?)", (session_id, text))


def _append_turn(connection: sqlite3.Connection, session_id: str, texts: Sequence[str]) -> None:
    connection.execute("BEGIN IMMEDIATE")
    try:
        for text in texts:
            _insert(connection, session_id, text)
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _in_connection(path: str, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work`` in a fresh connection, tried again while another process holds the file.

    SQLite waits ``busy_timeout`` for most locks, but opening a WAL file while another
    connection checkpoints it on close can report "locked" at once. An attempt that failed
    so wrote nothing (a turn is one transaction), so the whole attempt is repeated.
    """
    deadline = time.monotonic() + _BUSY_MS / 1000
    pause = 0.005
    while True:
        try:
            with _connected(path) as connection:
                return work(connection)
        except sqlite3.OperationalError as error:
            if not ("locked" in str(error) or "busy" in str(error)) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


@final
@attrs.frozen
class SQLiteChatHistory:
    """One session's messages in the SQLite file at ``path``."""

    path: str = attrs.field(converter=str)
    session_id: str

    def get_messages(self) -> list[Message]:
        """The session's messages, oldest first (each loaded by allowlist)."""
        query = "SELECT id, message FROM chat_messages WHERE session_id = ? ORDER BY id"
        rows = _in_connection(self.path, lambda connection: connection.execute(query, (self.session_id,)).fetchall())
        return [self._load(row_id, text) for row_id, text in rows]

    def _load(self, row_id: int, text: str) -> Message:
        try:
            value = loads(text, allowed=MESSAGE_TYPES)
        except (DisallowedTypeError, MalformedDataError, ValueError) as error:
            raise ChatHistoryError(
                f"message {row_id} of session {self.session_id!r} in {self.path} cannot be loaded: {error}"
            ) from error
        if not isinstance(value, MESSAGE_CLASSES):
            raise ChatHistoryError(
                f"message {row_id} of session {self.session_id!r} in {self.path} is a"
                f" {type(value).__name__}, not a message"
            )
        return value

    def add_messages(self, messages: Sequence[Message]) -> None:
        """Append one turn in one transaction: all of its messages are stored, or none."""
        texts = [dumps(m) for m in messages]  # before the transaction: a bad message writes nothing
        if not texts:
            return
        _in_connection(self.path, lambda connection: _append_turn(connection, self.session_id, texts))

    def clear(self) -> None:
        """Delete the session's messages (one transaction)."""
        query = "DELETE FROM chat_messages WHERE session_id = ?"
        _in_connection(self.path, lambda connection: connection.execute(query, (self.session_id,)))

    async def aget_messages(self) -> list[Message]:
        """``get_messages`` on a worker thread (the event loop never waits on the disk)."""
        return await asyncio.to_thread(self.get_messages)

    async def aadd_messages(self, messages: Sequence[Message]) -> None:
        """``add_messages`` on a worker thread."""
        await asyncio.to_thread(self.add_messages, list(messages))


@final
@attrs.frozen
class SQLiteHistoryStore:
    """Session id to ``SQLiteChatHistory`` in one file: a store for ``RunnableWithMessageHistory``.

    >>> SQLiteHistoryStore("chat.db")("ann")
    SQLiteChatHistory(path='chat.db', session_id='ann')
    """

    path: str = attrs.field(converter=str)

    def __call__(self, session_id: str) -> SQLiteChatHistory:
        return SQLiteChatHistory(self.path, session_id)

    def sessions(self) -> list[str]:
        """The session ids that have messages, in the order they first spoke."""
        if not Path(self.path).exists():
            return []
        query = "SELECT session_id FROM chat_messages GROUP BY session_id ORDER BY MIN(id)"
        rows = _in_connection(self.path, lambda connection: connection.execute(query).fetchall())
        return [row[0] for row in rows]
