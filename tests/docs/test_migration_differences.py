"""docs/migration.md lists the documented differences of issue 26, each with its why."""

from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]

REQUIRED = [
    "jinja2 sandbox errors",
    "f-string placeholders are identifiers",
    "`input_variables` is a tuple",
    "templates are immutable",
    "frozen `RunConfig`",
    "frozen messages",
    "frozen runnables",
    "stricter retriever input",
]


def test_each_documented_difference_has_a_row_saying_why() -> None:
    text = (ROOT / "docs" / "migration.md").read_text(encoding="utf-8")
    section = text.split("## Deliberate differences, and why", 1)[1].split("\n## ", 1)[0]
    rows = {
        cells[0]: cells
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("|---")
        for cells in [[c.strip() for c in line.strip().strip("|").split(" | ")]]
    }
    for name in REQUIRED:
        assert name in rows, f"no row for {name}"
        difference, peer, here, why = rows[name]
        assert peer and here and len(why.split()) >= 8, f"{name}: say what the peer does, what to write, and why"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/migration.md#deliberate-differences-and-why" in readme
