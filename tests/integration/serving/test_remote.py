"""RemoteRunnable against a live server: calls, composition, cancellation, typed errors."""

from __future__ import annotations

import asyncio
import pickle
import threading
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import attrs
import cloudpickle  # type: ignore[import-untyped]
import httpx
import pytest
from starlette.requests import Request

from combinators import Runnable, RunnableLambda
from combinators.language_models import ModelRateLimitError, TransientModelError
from combinators.messages import HumanMessage, AIMessage, AIMessageChunk
from combinators.integrations.serving import (
    RemoteAuthError,
    RemoteConnectionError,
    RemoteRunnableError,
    RemoteInputError,
    RemoteRateLimited,
    RemoteUnavailable,
    RemoteRunnable,
    serve,
)
from combinators import InputValueError
from effects.projections import Recorder, replay, stream_events_v2
from tests.integration.serving.chains import ROUTES, Question, answer
from tests.integration.serving.live import LiveServer, Probe, live

PROBE = Probe()
CALLS: list[object] = []
FLAKY = {"left": 0}
FLAKY_LOCK = threading.Lock()


def flaky(text: str) -> str:
    with FLAKY_LOCK:
        if FLAKY["left"] > 0:
            FLAKY["left"] -= 1
            raise ModelRateLimitError("slow down", status=429)
    return text.upper()


def counted(q: Question) -> str:
    CALLS.append(q)
    return answer(q)


def secret(text: str) -> str:
    raise KeyError("the-secret-key")


def _principal(request: Request) -> str | None:
    return "alice" if request.headers.get("authorization") == "Bearer t0k" else None


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    routes: dict[str, Runnable[Any, Any]] = {
        **ROUTES,
        "/flaky": RunnableLambda(flaky),
        "/counted": RunnableLambda(counted),
        "/secret": RunnableLambda(secret),
        "/probe": RunnableLambda(PROBE.tokens),
    }
    with live(serve(routes)) as running:
        yield running


def remote(server: LiveServer, path: str, **settings: Any) -> RemoteRunnable[Any, Any]:
    return RemoteRunnable(f"{server.url}{path}", timeout=10, **settings)


def test_sync_calls(server: LiveServer) -> None:
    with remote(server, "/shout") as shout:
        assert shout.invoke("hi") == "HI!"
        assert shout.batch(["a", "b"]) == ["A!", "B!"]
    with remote(server, "/letters") as letters:
        assert list(letters.stream("abc")) == ["a", "b", "c"]


async def test_async_calls(server: LiveServer) -> None:
    async with remote(server, "/shout") as shout:
        assert await shout.ainvoke("hi") == "HI!"
        assert await shout.abatch(["a", "b"]) == ["A!", "B!"]
    async with remote(server, "/letters") as letters:
        assert [c async for c in letters.astream("abc")] == ["a", "b", "c"]


def test_values_come_back_as_they_were_and_dicts_in_a_messages_form_are_messages(server: LiveServer) -> None:
    # LangServe's wire: a dict in a message's form is that message (it validates as one).
    assert remote(server, "/human_like").invoke("hi") == HumanMessage("hi")
    message = remote(server, "/model").invoke({"question": "q"})
    assert isinstance(message, AIMessage) and message.text == "hello there"
    chunks = list(remote(server, "/model").stream({"question": "q"}))
    assert all(isinstance(c, AIMessageChunk) for c in chunks) and len(chunks) > 1


def _chain(server: LiveServer) -> Runnable[str, str]:
    def pre(text: str) -> dict[str, str]:
        return {"question": text}

    def post(chunks: Iterator[str]) -> Iterator[str]:
        for chunk in chunks:
            yield chunk.upper()

    chat: RemoteRunnable[dict[str, str], str] = RemoteRunnable(f"{server.url}/chat", timeout=10)
    return RunnableLambda(pre) | chat | post


async def test_pre_remote_post_shows_the_remote_models_tokens_with_parent_ids(server: LiveServer) -> None:
    events = [e async for e in _chain(server).astream_events("what?")]
    root = events[0]
    assert root["event"] == "on_chain_start" and root["name"] == "RunnableSequence"
    node = next(e for e in events if e["event"] == "on_chain_start" and e["name"] == "RemoteRunnable")
    server_root = next(e for e in events if e["event"] == "on_chain_start" and e["name"] == "/chat")
    assert server_root["parent_ids"] == [root["run_id"], node["run_id"]]
    tokens = [e for e in events if e["event"] == "on_chat_model_stream"]
    assert "".join(t["data"]["chunk"].text for t in tokens) == "the lamp flashes twice"
    model_start = next(e for e in events if e["event"] == "on_chat_model_start")
    assert all(t["parent_ids"] == model_start["parent_ids"] for t in tokens)
    assert model_start["parent_ids"][:3] == [root["run_id"], node["run_id"], server_root["run_id"]]
    assert model_start["metadata"]["remote"] == f"{server.url}/chat"  # where it ran
    assert "remote" not in node["metadata"]
    # The local node streams the server root's chunks, and post streams them on.
    node_chunks = [
        e["data"]["chunk"] for e in events if e["event"] == "on_chain_stream" and e["run_id"] == node["run_id"]
    ]
    assert "".join(node_chunks) == "the lamp flashes twice" and len(node_chunks) > 1
    assert events[-1]["event"] == "on_chain_end" and events[-1]["data"]["output"] == "THE LAMP FLASHES TWICE"
    # Every start has its end, in order.
    started = [e["run_id"] for e in events if e["event"].endswith("_start")]
    ended = [e["run_id"] for e in events if e["event"].endswith("_end")]
    assert sorted(started) == sorted(ended) and len(set(started)) == len(started)


def test_sync_stream_events_and_listeners_see_the_remote_runs(server: LiveServer) -> None:
    names = [e["name"] for e in _chain(server).stream_events("q") if e["event"].endswith("_start")]
    assert names[:4] == ["RunnableSequence", "pre", "RemoteRunnable", "/chat"]
    assert {"ChatPromptTemplate", "GenericFakeChatModel", "StrOutputParser"} <= set(names)
    seen: list[Any] = []
    assert _chain(server).with_listeners(on_end=seen.append).invoke("q") == "THE LAMP FLASHES TWICE"
    (run,) = seen
    node = next(child for child in run.child_runs if child.name == "RemoteRunnable")
    (server_root,) = node.child_runs
    assert server_root.name == "/chat" and server_root.parent_run_id == node.id
    assert [c.run_type for c in server_root.child_runs] == ["prompt", "chat_model", "parser"]


async def test_the_run_log_and_a_recording_show_the_remote_runs(server: LiveServer) -> None:
    state: Any = None
    async for log in _chain(server).astream_log("q", diff=False):
        state = log.state
    names = sorted(entry["name"] for entry in state["logs"].values())
    assert {"/chat", "GenericFakeChatModel", "RemoteRunnable"} <= set(names)
    assert state["final_output"] == "THE LAMP FLASHES TWICE"
    effects = [e async for e in _chain(server).astream_effects("q")]
    recorder = Recorder()
    replayed = list(replay(recorder.feed(e) for e in effects))
    live_events = [(e["event"], e["name"], e["parent_ids"]) for e in stream_events_v2(effects)]
    assert [(e["event"], e["name"], e["parent_ids"]) for e in stream_events_v2(replayed)] == live_events


async def test_closing_the_local_stream_cancels_the_server_run(server: LiveServer) -> None:
    probe_remote: RemoteRunnable[str, str] = RemoteRunnable(f"{server.url}/probe", timeout=10)
    for observed in (False, True):
        PROBE.started.clear()
        PROBE.cancelled.clear()
        PROBE.finally_ran.clear()
        if observed:
            events = probe_remote.astream_events("t")
            async for event in events:
                if event["event"] == "on_chain_stream" and event["name"] == "RemoteRunnable":
                    break
            await events.aclose()  # type: ignore[attr-defined]
        else:
            stream = probe_remote.astream("t")
            assert (await anext(stream)).startswith("t0")
            await stream.aclose()  # type: ignore[attr-defined]
        assert await asyncio.to_thread(PROBE.cancelled.wait, 5), f"observed={observed}"
        assert PROBE.finally_ran.is_set()
        assert await asyncio.to_thread(server.settle) == []
    await probe_remote.aclose()


def test_sync_stream_close_cancels_the_server_run(server: LiveServer) -> None:
    PROBE.cancelled.clear()
    stream = remote(server, "/probe").stream("t")
    assert next(stream).startswith("t0")
    stream.close()
    assert PROBE.cancelled.wait(5)
    assert server.settle() == []


def test_errors_come_back_typed(server: LiveServer) -> None:
    with pytest.raises(RemoteRunnableError) as caught:
        remote(server, "/secret").invoke("x")
    assert type(caught.value) is RemoteUnavailable and caught.value.status_code == 500
    assert str(caught.value) == "the remote runnable answered 500 InternalServerError"
    assert "the-secret-key" not in str(caught.value) and server.url not in str(caught.value)
    with pytest.raises(RemoteInputError) as bad:
        remote(server, "/shout").invoke(5)
    assert bad.value.status_code == 422 and isinstance(bad.value, ValueError)
    with pytest.raises(RemoteRunnableError) as mid:
        list(remote(server, "/fails").stream("x"))
    assert mid.value.status_code == 500
    chunks: list[str] = []
    with pytest.raises(RemoteRunnableError):
        for chunk in remote(server, "/fails").stream("x"):
            chunks.append(chunk)
    assert chunks == ["a", "b", "c"]  # what came before the error is kept


def test_a_remote_429_is_retried_by_with_retry(server: LiveServer) -> None:
    FLAKY["left"] = 2
    flaky_remote = remote(server, "/flaky")
    with pytest.raises(RemoteRateLimited) as caught:
        flaky_remote.invoke("x")
    assert caught.value.retry_after == 1.0 and isinstance(caught.value, TransientModelError)
    FLAKY["left"] = 2
    retried = flaky_remote.with_retry(
        retry_if_exception_type=(TransientModelError,), stop_after_attempt=3, wait_exponential_jitter=False
    )
    from effects.clock import FakeClock, use_clock

    with use_clock(FakeClock()):
        assert retried.invoke("x") == "X"
    assert FLAKY["left"] == 0


async def test_connect_reads_the_schemas_and_checks_inputs_locally(server: LiveServer) -> None:
    CALLS.clear()
    counted_remote = await RemoteRunnable.connect(f"{server.url}/counted", timeout=10)
    assert counted_remote.input_schema() == RunnableLambda(counted).input_schema()
    assert counted_remote.input_schema()["required"] == ["question", "k"]
    assert counted_remote.output_schema()["type"] == "string"
    with pytest.raises(InputValueError, match="fits the server's input schema"):
        await counted_remote.ainvoke({"question": 1, "k": 1})
    assert CALLS == []
    assert await counted_remote.ainvoke({"question": "q", "k": 2}) == "q x2"
    await counted_remote.aclose()


async def test_connect_reads_the_served_graph_and_drawings_show_the_served_chains_inside(
    server: LiveServer,
) -> None:
    served = ROUTES["/chat"]
    chat = await RemoteRunnable.connect(f"{server.url}/chat", timeout=10)
    assert chat.served_graph is not None  # the server's own graph, its root run named as served
    assert chat.served_graph.nodes[1:-1] == tuple(
        attrs.evolve(n, path=("/chat", *n.path[1:]), input_schema={}, output_schema={})
        for n in served.get_graph().nodes[1:-1]
    )
    assert chat.served_graph.edges == served.get_graph().edges
    graph = (RunnableLambda(str.strip) | chat).get_graph()
    inside = [n.name for n in served.get_graph().nodes[1:-1]]
    assert inside == ["ChatPromptTemplate", "GenericFakeChatModel", "StrOutputParser"]
    assert [n.name for n in graph.nodes] == ["strip_input", "strip", *inside, "StrOutputParserOutput"]
    [frame] = [g for g in graph.groups if g.kind == "remote"]
    assert frame.label == "served (RemoteRunnable)"
    assert [graph.node(id).name for id in frame.nodes] == inside
    assert [(graph.node(e.source).name, graph.node(e.target).name) for e in graph.edges][1:3] == [
        ("strip", "ChatPromptTemplate"),
        ("ChatPromptTemplate", "GenericFakeChatModel"),
    ]
    # The served runs are adopted below the remote run: they mark the served steps.
    effects = [e async for e in chat.astream_effects({"question": "where?"})]
    marked = chat.get_graph().marked(effects)
    assert [n.status for n in marked.nodes[1:-1]] == ["ok", "ok", "ok"]
    for drawing in (graph.draw_ascii(), graph.draw_mermaid(), graph.draw_dot()):
        assert all(name in drawing for name in inside) and "served (RemoteRunnable)" in drawing
    await chat.aclose()


def test_the_server_publishes_its_chains_graph_as_json(server: LiveServer) -> None:
    answer = httpx.get(f"{server.url}/chat/graph", timeout=10)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/json")
    own, published = ROUTES["/chat"].get_graph().to_json(), answer.json()
    assert [n["path"] for n in published["nodes"]] == [
        [],
        ["/chat", "seq:step:1"],
        ["/chat", "seq:step:2"],
        ["/chat", "seq:step:3"],
        [],
    ]
    # Inner steps carry no schemas (a step's schema may show what the server keeps to itself).
    assert [bool(n["input_schema"]) for n in published["nodes"]] == [True, False, False, False, True]
    assert published["nodes"][0]["input_schema"] == httpx.get(f"{server.url}/chat/input_schema", timeout=10).json()
    for node in (*published["nodes"], *own["nodes"]):
        del node["path"], node["input_schema"], node["output_schema"]
    assert published == own  # the rest is the chain's own graph


def test_remote_runnables_are_values(server: LiveServer) -> None:
    a = RemoteRunnable[str, str](f"{server.url}/shout/", timeout=10, headers={"authorization": "Bearer s3cret"})
    b = RemoteRunnable[str, str](f"{server.url}/shout", timeout=10, headers={"authorization": "Bearer s3cret"})
    assert a == b and hash(a) == hash(b)
    assert "s3cret" not in repr(a) and repr(a) == f"RemoteRunnable('{server.url}/shout', timeout=10)"
    for dumps in (pickle.dumps, cloudpickle.dumps):
        copy = pickle.loads(dumps(a))
        assert copy == a and copy.invoke("x") == "X!"
    with pytest.raises(ValueError, match="http"):
        RemoteRunnable("127.0.0.1:8000/chat")


def test_headers_and_auth_reach_the_server() -> None:
    with live(serve({"/shout": ROUTES["/shout"]}, auth=_principal)) as guarded:
        with pytest.raises(RemoteAuthError):
            RemoteRunnable(f"{guarded.url}/shout").invoke("x")
        good = RemoteRunnable(f"{guarded.url}/shout", headers={"authorization": "Bearer t0k"})
        assert good.invoke("x") == "X!"
        assert list(good.stream("x")) == ["X!"]


def test_a_server_that_is_not_there_is_a_connection_error() -> None:
    with httpx.Client() as probe_client:
        del probe_client
    closed = RemoteRunnable("http://127.0.0.1:9/nothing", timeout=2)
    with pytest.raises(RemoteConnectionError):
        closed.invoke("x")
    with pytest.raises(RemoteConnectionError):
        list(closed.stream("x"))


def test_keyword_arguments_are_refused(server: LiveServer) -> None:
    from combinators import InputError

    with pytest.raises(InputError, match="takes no keyword arguments"):
        remote(server, "/shout").with_kwargs(stop=["x"]).invoke("x")


def test_run_ids_of_the_server_are_kept(server: LiveServer) -> None:
    events = list(_chain(server).stream_events("q"))
    server_root = next(e for e in events if e["name"] == "/chat")
    assert UUID(server_root["run_id"]).version == 7  # the server's own time-ordered id


def test_langchain_handlers_see_the_server_runs_and_never_travel(server: LiveServer) -> None:
    # Issue 32: handlers stay with the caller; the remote runs reach them as local ones do.
    import httpx

    from tests.unit.combinators.integrations.langchain.recording import Recorder

    bodies: list[bytes] = []

    class Spy(httpx.Auth):
        requires_request_body = True

        def auth_flow(self, request: httpx.Request) -> Iterator[httpx.Request]:
            bodies.append(request.content)
            yield request

    def pre(text: str) -> dict[str, str]:
        return {"question": text}

    chat: RemoteRunnable[dict[str, str], str] = RemoteRunnable(f"{server.url}/chat", timeout=10, auth=Spy())
    recorder = Recorder()
    assert (RunnableLambda(pre) | chat).invoke("q", {"callbacks": [recorder]}) == "the lamp flashes twice"
    calls = [name for name, _, _ in recorder.calls]
    assert calls[0] == "on_chain_start" and calls[-1] == "on_chain_end"
    assert "on_chat_model_start" in calls and "on_llm_end" in calls  # the server's model run
    tokens = [
        kwargs.get("token", args[0] if args else None)
        for name, args, kwargs in recorder.calls
        if name == "on_llm_new_token"
    ]
    assert "".join(str(t) for t in tokens) == "the lamp flashes twice"
    # every run the handler heard of has its parent among the runs it heard of (or is the root)
    started = {kwargs["run_id"] for name, _, kwargs in recorder.calls if name.endswith("_start")}
    parents = {kwargs.get("parent_run_id") for name, _, kwargs in recorder.calls if name.endswith("_start")}
    assert parents - started == {None}
    assert bodies and all(b"callbacks" not in body and b"Recorder" not in body for body in bodies)
