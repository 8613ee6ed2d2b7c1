"""examples/chat.py: a chat loop with memory, offline; a second run remembers the first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def chat(db: Path, session: str, lines: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "chat.py"), "--db", str(db), "--session", session],
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.splitlines()


def test_the_chat_answers_and_remembers_across_runs(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    first = chat(db, "ann", "When do puffins nest?\nWhen is the museum open?\n")
    assert first[0] == f"session 'ann' in {db}: 0 earlier messages"
    assert first[1] == "you> When do puffins nest?"
    assert first[2].startswith("bot> ") and "puffins arrive in early April" in first[2]
    assert first[3] == "you> When is the museum open?"
    second = chat(db, "ann", "/history\n/sessions\n/quit\nnever asked\n")
    assert second[0] == f"session 'ann' in {db}: 4 earlier messages"
    history = second[2:6]
    assert [line.split(":")[0] for line in history] == ["  human", "  ai", "  human", "  ai"]
    assert history[0] == "  human: When do puffins nest?" and history[1] == "  ai: " + first[2][len("bot> ") :]
    assert second[6:] == ["you> /sessions", "  ann", "you> /quit"]
    other = chat(db, "bob", "/history\n")
    assert other == [f"session 'bob' in {db}: 0 earlier messages", "you> /history"]


def test_a_follow_up_question_is_read_with_the_history(tmp_path: Path) -> None:
    lines = chat(
        tmp_path / "chat.db",
        "follow",
        "When do puffins nest?\nWhen do they leave?\nWho keeps the light?\nand what does she do every evening?\n"
        "How long does the ferry take?\nAnd how often does it sail?\n",
    )
    answers = [line.removeprefix("bot> ") for line in lines if line.startswith("bot> ")]
    assert len(answers) == 6
    assert "leave for the open sea in August" in answers[1]  # "they": the puffins
    assert "Ida Marr" in answers[2] and "Tomas Reyne" not in answers[2]
    assert "Every evening Ida climbs the tower" in answers[3]  # "she": the keeper
    assert "sails once a day" in answers[5] or "sails twice a day" in answers[5]  # "it": the ferry


def test_without_the_history_the_same_follow_up_misses(tmp_path: Path) -> None:
    (_, _, answer) = chat(tmp_path / "chat.db", "fresh", "And how often does it sail?\n")
    assert "sails" not in answer  # the history is what found the ferry above


def test_a_pronoun_for_the_person_the_last_answer_named(tmp_path: Path) -> None:
    # "she" is named only in the answer ("Ida Marr"), not in the question before it.
    lines = chat(tmp_path / "chat.db", "who", "Who keeps the light?\nWhen did she take over?\n")
    answers = [line.removeprefix("bot> ") for line in lines if line.startswith("bot> ")]
    assert "Ida Marr" in answers[0]
    assert "took over from her father in 2009" in answers[1]
