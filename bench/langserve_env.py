"""LangServe 0.3.3 in a virtual environment of its own, built once and cached; never in ours.

LangServe pins old packages and pulls langchain-core, so the serving benchmark and the
compatibility tests drive it as a subprocess of that environment. It is built under
``$COMBINATORS_TEST_CACHE`` (default ``~/.cache/combinators-tests``) with ``python -m venv``
and ``pip install 'langserve[all]==0.3.3'`` (about 15 s), in bounded time, under a file lock.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Final

REQUIREMENT: Final = "langserve[all]==0.3.3"
BUILD_SECONDS: Final = 600


def cache_dir() -> Path:
    return Path(os.environ.get("COMBINATORS_TEST_CACHE") or Path.home() / ".cache" / "combinators-tests")


def _build(venv: Path) -> None:
    staging = venv.with_name(f"{venv.name}.building-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(staging)], check=True, timeout=120, capture_output=True)
        pip = [str(staging / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, REQUIREMENT], check=True, timeout=BUILD_SECONDS, capture_output=True)
    except subprocess.CalledProcessError as error:
        raise RuntimeError(f"{error}: {error.stderr.decode(errors='replace')[-2000:]}") from error
    except (subprocess.SubprocessError, OSError) as error:
        raise RuntimeError(str(error)) from error
    shutil.rmtree(venv, ignore_errors=True)
    staging.rename(venv)
    (venv / ".complete").write_text(REQUIREMENT)


def langserve_python() -> Path:
    """The python of the LangServe environment, built on first use (``RuntimeError`` if it cannot be)."""
    root = cache_dir()
    venv = root / "langserve-0.3.3"
    python = venv / "bin" / "python"
    if (venv / ".complete").exists():
        return python
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "langserve-0.3.3.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (venv / ".complete").exists():
                _build(venv)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return python
