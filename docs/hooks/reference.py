"""MkDocs hook: the API reference, one page per package root, generated from each root's ``__all__``.

A root is any public package of ``combinators`` or ``effects`` whose ``__init__.py`` sets
``__all__``; a new root appears in the reference (and in the nav) with no edit here. A
literal ``__all__`` is read statically (ast), so building the docs imports no integration
and needs no extra beyond ``docs``; a composed one (``combinators`` and ``effects`` compose
theirs from ``_LAZY``, and importing them is cheap) is read by importing the root.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("combinators", "effects")
SECTION = "API reference"


def exported_names(init: Path, package: str) -> list[str] | None:
    """The ``__all__`` of a package's ``__init__.py`` (``package`` is its dotted name), or
    None when it sets none: a literal is read without importing, a composed one by import."""
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        target = (
            node.targets[0]
            if isinstance(node, ast.Assign)
            else node.target
            if isinstance(node, ast.AnnAssign)
            else None
        )
        if isinstance(target, ast.Name) and target.id == "__all__" and node.value is not None:
            try:
                return [str(name) for name in ast.literal_eval(node.value)]
            except ValueError:  # composed (``list(_LAZY)``): the root's own answer
                if str(ROOT) not in sys.path:
                    sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy
                return [str(name) for name in importlib.import_module(package).__all__]
    return None


def package_roots() -> dict[str, list[str]]:
    """Every public package with an ``__all__``, by dotted name, in a stable order."""
    roots: dict[str, list[str]] = {}
    for package in PACKAGES:
        for init in sorted((ROOT / package).glob("**/__init__.py")):
            parts = init.relative_to(ROOT).parts[:-1]
            if any(part.startswith("_") for part in parts):
                continue
            names = exported_names(init, ".".join(parts))
            if names:
                roots[".".join(parts)] = names
    return roots


def page_path(root: str) -> str:
    return f"reference/{root}.md"


def page_text(root: str, names: list[str]) -> str:
    members = "\n".join(f"        - {name}" for name in names)
    return (
        f"# `{root}`\n\n"
        f"{len(names)} public names, as `from {root} import ...` gives them.\n\n"
        f"::: {root}\n"
        "    options:\n"
        "      show_root_heading: false\n"
        "      show_submodules: false\n"
        "      members:\n"
        f"{members}\n"
    )


def index_text(roots: dict[str, list[str]]) -> str:
    rows = "\n".join(f"| [`{root}`]({root}.md) | {len(names)} |" for root, names in roots.items())
    return (
        "# API reference\n\n"
        "Generated from the docstrings (whose `>>>` examples the tests run), one page per\n"
        "package root: every name in the root's `__all__`.\n\n"
        "| import from | public names |\n|---|---|\n"
        f"{rows}\n"
    )


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    roots = package_roots()
    pages: list[Any] = ["reference/index.md", *({root: page_path(root)} for root in roots)]
    nav = config.nav or []
    for entry in nav:
        if isinstance(entry, dict) and SECTION in entry:
            entry[SECTION] = pages
            break
    else:
        nav.append({SECTION: pages})
    config.nav = nav
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    roots = package_roots()
    files.append(File.generated(config, "reference/index.md", content=index_text(roots)))
    for root, names in roots.items():
        files.append(File.generated(config, page_path(root), content=page_text(root, names)))
    return files
