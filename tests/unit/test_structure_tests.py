"""Where tests live: unit tests mirror the source tree, cross-cutting suites sit beside them.

A unit test of ``combinators/nodes/lambda_.py`` is ``tests/unit/combinators/nodes/test_lambda.py``;
a second file on one module adds an aspect after the module's name
(``test_tool_events.py`` beside ``test_tool.py``); a file on a whole room is named after the
room (``tests/unit/effects/projections/test_projections_agreement.py``). See ``tests/README.md``.
"""

from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
UNIT = ROOT / "tests" / "unit"

# The suites that test a promise across the library, not one module (tests/README.md).
SUITES = frozenset(
    {
        "conformance",
        "docs",
        "examples",
        "integration",
        "laws",
        "reliability",
        "security",
        "testing",
        "typesafety",
        "unit",
    }
)

# Test files at the top of tests/unit: the structure tests themselves and the bench harness check.
TOP_LEVEL = frozenset({"test_bench_smoke.py"})


def _stem(name: str) -> str:
    """``lambda_.py`` is tested by ``test_lambda.py``, ``_fast.py`` by ``test_fast.py``.

    >>> _stem("lambda_.py"), _stem("_fast.py"), _stem("events_v1.py")
    ('lambda', 'fast', 'events_v1')
    """
    return name.removesuffix(".py").strip("_")


def _names_in(source_dir: pathlib.Path) -> set[str]:
    """What a test file in the mirror of ``source_dir`` may be named after: its modules,
    its subpackages, and the room itself (its ``__init__``)."""
    names = {_stem(p.name) for p in source_dir.glob("*.py") if p.name != "__init__.py"}
    names |= {p.name.strip("_") for p in source_dir.iterdir() if (p / "__init__.py").is_file()}
    names.add(source_dir.name.strip("_"))
    return names


def _names_tested_module(test_name: str, names: set[str]) -> bool:
    """``test_tool_events`` names ``tool``; ``test_toolbox`` does not.

    >>> _names_tested_module("test_tool_events", {"tool"}), _names_tested_module("test_toolbox", {"tool"})
    (True, False)
    """
    stem = test_name.removeprefix("test_").removesuffix(".py")
    return any(stem == name or stem.startswith(name + "_") for name in names)


def _unit_test_files() -> list[pathlib.Path]:
    return sorted(p for p in UNIT.rglob("test_*.py") if "golden" not in p.parts)


def test_the_suites_are_the_known_ones() -> None:
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == SUITES, "a new suite goes into tests/README.md and this list"


@pytest.mark.parametrize("path", _unit_test_files(), ids=lambda p: str(p.relative_to(UNIT)))
def test_a_unit_test_sits_where_its_module_is(path: pathlib.Path) -> None:
    relative = path.relative_to(UNIT)
    if len(relative.parts) == 1:
        assert relative.name.startswith("test_structure") or relative.name in TOP_LEVEL, (
            f"tests/unit/{relative}: a unit test goes into the mirror of its module's folder"
        )
        return
    source_dir = ROOT / relative.parent
    assert (source_dir / "__init__.py").is_file(), (
        f"tests/unit/{relative}: no source package {relative.parent} to mirror"
    )
    assert _names_tested_module(path.name, _names_in(source_dir)), (
        f"tests/unit/{relative}: name it test_<module>[_<aspect>].py after a module of {relative.parent}"
    )


def test_every_mirror_folder_is_a_package() -> None:
    # tests/unit's folders are packages, so two test_values.py in different rooms do not collide.
    folders = {p.parent for p in UNIT.rglob("*.py")}
    assert [f for f in folders if not (f / "__init__.py").is_file()] == []


def test_node_and_runtime_modules_have_a_test_file_named_after_them() -> None:
    modules = sorted(
        p.relative_to(ROOT).as_posix()
        for folder in ("combinators/nodes", "effects/_runtime")
        for p in (ROOT / folder).glob("*.py")
        if p.name != "__init__.py"
    )
    missing = {
        m for m in modules if not list((UNIT / pathlib.Path(m).parent).glob(f"test_{_stem(pathlib.Path(m).name)}*.py"))
    }
    assert missing == set(), "a node or runtime module needs a test file named after it (tests/README.md)"


def test_every_path_the_index_names_exists() -> None:
    # tests/README.md's table from behaviour to suite must not point at a moved file.
    index = (ROOT / "tests" / "README.md").read_text(encoding="utf-8")
    named = re.findall(
        r"`((?:unit|laws|reliability|conformance|security|integration|testing|examples|docs|typesafety)/[^`]*)`", index
    )
    assert named, "the index names no path"
    assert [n for n in named if "*" not in n and not (ROOT / "tests" / n.rstrip("/")).exists()] == []
