"""LangChain.js's ``@langchain/core`` 0.3 for the JS client tests, installed by ``npm ci`` from
``js/package-lock.json`` (every package pinned, about 6 s) into a folder of the test cache
named after the lock's hash, built once per machine under a file lock (a staging folder
renamed into place, then a ``.complete`` marker), and reused while the lock is unchanged.
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
from pathlib import Path
from typing import Final

from bench.langserve_env import cache_dir

JS: Final = Path(__file__).resolve().parent / "js"
INSTALL_SECONDS: Final = 300


def js_dir() -> Path:
    digest = hashlib.sha256((JS / "package-lock.json").read_bytes()).hexdigest()[:12]
    return cache_dir() / f"langchain-js-{digest}"


def _build(folder: Path) -> None:
    staging = folder.with_name(f"{folder.name}.building")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy(JS / name, staging / name)
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise RuntimeError("node and npm are needed (Debian: apt-get install nodejs npm)")
    try:
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--silent"],
            cwd=staging,
            check=True,
            timeout=INSTALL_SECONDS,
            capture_output=True,
        )
    except subprocess.CalledProcessError as error:
        raise RuntimeError(f"npm ci failed: {error.stderr.decode(errors='replace')[-2000:]}") from error
    except subprocess.SubprocessError as error:
        raise RuntimeError(str(error)) from error
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)
    (folder / ".complete").write_text("")


def langchain_js() -> Path:
    """The folder whose ``node_modules`` has ``@langchain/core``; ``RuntimeError`` if it cannot be built."""
    folder = js_dir()
    if not (folder / ".complete").exists():
        folder.parent.mkdir(parents=True, exist_ok=True)
        with open(folder.parent / "langchain-js.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if not (folder / ".complete").exists():
                    _build(folder)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    # The client scripts sit beside node_modules (ES modules resolve from the script's folder).
    for script in JS.glob("*.mjs"):
        shutil.copy(script, folder / script.name)
    return folder
