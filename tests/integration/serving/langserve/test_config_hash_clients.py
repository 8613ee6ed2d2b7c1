"""LangServe's ``/c/{config_hash}/...`` routes called by LangChain's own clients: LangServe
0.3.3's Python ``RemoteRunnable`` and LangChain.js's, each given a base URL with a config
hash that LangServe's own ``LZString`` made; the served chain runs with that config, as
from a body's ``config`` (only what the server lets clients set)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from combinators import RunConfig, RunnableLambda
from combinators.integrations.serving import serve
from tests.integration.serving.langserve.conftest import run_langserve_script
from tests.integration.serving.live import live

CONFIG = {"configurable": {"user": "héllo", "not_allowed": 1}, "tags": ["dropped: not in config_keys"]}
SEEN: dict[str, Any] = {"configurable": {"user": "héllo"}, "tags": []}


def config_of(text: str, config: RunConfig) -> dict[str, Any]:
    return {"configurable": dict(config.configurable), "tags": list(config.tags)}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with live(serve({"/config": RunnableLambda(config_of)}, client_configurable={"user"})) as server:
        yield f"{server.url}/config"


@pytest.fixture(scope="module")
def from_python(langserve_python: Path, url: str) -> dict[str, Any]:
    return run_langserve_script(langserve_python, "config_hash", url, json.dumps(CONFIG))


def test_langserves_python_client_runs_with_the_config_in_the_path(from_python: dict[str, Any]) -> None:
    assert from_python["invoke"] == SEEN
    assert from_python["batch"] == [SEEN, SEEN]
    assert from_python["stream"] == [SEEN]


def test_langchain_js_runs_with_the_config_in_the_path(
    langchain_js_dir: Path, url: str, from_python: dict[str, Any]
) -> None:
    done = subprocess.run(
        ["node", str(langchain_js_dir / "config_hash.mjs"), url, from_python["hash"]],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=langchain_js_dir,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got == {"invoke": SEEN, "batch": [SEEN, SEEN], "stream": [SEEN]}
