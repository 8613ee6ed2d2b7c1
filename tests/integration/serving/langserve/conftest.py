"""LangServe 0.3.3 (its own environment, built once per machine and reused: the one place
the tests build it), its server serving ``langserve_app.py``, ours serving ``chains.py``, LangChain.js (``js_env.py``), and
LangServe's Python client and LangChain.js's run against either (each once per session:
one process runs the whole matrix)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from bench.langserve_env import langserve_python as build
from combinators.integrations.serving import serve
from tests.integration.serving.langserve.chains import CALLS, routes
from tests.integration.serving.langserve.js_env import langchain_js
from tests.integration.serving.live import live

HERE = Path(__file__).resolve().parent
# Run by LangServe's python, never imported by ours (pytest's --doctest-modules would).
collect_ignore = ["langserve_app.py", "langserve_client.py"]


def _unavailable(message: str) -> NoReturn:
    """A test fails in CI when a client cannot be installed; elsewhere it skips."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def langserve_python() -> Path:
    """LangServe's python; a test fails (never skips) in CI when it cannot be built."""
    started = time.monotonic()
    try:
        python = build()
    except RuntimeError as error:
        _unavailable(f"could not build LangServe 0.3.3's environment: {error}")
    print(f"\nLangServe's environment ready in {time.monotonic() - started:.1f} s: {python}")
    return python


@pytest.fixture(scope="session")
def langserve_url(langserve_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """LangServe 0.3.3 serving the five chains as LangChain builds them (uvicorn, 127.0.0.1, port 0)."""
    log = tmp_path_factory.mktemp("langserve") / "stderr.txt"
    with open(log, "w") as stderr:
        process = subprocess.Popen(
            [str(langserve_python), str(HERE / "langserve_app.py")], stdout=subprocess.PIPE, stderr=stderr, text=True
        )
    try:
        assert process.stdout is not None
        port = ""
        for line in process.stdout:  # the port, once uvicorn listens
            if line.strip().isdigit():
                port = line.strip()
                break
        assert port, log.read_text()[-3000:]
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(20)


@pytest.fixture(scope="session")
def our_url() -> Iterator[str]:
    """Ours serving the same five chains (uvicorn in a thread, 127.0.0.1, port 0)."""
    with live(serve(routes())) as server:
        yield server.url


def run_langserve_script(python: Path, *args: str) -> dict[str, Any]:
    """What one of ``langserve_client.py``'s scripts printed (its last line), with its ``stderr``."""
    done = subprocess.run(
        [str(python), str(HERE / "langserve_client.py"), *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    record: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    record["stderr"] = done.stderr
    return record


def run_langserve_client(python: Path, url: str) -> dict[str, Any]:
    """What LangServe's Python client got from each route and method at ``url`` (see the script)."""
    return run_langserve_script(python, "matrix", url, json.dumps(CALLS))


@pytest.fixture(scope="session")
def from_langserve(langserve_python: Path, langserve_url: str) -> dict[str, Any]:
    return run_langserve_client(langserve_python, langserve_url)


@pytest.fixture(scope="session")
def from_ours(langserve_python: Path, our_url: str) -> dict[str, Any]:
    return run_langserve_client(langserve_python, our_url)


@pytest.fixture(scope="session")
def langchain_js_dir() -> Path:
    """LangChain.js's @langchain/core 0.3, installed once (``js_env.py``)."""
    started = time.monotonic()
    try:
        folder = langchain_js()
    except RuntimeError as error:
        _unavailable(f"could not install LangChain.js: {error}")
    print(f"\nLangChain.js ready in {time.monotonic() - started:.1f} s: {folder}")
    return folder


def run_js_client(folder: Path, url: str) -> dict[str, Any]:
    """What LangChain.js's RemoteRunnable got from each route and method at ``url`` (``js/client.mjs``)."""
    done = subprocess.run(
        ["node", str(folder / "client.mjs"), url, json.dumps(CALLS)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    record: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    record["stderr"] = done.stderr
    return record


@pytest.fixture(scope="session")
def js_from_langserve(langchain_js_dir: Path, langserve_url: str) -> dict[str, Any]:
    return run_js_client(langchain_js_dir, langserve_url)


@pytest.fixture(scope="session")
def js_from_ours(langchain_js_dir: Path, our_url: str) -> dict[str, Any]:
    return run_js_client(langchain_js_dir, our_url)
