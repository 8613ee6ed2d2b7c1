"""The projections package: import direction, exports, final classes."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import effects.projections as projections

PACKAGE = Path(projections.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_projections_never_import_combinators() -> None:
    # (Which modules may import jsonpatch: tests/unit/test_structure.py, for all of effects.)
    for path in sorted(PACKAGE.glob("*.py")):
        imported = _imports(path)
        assert not any(name == "combinators" or name.startswith("combinators.") for name in imported), path.name


def test_all_lists_exactly_the_public_names() -> None:
    public = {name for name in vars(projections) if not name.startswith("_")}
    modules = {name for name, value in vars(projections).items() if inspect.ismodule(value)}
    assert set(projections.__all__) == public - modules
    assert len(projections.__all__) == len(set(projections.__all__))


def test_concrete_public_classes_are_final() -> None:
    for name in projections.__all__:
        value = getattr(projections, name)
        if inspect.isclass(value) and not getattr(value, "_is_protocol", False) and not hasattr(value, "__total__"):
            assert getattr(value, "__final__", False), f"{name} is not @final"


def test_modules_stay_small() -> None:
    for path in PACKAGE.glob("*.py"):
        code = [line for line in path.read_text().splitlines() if line.strip() and not line.strip().startswith("#")]
        assert len(code) < 450, f"{path.name} has {len(code)} lines"
