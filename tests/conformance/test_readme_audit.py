"""The issue-26 audit table in tests/conformance/README.md names tests that exist."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "tests" / "conformance" / "README.md"


def _audit_rows() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Issue 26, bullet by bullet", 1)[1]
    return [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| ---")][1:]


def test_every_bullet_names_a_test_and_every_named_test_exists() -> None:
    rows = _audit_rows()
    assert len(rows) >= 25
    for row in rows:
        cells = row.strip().removeprefix("|").removesuffix("|").split(" | ", 1)
        bullet, tests = cells[0].strip(), (cells[1] if len(cells) > 1 else "")
        if bullet.startswith("**"):
            continue  # a section heading
        assert tests.strip(" |"), f"no test named for: {bullet}"
        path: pathlib.Path | None = None
        for ref in re.findall(r"`([^`]+)`", tests):
            file, _, name = ref.partition("::")
            if file.startswith("tests/") and file.endswith(".py"):
                path = ROOT / file
                assert path.exists(), ref
            if name and path is not None and (file.endswith(".py") or file == ""):
                assert re.search(rf"^(?:async )?def {re.escape(name)}\(", path.read_text(encoding="utf-8"), re.M), ref
