"""LangServe 0.3.3 in a virtual environment of its own, built once and cached; never in ours.

LangServe pins old packages and pulls langchain-core 0.3, so the serving benchmark and the
LangServe tests drive it as a subprocess of that environment. Every package is pinned in
``bench/langserve-requirements.txt`` and installed with ``--no-deps`` (nothing to resolve),
by ``uv`` (the dev extra has it: about 3 s from the registry, under 1 s from its cache) or,
without it, by pip (about 25 s). The environment lives under ``$COMBINATORS_TEST_CACHE``
(default ``~/.cache/combinators-tests``) in a folder named after the pins' hash, so a change
of pins builds a new one; it is built in bounded time, under a file lock, into a staging folder
renamed into place with a ``.complete`` marker, so a half-built one is never used.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Final

REQUIREMENTS: Final = Path(__file__).with_name("langserve-requirements.txt")
BUILD_SECONDS: Final = 600


def cache_dir() -> Path:
    return Path(os.environ.get("COMBINATORS_TEST_CACHE") or Path.home() / ".cache" / "combinators-tests")


def venv_dir() -> Path:
    digest = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()[:12]
    return cache_dir() / f"langserve-0.3.3-{digest}"


def _uv() -> str | None:
    try:
        from uv import find_uv_bin
    except ImportError:
        return None
    return str(find_uv_bin())


def _install_commands(staging: Path) -> list[list[str]]:
    python = str(staging / "bin" / "python")
    uv = _uv()
    if uv is not None:
        return [
            [uv, "venv", "-q", "--python", sys.executable, str(staging)],
            [uv, "pip", "install", "-q", "--python", python, "--no-deps", "-r", str(REQUIREMENTS)],
        ]
    return [
        [sys.executable, "-m", "venv", "--without-pip", str(staging)],
        [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--disable-pip-version-check",
         "--no-deps", "-r", str(REQUIREMENTS)],
    ]  # fmt: skip


def _build(venv: Path) -> None:
    staging = venv.with_name(f"{venv.name}.building-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        for command in _install_commands(staging):
            subprocess.run(command, check=True, timeout=BUILD_SECONDS, capture_output=True)
        probe = "import langserve, langchain, langchain_core, fastapi, sse_starlette, uvicorn, httpx"
        subprocess.run([str(staging / "bin" / "python"), "-c", probe], check=True, timeout=120, capture_output=True)
    except subprocess.CalledProcessError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise RuntimeError(f"{error}: {error.stderr.decode(errors='replace')[-2000:]}") from error
    except (subprocess.SubprocessError, OSError) as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise RuntimeError(str(error)) from error
    shutil.rmtree(venv, ignore_errors=True)
    staging.rename(venv)
    (venv / ".complete").write_text(REQUIREMENTS.read_text())


def langserve_python() -> Path:
    """The python of the LangServe environment, built on first use (``RuntimeError`` if it cannot be)."""
    venv = venv_dir()
    python = venv / "bin" / "python"
    if (venv / ".complete").exists():
        return python
    root = cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "langserve-0.3.3.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (venv / ".complete").exists():
                _build(venv)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return python
