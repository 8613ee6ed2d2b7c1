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
