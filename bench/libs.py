"""The two libraries under test, loaded so that either may be missing.

Both expose the same names (``RunnableLambda``, ``RunnableSequence``, ``RunnableParallel``,
``RunnableGenerator``), so every workload builds its chain with ONE function taking a
``Lib`` and calls it once per library: the chains are the same by construction.
Ours is imported lazily: until ``combinators`` exports the runnables, the benchmark runs
peer-only and reports our column as "n/a".
"""

from __future__ import annotations

import importlib
from importlib import metadata
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
NAMES = ("RunnableLambda", "RunnableSequence", "RunnableParallel", "RunnableGenerator")


def silence_tracing() -> None:
    """No LangSmith tracing or network callbacks may run while the peer is timed."""
    for key in list(os.environ):
        if key.startswith(("LANGCHAIN_", "LANGSMITH_")):
            del os.environ[key]
    os.environ["LANGSMITH_TRACING"] = "false"
    os.environ["LANGCHAIN_TRACING_V2"] = "false"


@dataclass(frozen=True)
class Lib:
    """One library: a label, its version, and the runnable classes (untyped on purpose:
    the two libraries' static types differ, the benchmark only needs the shared protocol)."""

    label: str
    version: str
    RunnableLambda: Any
    RunnableSequence: Any
    RunnableParallel: Any
    RunnableGenerator: Any


def _load(label: str, module_name: str, dist_module: str) -> Lib | str:
    """The library, or the reason it cannot be used (one line)."""
    try:
        module = importlib.import_module(module_name)
        classes = {name: getattr(module, name) for name in NAMES}
    except Exception as exc:  # ImportError, AttributeError, or a bug at import time
        return f"{type(exc).__name__}: {exc}".splitlines()[0][:160]
    return Lib(label=label, version=_version(dist_module), **classes)


def _version(dist: str) -> str:
    """``__version__``, else the installed distribution's, else "source" (not installed)."""
    found = getattr(sys.modules.get(dist), "__version__", None)
    if found is None:
        try:
            found = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found = "source"
    return str(found)


def load_peer() -> Lib | str:
    silence_tracing()
    return _load("peer", "langchain_core.runnables", "langchain_core")


def load_ours() -> Lib | str:
    # `python -m bench` from the project root already has it on sys.path; this makes
    # `python /path/to/bench` and other working directories behave the same.
    if str(PROJECT_ROOT) not in sys.path:
        sys.path.insert(0, str(PROJECT_ROOT))
    return _load("ours", "combinators", "combinators")
