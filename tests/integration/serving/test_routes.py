"""The routes against a live server: LangServe's paths and JSON shapes, frames in order."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from combinators.messages import AIMessage, AIMessageChunk
from combinators.integrations.serving import from_wire, serve
from effects.projections import SseFrame, SseFrameParser
from tests.integration.serving.chains import ROUTES
from tests.integration.serving.live import LiveServer, live


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live(serve(ROUTES)) as running:
        yield running


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        yield http


def frames(client: httpx.Client, path: str, body: dict[str, Any]) -> list[SseFrame]:
    parser = SseFrameParser()
    with client.stream("POST", path, json=body) as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert response.headers["cache-control"] == "no-cache"
        return [frame for chunk in response.iter_bytes() for frame in parser.feed(chunk)]


def test_invoke_answers_langserve_shape(client: httpx.Client) -> None:
    response = client.post("/shout/invoke", json={"input": "hi"})
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["output"] == "HI!"
    assert set(body["metadata"]) == {"run_id", "feedback_tokens"} and body["metadata"]["feedback_tokens"] == []


def test_batch_answers_one_output_and_run_id_per_input(client: httpx.Client) -> None:
    body = client.post("/shout/batch", json={"inputs": ["a", "b", "c"]}).json()
    assert body["output"] == ["A!", "B!", "C!"]
    run_ids = body["metadata"]["run_ids"]
    assert len(set(run_ids)) == 3
    assert body["metadata"]["responses"] == [{"run_id": r, "feedback_tokens": []} for r in run_ids]
    assert "errors" not in body


def test_stream_sends_metadata_first_then_chunks_then_end(client: httpx.Client) -> None:
    got = frames(client, "/letters/stream", {"input": "abc"})
    assert [f.event for f in got] == ["metadata", "data", "data", "data", "end"]
    assert [json.loads(f.data or "") for f in got[1:4]] == ["a", "b", "c"]
    assert set(json.loads(got[0].data or "")) == {"run_id"} and got[-1].data is None


@pytest.mark.parametrize("route", ["stream", "stream_log", "stream_events"])
def test_only_stream_sends_a_metadata_frame_even_when_empty(client: httpx.Client, route: str) -> None:
    # As LangServe: its Python client reads metadata on /stream and warns on it elsewhere.
    got = frames(client, f"/nothing/{route}", {"input": "x"})
    assert got[-1].event == "end"
    if route == "stream":
        assert [f.event for f in got] == ["metadata", "end"]
    else:
        assert "metadata" not in [f.event for f in got] and got[0].event == "data"


def test_stream_events_are_v2_events_of_the_whole_chain(client: httpx.Client) -> None:
    got = frames(client, "/chat/stream_events", {"input": {"question": "what?"}})
    run_id = json.loads(got[0].data or "")["run_id"]
    events = [json.loads(f.data or "") for f in got if f.event == "data"]
    assert events[0]["event"] == "on_chain_start" and events[0]["name"] == "/chat" and events[0]["run_id"] == run_id
    kinds = {e["event"] for e in events}
    assert {"on_prompt_start", "on_chat_model_stream", "on_parser_end", "on_chain_end"} <= kinds
    tokens = [e["data"]["chunk"] for e in events if e["event"] == "on_chat_model_stream"]
    assert "".join(from_wire(t).content for t in tokens) == "the lamp flashes twice"
    assert all(e["parent_ids"][0] == run_id for e in events if e["run_id"] != run_id)
    assert events[-1]["event"] == "on_chain_end" and events[-1]["data"]["output"] == "the lamp flashes twice"


def test_stream_events_filters_and_v1(client: httpx.Client) -> None:
    got = frames(
        client, "/chat/stream_events", {"input": {"question": "q"}, "include_types": ["chat_model"], "version": "v1"}
    )
    events = [json.loads(f.data or "") for f in got if f.event == "data"]
    assert events and {e["event"].split("_")[1] for e in events} == {"chat"}
    assert any(e["event"] == "on_chat_model_stream" for e in events)


def test_stream_log_sends_json_patch_ops(client: httpx.Client) -> None:
    got = frames(client, "/chat/stream_log", {"input": {"question": "q"}, "include_names": ["StrOutputParser"]})
    patches = [json.loads(f.data or "")["ops"] for f in got if f.event == "data"]
    assert patches[0][0]["op"] == "replace" and patches[0][0]["path"] == ""
    state: dict[str, Any] = {}
    import jsonpatch

    for ops in patches:
        state = jsonpatch.apply_patch(state, ops)
    assert state["final_output"] == "the lamp flashes twice"
    assert [entry["name"] for entry in state["logs"].values()] == ["StrOutputParser"]


def test_values_travel_in_langserves_form(client: httpx.Client) -> None:
    plain = client.post("/human_like/invoke", json={"input": "hi"}).json()["output"]
    assert plain == {"type": "human", "content": "hi"}  # sent as the chain returned it
    message = client.post("/model/invoke", json={"input": {"question": "q"}}).json()["output"]
    assert message["type"] == "ai" and message["content"] == "hello there"
    assert {"additional_kwargs", "response_metadata", "tool_calls", "invalid_tool_calls", "id", "name"} <= set(message)
    assert "__combinators__" not in json.dumps(message)
    assert from_wire(message) == AIMessage(
        "hello there", id=message["id"], response_metadata=message["response_metadata"]
    )
    chunks = [
        json.loads(f.data or "")
        for f in frames(client, "/model/stream", {"input": {"question": "q"}})
        if f.event == "data"
    ]
    assert {c["type"] for c in chunks} == {"AIMessageChunk"} and all(isinstance(c["content"], str) for c in chunks)
    assert all(isinstance(from_wire(c), AIMessageChunk) for c in chunks)


def test_schemas_are_the_runnables_own(client: httpx.Client) -> None:
    assert client.get("/answer/input_schema").json() == ROUTES["/answer"].input_schema()
    assert client.get("/shout/output_schema").json() == {"title": "shout_output", "type": "string"}
    assert client.get("/shout/config_schema").json()["properties"] == ROUTES["/shout"].config_schema()["properties"]


def test_openapi_is_built_from_the_same_schemas(client: httpx.Client) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"] == "3.1.0"
    assert doc["components"]["schemas"]["AnswerInput"] == ROUTES["/answer"].input_schema()
    invoke = doc["paths"]["/answer/invoke"]["post"]
    body = invoke["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["input"] == {"$ref": "#/components/schemas/AnswerInput"}
    assert {"200", "401", "413", "422", "429", "500", "503", "504"} <= set(invoke["responses"])
    chat = [p for p in doc["paths"] if p.startswith("/chat/")]
    assert len(chat) == 18 and len([p for p in chat if p.startswith("/chat/c/{config_hash}/")]) == 9


def test_wrong_method_and_unknown_path_answer_json(client: httpx.Client) -> None:
    wrong = client.get("/shout/invoke")
    assert wrong.status_code == 405 and wrong.json()["type"] == "MethodNotAllowed"
    assert wrong.headers["allow"] == "POST"
    missing = client.post("/nowhere/invoke", json={"input": 1})
    assert missing.status_code == 404 and missing.json()["type"] == "NotFound"


def test_a_hook_that_raises_is_a_json_500() -> None:
    from starlette.requests import Request

    def broken_auth(request: Request) -> object:
        raise RuntimeError("the auth service is down: token=abc")

    with live(serve(ROUTES, auth=broken_auth)) as server, httpx.Client(base_url=server.url) as client:
        for response in (client.post("/shout/invoke", json={"input": "x"}), client.get("/shout/input_schema")):
            assert response.status_code == 500 and response.headers["content-type"] == "application/json"
            assert response.json()["message"] == "Internal Server Error" and "abc" not in response.text


def test_config_schema_shows_the_configurable_ids() -> None:
    from combinators import ConfigurableField, RunnableLambda

    def double(x: int) -> int:
        return 2 * x

    chain = RunnableLambda(abs).configurable_alternatives(ConfigurableField(id="op"), double=RunnableLambda(double))
    with live(serve({"/op": chain}, client_configurable={"op"})) as server, httpx.Client(base_url=server.url) as client:
        schema = client.get("/op/config_schema").json()
        assert schema["properties"]["configurable"]["properties"]["op"]["enum"] == ["default", "double"]
        assert client.post("/op/invoke", json={"input": -3}).json()["output"] == 3
        picked = client.post("/op/invoke", json={"input": -3, "config": {"configurable": {"op": "double"}}})
        assert picked.json()["output"] == -6
        unknown = client.post("/op/invoke", json={"input": -3, "config": {"configurable": {"op": "nope"}}})
        assert unknown.status_code == 422, unknown.text
        # The library's message, not the error's own text (which can echo values).
        assert unknown.json()["type"] == "ConfigurableError" and "nope" not in unknown.text
