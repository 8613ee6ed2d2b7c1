"""Every Markdown file reads as its author meant: code fences closed, links to files that exist,
and the README short enough to be read."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")


def markdown_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return [ROOT / name for name in listed if (ROOT / name).exists()]


def unclosed_fence(text: str) -> int | None:
    """The line number of a fence that is opened and never closed, or None.

    >>> unclosed_fence("```python\\n>>> 1\\n1\\n```\\n")
    >>> unclosed_fence("text\\n```\\ncode\\n## Heading\\n")
    2
    >>> unclosed_fence("````\\n```\\n````\\n")
    """
    opened: tuple[int, str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = FENCE.match(line)
        if match is None:
            continue
        marks = match.group(2)
        if opened is None:
            opened = (number, marks)
        elif marks[0] == opened[1][0] and len(marks) >= len(opened[1]) and not match.group(3).strip():
            opened = None
    return None if opened is None else opened[0]


def test_the_markdown_files_are_found() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in markdown_files()}
    assert {"README.md", "CHANGELOG.md", "docs/index.md", "docs/migration.md"} <= names


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_code_fence_is_closed(path: Path) -> None:
    assert unclosed_fence(path.read_text(encoding="utf-8")) is None, f"{path.name}: a fence is never closed"


def test_the_readme_is_a_guide_not_a_specification() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    first_screen = "\n".join(text.splitlines()[:40])
    assert "make quickstart" in first_screen and "make test" in first_screen
    assert "pip install lcel-combinators" in text
    assert "`combinators` (0.0.2)" in text and "`effects` (0.0.1)" in text


def test_relative_links_in_the_readme_and_the_guides_point_at_files() -> None:
    link = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        prose = re.sub(r"`[^`\n]*`", "", path.read_text(encoding="utf-8"))  # code spans are not links
        for target in link.findall(prose):
            if re.match(r"[a-z]+:", target):
                continue
            if target.startswith(("reference/", "pictures/")) or "/reference/" in target:
                continue  # generated when the site is built (docs/hooks/reference.py, pictures.py)
            assert (path.parent / target).exists(), f"{path.relative_to(ROOT)} links to a missing {target}"


def test_every_page_under_docs_is_in_the_site_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:", 1)[1]
    listed = set(re.findall(r":\s*([\w./-]+\.md)\s*$", nav, re.M))
    pages = {path.relative_to(ROOT / "docs").as_posix() for path in (ROOT / "docs").glob("**/*.md")}
    assert pages - listed == set(), "add these pages to the nav in mkdocs.yml"
