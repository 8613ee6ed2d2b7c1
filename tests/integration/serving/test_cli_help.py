"""``python -m combinators.integrations.serving --help`` reads as help: prose and options, no doctest lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_help_shows_no_doctest_lines() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "combinators.integrations.serving", "--help"],
        capture_output=True, text=True, timeout=60, check=True, cwd=ROOT,
    )  # fmt: skip
    assert done.stdout.startswith("usage: python -m combinators.integrations.serving")
    assert "module:attribute" in done.stdout and "--port" in done.stdout
    for marker in (">>>", "Traceback", "..."):
        assert marker not in done.stdout, marker
