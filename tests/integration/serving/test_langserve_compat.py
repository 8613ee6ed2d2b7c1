"""Compatibility both ways: LangServe 0.3.3's client against our server, ours against LangServe's."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from combinators.integrations.serving import RemoteRunnableError, RemoteRunnable, serve
from tests.integration.serving.chains import ROUTES
from tests.integration.serving.langserve_env import langserve_python
from tests.integration.serving.langserve_scripts import CLIENT, SERVER
from tests.integration.serving.live import LiveServer, live

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def python() -> Path:
    return langserve_python()


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live(serve(ROUTES)) as running:
        yield running


def test_langserves_client_works_against_our_server(python: Path, server: LiveServer, tmp_path: Path) -> None:
    script = tmp_path / "client.py"
    script.write_text(CLIENT)
    done = subprocess.run([str(python), str(script), server.url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "unsupported event type" not in done.stderr, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["invoke"] == "HI!"
    assert out["batch"] == ["A!", "B!"] and out["abatch"] == ["X!", "Y!"]
    assert out["stream"] == ["a", "b", "c"] and out["astream"] == ["x", "y"]
    # A dict in a message's form is a message on LangServe's wire, both ways.
    assert out["plain"] == ["HumanMessage", "hi"]
    assert out["message"] == ["AIMessage", "hello there"] and out["message_chunks"] == ["AIMessageChunk"]
    assert out["token_types"] == ["AIMessageChunk"]
    assert out["ainvoke"] == "the lamp flashes twice"
    assert out["error_status"] == 500 and out["stream_error_status"] == 500
    events = out["events"]
    assert events[0] == ["on_chain_start", "/chat"] and events[-1] == ["on_chain_end", "/chat"]
    assert ["on_chat_model_start", "GenericFakeChatModel"] in events
    assert "".join(out["tokens"]) == "the lamp flashes twice"
    assert out["log_final_output"] == "the lamp flashes twice"


@pytest.fixture(scope="module")
def langserve_server(python: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    script = tmp_path_factory.mktemp("langserve") / "server.py"
    script.write_text(SERVER)
    log = tmp_path_factory.mktemp("langserve-log") / "stderr.txt"
    with open(log, "w") as stderr:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}  # for bench.serving_apps (nothing of ours at import)
        process = subprocess.Popen(
            [str(python), str(script)], stdout=subprocess.PIPE, stderr=stderr, text=True, env=env
        )
    try:
        assert process.stdout is not None
        port = ""
        for line in process.stdout:  # LangServe prints its banner first; the script then the port
            if line.strip().isdigit():
                port = line.strip()
                break
        assert port, log.read_text()[-3000:]
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(20)


def test_our_remote_runnable_works_against_a_langserve_server(langserve_server: str) -> None:
    upper: RemoteRunnable[str, str] = RemoteRunnable(f"{langserve_server}/upper", timeout=30)
    assert upper.invoke("hi") == "HI"
    assert upper.batch(["a", "b"]) == ["A", "B"]
    letters: RemoteRunnable[str, str] = RemoteRunnable(f"{langserve_server}/letters", timeout=30)
    assert list(letters.stream("abc")) == ["a", "b", "c"]
    with pytest.raises(RemoteRunnableError) as caught:
        RemoteRunnable(f"{langserve_server}/fail", timeout=30).invoke("x")
    assert caught.value.status_code == 500


async def test_our_remote_runnable_adopts_a_langserve_servers_events(langserve_server: str) -> None:
    letters: RemoteRunnable[str, str] = RemoteRunnable(f"{langserve_server}/letters", timeout=30)
    assert await letters.ainvoke("ab") == "ab"
    assert [c async for c in letters.astream("ab")] == ["a", "b"]
    events = [e async for e in letters.astream_events("ab")]
    node = events[0]
    (server_root,) = [e for e in events if e["event"] == "on_chain_start" and e["name"] == "/letters"]
    assert server_root["parent_ids"] == [node["run_id"]]
    assert [
        e["data"]["chunk"] for e in events if e["event"] == "on_chain_stream" and e["name"] == "RemoteRunnable"
    ] == ["a", "b"]
    await letters.aclose()
