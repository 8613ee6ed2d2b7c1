"""Compatibility both ways, with plain chains: LangServe 0.3.3's Python client against our
server serving ``tests/integration/serving/chains.py`` (``langserve_client.py basics``), and
our ``RemoteRunnable`` against LangServe serving ``langserve_app.py``'s plain lambdas."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from combinators.integrations.serving import RemoteRunnable, RemoteRunnableError, serve
from tests.integration.serving.chains import ROUTES
from tests.integration.serving.langserve.conftest import run_langserve_script
from tests.integration.serving.live import live


@pytest.fixture(scope="module")
def basics(langserve_python: Path) -> Iterator[dict[str, Any]]:
    with live(serve(ROUTES)) as server:
        yield run_langserve_script(langserve_python, "basics", server.url)


def test_langserves_client_works_against_our_server(basics: dict[str, Any]) -> None:
    out = basics
    assert "unsupported event type" not in out["stderr"], out["stderr"][-3000:]
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


def test_our_remote_runnable_works_against_a_langserve_server(langserve_url: str) -> None:
    upper: RemoteRunnable[str, str] = RemoteRunnable(f"{langserve_url}/upper", timeout=30)
    assert upper.invoke("hi") == "HI"
    assert upper.batch(["a", "b"]) == ["A", "B"]
    letters: RemoteRunnable[str, str] = RemoteRunnable(f"{langserve_url}/letters", timeout=30)
    assert list(letters.stream("abc")) == ["a", "b", "c"]
    failing: RemoteRunnable[str, str] = RemoteRunnable(f"{langserve_url}/fail", timeout=30)
    with pytest.raises(RemoteRunnableError) as caught:
        failing.invoke("x")
    assert caught.value.status_code == 500


async def test_connect_to_a_langserve_server_draws_one_remote_node(langserve_url: str) -> None:
    # LangServe publishes schemas and no graph (its /graph answers 404): one box, as before.
    upper = await RemoteRunnable.connect(f"{langserve_url}/upper", timeout=30)
    assert upper.served_graph is None
    assert [n.kind for n in upper.get_graph().nodes] == ["input", "remote", "output"]
    assert await upper.ainvoke("hi") == "HI"
    await upper.aclose()


async def test_our_remote_runnable_adopts_a_langserve_servers_events(langserve_url: str) -> None:
    letters: RemoteRunnable[str, str] = RemoteRunnable(f"{langserve_url}/letters", timeout=30)
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
