"""The distribution as a user installs it: its name, its extras, and every line that tells
someone what to type (error messages, docstrings, docs) agreeing with pyproject.toml."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from effects.hooks import DISTRIBUTION, install_line

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT: dict[str, Any] = PYPROJECT["project"]
EXTRAS: dict[str, list[str]] = PROJECT["optional-dependencies"]

# Every pip line that names this project, in code and in what users read.
PIP_LINE = re.compile(r"pip install (?:-\S+ )*'?([A-Za-z0-9_.-]+)(?:\[([a-z0-9_,-]+)\])?'?")
OURS = {"combinators", "effects", DISTRIBUTION}


def user_facing_files() -> list[Path]:
    skipped = {".venv", ".venv-ci", "node_modules", "site", ".git"}
    found = [
        path
        for pattern in ("combinators/**/*.py", "effects/**/*.py", "examples/**/*.py", "docs/**/*.md", "*.md")
        for path in ROOT.glob(pattern)
        if not skipped & set(path.relative_to(ROOT).parts)
    ]
    assert len(found) > 50
    return found


def test_the_distribution_name_is_the_one_the_code_names() -> None:
    assert PROJECT["name"] == DISTRIBUTION == "lcel-combinators"
    assert install_line("otel") == "pip install 'lcel-combinators[otel]'"


def test_the_extras_are_named_for_what_they_bring() -> None:
    wanted = {"openai", "aws", "serving", "server", "otel", "progress", "dask", "jinja2", "minilm", "testing"}
    wanted |= {"langchain", "docs", "all"}
    assert wanted <= set(EXTRAS)
    assert EXTRAS["server"] == [f"{DISTRIBUTION}[serving]"], "server is an alias of serving for one release"
    (everything,) = EXTRAS["all"]
    inside = set(re.fullmatch(rf"{DISTRIBUTION}\[(.*)\]", everything).group(1).split(","))  # type: ignore[union-attr]
    # minilm brings torch (gigabytes); the rest of the user-facing extras are in `all`.
    assert inside == wanted - {"server", "docs", "all", "minilm"}


def test_the_runtime_dependencies_stay_small() -> None:
    names = {re.split(r"[<>=\[ ]", dep)[0].lower().replace("_", "-") for dep in PROJECT["dependencies"]}
    assert names == {"attrs", "returns", "jsonpatch", "jsonschema", "typing-extensions"}


def test_every_install_line_names_the_distribution_and_a_real_extra() -> None:
    checked = 0
    for path in user_facing_files():
        for match in PIP_LINE.finditer(path.read_text()):
            name, extras = match.group(1), match.group(2)
            if name not in OURS:
                continue  # another project's package (hypothesis, langserve, ...)
            checked += 1
            assert name == DISTRIBUTION, f"{path.relative_to(ROOT)}: {match.group(0)!r} installs someone else's project"
            for extra in (extras or "").split(","):
                assert not extra or extra in EXTRAS or extra == "greet", f"{path.relative_to(ROOT)}: no extra {extra!r}"
    assert checked >= 3


def test_the_version_is_written_in_one_place() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", PROJECT["version"])
    pattern = re.compile(r"__version__\s*=|version\s*=\s*[\"']\d")
    written = [
        p for p in (*ROOT.glob("combinators/**/*.py"), *ROOT.glob("effects/**/*.py")) if pattern.search(p.read_text())
    ]
    assert written == []


def test_classifiers_name_only_the_pythons_ci_runs() -> None:
    versions = [c.rsplit(" :: ", 1)[1] for c in PROJECT["classifiers"] if re.fullmatch(r".* :: 3\.\d+", c)]
    assert versions == ["3.11"]
    assert PROJECT["requires-python"] == ">=3.11"
    assert "Typing :: Typed" in PROJECT["classifiers"]


def test_the_license_file_is_mit_as_pyproject_says() -> None:
    assert PROJECT["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


def test_both_packages_ship_their_type_marker() -> None:
    assert (ROOT / "combinators" / "py.typed").exists()
    assert (ROOT / "effects" / "py.typed").exists()
    assert PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["combinators", "effects"]
