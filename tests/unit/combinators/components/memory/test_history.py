"""Histories: the in-memory store and SQLite (WAL, one transaction per turn, threads and processes,
crash safety, corrupt and foreign files refused, messages loaded by allowlist)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from combinators.documents import Document
from combinators.load import MalformedDataError, dumps
from combinators.messages import AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage
from combinators.chat_history import (
    ChatHistory,
    ChatHistoryError,
    InMemoryHistoryStore,
    SQLiteChatHistory,
    SQLiteHistoryStore,
)

ROOT = Path(__file__).resolve().parents[5]
Store = Callable[[str], ChatHistory]


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "memory":
        return InMemoryHistoryStore()
    return SQLiteHistoryStore(tmp_path / "chat.db")


def turn(who: str, n: int) -> list[HumanMessage | AIMessage]:
    return [HumanMessage(f"{who} asks {n}"), AIMessage(f"answer to {who} {n}")]


def test_a_history_keeps_turns_in_order_per_session(store: Store) -> None:
    store("ann").add_messages(turn("ann", 1))
    store("bob").add_messages(turn("bob", 1))
    store("ann").add_messages(turn("ann", 2))
    assert [m.text for m in store("ann").get_messages()] == [
        "ann asks 1", "answer to ann 1", "ann asks 2", "answer to ann 2",
    ]  # fmt: skip
    assert len(store("bob").get_messages()) == 2
    store("ann").clear()
    assert store("ann").get_messages() == [] and len(store("bob").get_messages()) == 2
    asyncio.run(store("cy").aadd_messages(turn("cy", 1)))
    assert asyncio.run(store("cy").aget_messages()) == turn("cy", 1)
    assert isinstance(store("ann"), ChatHistory)


def test_every_message_kind_round_trips_through_sqlite(tmp_path: Path) -> None:
    messages = [
        SystemMessage("be brief"),
        HumanMessage([{"type": "text", "text": "look"}, "here"], name="ann"),
        AIMessage("", tool_calls=[{"name": "search", "args": {"q": "x"}, "id": "c1"}], id="m1"),
        ToolMessage("42", tool_call_id="c1"),
        AIMessage("done", usage_metadata={"input_tokens": 3, "output_tokens": 1, "total_tokens": 4}),
        ChatMessage("looks right", role="critic"),
    ]
    SQLiteChatHistory(tmp_path / "h.db", "s").add_messages(messages)
    assert SQLiteChatHistory(tmp_path / "h.db", "s").get_messages() == messages
    mode = sqlite3.connect(tmp_path / "h.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def concurrent_turns(path: str, session: str, writer: int, turns: int) -> None:
    history = SQLiteChatHistory(path, session)
    for n in range(turns):
        history.add_messages([HumanMessage(f"{writer}:{n}:q"), AIMessage(f"{writer}:{n}:a")])


def assert_whole_turns(path: str, sessions: list[str], turns: int) -> None:
    """Every writer's turns are all there, in its order, and no turn is split by another's."""
    for session in set(sessions):
        texts = [m.text for m in SQLiteChatHistory(path, session).get_messages()]
        writers = [w for w, s in enumerate(sessions) if s == session]
        assert len(texts) == len(writers) * turns * 2
        for question, answer in zip(texts[::2], texts[1::2]):
            assert question.endswith(":q") and answer == question[:-1] + "a"
        for writer in writers:
            mine = [t for t in texts[::2] if t.startswith(f"{writer}:")]
            assert mine == [f"{writer}:{n}:q" for n in range(turns)]


@pytest.mark.parametrize("sessions", [["same"] * 4, ["ann", "bob", "ann", "bob"]])
def test_threads_writing_to_one_file_lose_no_message(tmp_path: Path, sessions: list[str]) -> None:
    path = str(tmp_path / "chat.db")
    threads = [
        threading.Thread(target=concurrent_turns, args=(path, session, writer, 25))
        for writer, session in enumerate(sessions)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert_whole_turns(path, sessions, 25)


@pytest.mark.parametrize("sessions", [["same"] * 3, ["ann", "bob", "ann"]])
def test_processes_writing_to_one_file_lose_no_message(tmp_path: Path, sessions: list[str]) -> None:
    path = str(tmp_path / "chat.db")
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=concurrent_turns, args=(path, session, writer, 20))
        for writer, session in enumerate(sessions)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    assert_whole_turns(path, sessions, 20)


CRASH = """
import os, signal, sys
from combinators.messages import AIMessage, HumanMessage
from combinators.components.memory import sqlite as module

history = module.SQLiteChatHistory(sys.argv[1], "s")
history.add_messages([HumanMessage("q1"), AIMessage("a1")])
real_insert = module._insert
inserted = []

def insert_then_die(connection, session_id, text):
    real_insert(connection, session_id, text)
    inserted.append(text)
    if len(inserted) == 2:  # the second turn is half written: the process dies here
        os.kill(os.getpid(), signal.SIGKILL)

module._insert = insert_then_die
history.add_messages([HumanMessage("q2"), AIMessage("a2"), AIMessage("a2, more")])
print("not reached")
"""


def test_a_crash_in_the_middle_of_a_turn_keeps_every_committed_turn_and_no_half_turn(tmp_path: Path) -> None:
    path = tmp_path / "chat.db"
    done = subprocess.run(
        [sys.executable, "-c", CRASH, str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == -9 and "not reached" not in done.stdout, done.stderr
    history = SQLiteChatHistory(path, "s")
    assert [m.text for m in history.get_messages()] == ["q1", "a1"]
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    history.add_messages([HumanMessage("q3"), AIMessage("a3")])
    assert [m.text for m in history.get_messages()] == ["q1", "a1", "q3", "a3"]


def test_a_failing_message_writes_nothing_of_its_turn(tmp_path: Path) -> None:
    history = SQLiteChatHistory(tmp_path / "chat.db", "s")
    history.add_messages([HumanMessage("q1"), AIMessage("a1")])
    with pytest.raises(MalformedDataError):
        history.add_messages([HumanMessage("q2"), AIMessage("a2", additional_kwargs={"handle": object()})])
    assert [m.text for m in history.get_messages()] == ["q1", "a1"]


def test_a_file_that_is_not_a_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    before = path.read_bytes()
    with pytest.raises(
        ChatHistoryError, match=r"notes\.db is not a readable chat history \(corrupt, or not a SQLite file\)"
    ):
        SQLiteChatHistory(path, "s").get_messages()
    with pytest.raises(ChatHistoryError):
        SQLiteChatHistory(path, "s").add_messages([HumanMessage("q")])
    assert path.read_bytes() == before


def test_a_damaged_history_is_refused_never_reset(tmp_path: Path) -> None:
    path = tmp_path / "chat.db"
    history = SQLiteChatHistory(path, "s")
    for n in range(40):
        history.add_messages([HumanMessage(f"question {n} " * 20), AIMessage(f"answer {n} " * 20)])
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[page + 8 : page * 3] = b"\xff" * (page * 2 - 8)  # smash the b-tree pages after the header page
    path.write_bytes(bytes(data))
    with pytest.raises(ChatHistoryError, match="chat history"):
        history.get_messages()
    assert path.read_bytes() == bytes(data)


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE users (name TEXT)")
    connection.commit()
    connection.close()
    with pytest.raises(ChatHistoryError, match=r"another program \(application_id=0, tables: users\)"):
        SQLiteChatHistory(path, "s").add_messages([HumanMessage("q")])
    assert [r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")] == ["users"]


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chat.db"
    SQLiteChatHistory(path, "s").add_messages([HumanMessage("q")])
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA user_version = 7")
    connection.close()
    with pytest.raises(ChatHistoryError, match="schema version 7; this library reads version 1"):
        SQLiteChatHistory(path, "s").get_messages()


def test_stored_values_load_only_if_allowlisted(tmp_path: Path) -> None:
    path = tmp_path / "chat.db"
    SQLiteChatHistory(path, "s").add_messages([HumanMessage("q")])
    connection = sqlite3.connect(path)
    connection.execute(
        "INSERT INTO chat_messages (session_id, message) VALUES (?, ?)", ("s", dumps(Document("planted")))
    )
    connection.commit()
    connection.close()
    with pytest.raises(
        ChatHistoryError,
        match=r"message 2 of session 's' .* cannot be loaded: cannot load '[\w.]+\.Document': it is not in the allowed types",
    ):
        SQLiteChatHistory(path, "s").get_messages()


def test_sqlite_histories_are_values(tmp_path: Path) -> None:
    import pickle

    history = SQLiteChatHistory(tmp_path / "chat.db", "s")
    assert history == SQLiteChatHistory(str(tmp_path / "chat.db"), "s")
    assert pickle.loads(pickle.dumps(history)) == history
    assert SQLiteHistoryStore(tmp_path / "chat.db")("s") == history
    assert SQLiteHistoryStore(tmp_path / "nothing.db").sessions() == []
    assert not (tmp_path / "nothing.db").exists()


def test_a_turn_that_meets_a_locked_file_is_tried_again_and_stored_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from combinators.components.memory import sqlite as module

    real = module._connected
    refusals: list[str] = []

    def locked_once(path: str) -> object:
        if not refusals:
            refusals.append(path)
            raise sqlite3.OperationalError("database is locked")
        return real(path)

    history = SQLiteChatHistory(str(tmp_path / "chat.db"), "s")
    monkeypatch.setattr(module, "_connected", locked_once)
    history.add_messages([HumanMessage("q"), AIMessage("a")])
    assert refusals == [str(tmp_path / "chat.db")]
    assert history.get_messages() == [HumanMessage("q"), AIMessage("a")]


def test_an_error_that_is_not_a_lock_is_not_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from combinators.components.memory import sqlite as module

    calls: list[str] = []

    def broken(path: str) -> object:
        calls.append(path)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(module, "_connected", broken)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        SQLiteChatHistory(str(tmp_path / "chat.db"), "s").get_messages()
    assert len(calls) == 1


def test_threads_opening_a_new_file_together_all_take_it_for_a_history(tmp_path: Path) -> None:
    # Each reader of a file being initialised must see it whole (one snapshot), or it
    # takes the half-made file for another program's database.
    failures: list[BaseException] = []

    def first_turn(path: str) -> None:
        try:
            SQLiteChatHistory(path, "s").add_messages([HumanMessage("x")])
        except BaseException as error:  # collected, asserted below
            failures.append(error)

    for attempt in range(40):
        path = str(tmp_path / f"chat{attempt}.db")
        threads = [threading.Thread(target=first_turn, args=(path,)) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(SQLiteChatHistory(path, "s").get_messages()) == 6 - len(failures)
    assert failures == []
