"""docs/internals.md's map of rooms stays true: every path it lists exists, and every module
of ``combinators`` and ``effects`` is named in it (a merge or rename updates the map)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DESCRIPTION_COLUMN = 29  # where the map's descriptions start; a path is written left of it
PATH_WORD = re.compile(r"^[\w.]+/?$")


def the_map() -> str:
    text = (ROOT / "docs" / "internals.md").read_text()
    return text.split("## Where things live", 1)[1].split("```", 2)[1]


def listed_paths(tree: str) -> list[str]:
    """The paths the map's left column names, each under the folders above it.

    >>> listed_paths("text\\nfx/        desc\\n  a.py b.py      desc\\n  sub/       desc\\n    c.py     desc\\ntop.py  d\\n")
    ['fx', 'fx/a.py', 'fx/b.py', 'fx/sub', 'fx/sub/c.py', 'top.py']
    """
    folders: list[tuple[int, str]] = []
    paths: list[str] = []
    for line in tree.splitlines()[1:]:
        indent = len(line) - len(line.lstrip())
        if indent >= DESCRIPTION_COLUMN:
            continue  # a description's next line
        names = [name for name in re.split(r"\s{2,}", line.strip(), maxsplit=1)[0].split() if PATH_WORD.match(name)]
        if not names:
            continue
        while folders and folders[-1][0] >= indent:
            folders.pop()
        parent = folders[-1][1] + "/" if folders else ""
        paths += [parent + name.rstrip("/") for name in names]
        if len(names) == 1 and names[0].endswith("/"):
            folders.append((indent, parent + names[0].rstrip("/")))
    return paths


def test_every_path_the_map_lists_exists() -> None:
    listed = [path for path in listed_paths(the_map()) if path.split("/")[0] in ("combinators", "effects")]
    assert len(listed) > 60
    assert [path for path in listed if not (ROOT / path).exists()] == []


def test_every_module_is_named_in_the_map() -> None:
    words = set(re.findall(r"\w+", the_map()))
    modules = [
        path.relative_to(ROOT).as_posix()
        for package in ("combinators", "effects")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.name not in ("__init__.py", "__main__.py")
    ]
    assert len(modules) > 200
    assert [module for module in modules if Path(module).stem not in words] == []
