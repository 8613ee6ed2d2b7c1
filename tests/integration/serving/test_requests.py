"""Requests are checked before anything runs: 400, 413, 422 with paths; config policy; auth."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import httpx
import pytest
from starlette.requests import Request

from combinators import RunnableLambda
from combinators.integrations.serving import serve
from combinators import RunConfig
from tests.integration.serving.chains import ROUTES, Question, answer
from tests.integration.serving.live import LiveServer, live

CALLS: list[Any] = []


def recorded(q: Question) -> str:
    CALLS.append(q)
    return answer(q)


def config_of(text: str, config: RunConfig) -> dict[str, Any]:
    return {"configurable": dict(config.configurable), "tags": list(config.tags)}


# What langserve 0.3.3's RemoteRunnable sends (captured from its client).
LANGSERVE_CONFIG = {"tags": [], "metadata": {}, "recursion_limit": 25, "configurable": {}}
# The six event filters, each unset, as LangServe's client sends them.
NO_FILTERS = dict.fromkeys(
    ("include_names", "include_types", "include_tags", "exclude_names", "exclude_types", "exclude_tags")
)
LANGSERVE_BODIES = {
    "invoke": {"input": "hi", "config": LANGSERVE_CONFIG, "kwargs": {}},
    "batch": {"inputs": ["a", "b"], "config": [LANGSERVE_CONFIG, LANGSERVE_CONFIG], "kwargs": {}},
    "stream": {"input": "hi", "config": LANGSERVE_CONFIG, "kwargs": {}},
    "stream_log": {
        "input": "hi",
        "config": LANGSERVE_CONFIG,
        "kwargs": {},
        "diff": True,
        **NO_FILTERS,
    },
    "stream_events": {
        "input": "hi",
        "config": LANGSERVE_CONFIG,
        "kwargs": {},
        **NO_FILTERS,
    },
}


# What LangChain.js's RemoteRunnable (@langchain/core 0.3.x) sends: a config with its own
# camelCase keys, batch kwargs and configs one per input, no version, diff false.
JS_CONFIG = {"tags": [], "metadata": {}, "recursionLimit": 25, "configurable": {}, "runName": None}
JS_BODIES = {
    "invoke": {"input": "hi", "config": JS_CONFIG, "kwargs": {}},
    "batch": {"inputs": ["a", "b"], "config": [JS_CONFIG, JS_CONFIG], "kwargs": [{}, {}]},
    "batch_null_kwargs": {"inputs": ["a", "b"], "config": [], "kwargs": [None, {}]},
    "stream": {"input": "hi", "config": JS_CONFIG},
    "stream_log": {"input": "hi", "config": JS_CONFIG, "kwargs": {}, "diff": False, **NO_FILTERS},
    "stream_events": {"input": "hi", "config": JS_CONFIG, "kwargs": {}, "diff": False, **NO_FILTERS},
}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    app = serve(
        {
            "/shout": ROUTES["/shout"],
            "/answer": RunnableLambda(recorded),
            "/config": RunnableLambda(config_of),
        },
        max_body_bytes=2000,
        client_configurable={"/config": {"user"}},
    )
    with live(app) as running:
        yield running


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    CALLS.clear()
    with httpx.Client(base_url=server.url, timeout=10) as http:
        yield http


@pytest.mark.parametrize("route", sorted(LANGSERVE_BODIES))
def test_every_body_langserve_sends_is_accepted(client: httpx.Client, route: str) -> None:
    response = client.post(f"/shout/{route}", json=LANGSERVE_BODIES[route])
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("shape", sorted(JS_BODIES))
def test_every_body_langchain_js_sends_is_accepted(client: httpx.Client, shape: str) -> None:
    route = shape.removesuffix("_null_kwargs")
    response = client.post(f"/shout/{route}", json=JS_BODIES[shape])
    assert response.status_code == 200, response.text
    if route == "batch":
        assert response.json()["output"] == ["A!", "B!"]


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"inputs": ["a", "b"], "kwargs": [{}]}, ["body", "kwargs"]),
        ({"inputs": ["a", "b"], "kwargs": [{}, 3]}, ["body", "kwargs", 1]),
        ({"inputs": ["a", "b"], "kwargs": "x"}, ["body", "kwargs"]),
        ({"inputs": ["a", "b"], "config": [{}, {}, {}]}, ["body", "config"]),
        ({"inputs": ["a", "b"], "config": [{}, "x"]}, ["body", "config", 1]),
    ],
)
def test_a_batch_kwargs_or_config_of_the_wrong_shape_is_422_naming_it(
    client: httpx.Client, body: dict[str, Any], loc: list[Any]
) -> None:
    response = client.post("/shout/batch", json=body)
    assert response.status_code == 422, response.text
    assert [item["loc"] for item in response.json()["detail"]] == [loc]


def test_a_bad_input_is_422_with_field_paths_and_nothing_runs(client: httpx.Client) -> None:
    response = client.post("/answer/invoke", json={"input": {"question": 1}})
    assert response.status_code == 422 and response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["type"] == "RequestValidationError" and body["retryable"] is False
    locs = sorted(item["loc"] for item in body["detail"])
    assert locs == [["body", "input"], ["body", "input", "question"]]  # 'k' missing, 'question' not a str
    assert CALLS == []


def test_batch_problems_are_listed_per_item(client: httpx.Client) -> None:
    inputs = [{"question": "ok", "k": 1}, {"question": "ok"}, {"question": 3, "k": 1}]
    body = client.post("/answer/batch", json={"inputs": inputs}).json()
    assert body["status_code"] == 422
    assert sorted(item["loc"][:3] for item in body["detail"]) == [["body", "inputs", 1], ["body", "inputs", 2]]
    assert CALLS == []


@pytest.mark.parametrize(
    ("body", "status", "loc"),
    [
        (b'{"input": ', 400, None),
        (b"\xff\xfe", 400, None),
        (b"[1]", 422, ["body"]),
        (b"{}", 422, ["body", "input"]),
        (b'{"input": "x", "kwargs": 3}', 422, ["body", "kwargs"]),
        (b'{"input": "x", "config": {"configurable": {"a": 1}, "tags": 5}}', 200, None),
        (b'{"input": "x", "config": {"configurable": 7}}', 422, ["body", "config", "configurable"]),
        (b'{"input": "x", "config": "nope"}', 422, ["body", "config"]),
    ],
)
def test_malformed_bodies(client: httpx.Client, body: bytes, status: int, loc: list[Any] | None) -> None:
    response = client.post("/shout/invoke", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    if loc is not None:
        assert response.json()["detail"][0]["loc"] == loc


def test_batch_configs_must_match_inputs(client: httpx.Client) -> None:
    response = client.post("/shout/batch", json={"inputs": ["a", "b"], "config": [{}]})
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "config"]


@pytest.mark.parametrize("route", ["invoke", "stream", "stream_events"])
def test_an_oversized_body_is_413_before_anything_runs(client: httpx.Client, route: str) -> None:
    big = {"input": {"question": "x" * 5000, "k": 1}}
    response = client.post(f"/answer/{route}", json=big)
    assert response.status_code == 413 and response.json()["type"] == "RequestTooLarge"
    chunked = client.post(f"/answer/{route}", content=iter([b'{"input": "', b"x" * 3000, b'"}']))
    assert chunked.status_code == 413
    assert CALLS == []


def test_filters_must_be_lists_of_strings_or_null(client: httpx.Client) -> None:
    response = client.post("/shout/stream_events", json={"input": "x", "include_names": "shout"})
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "include_names"]
    assert client.post("/shout/stream_events", json={"input": "x", "version": "v9"}).status_code == 422


def test_keys_outside_config_keys_are_dropped(client: httpx.Client) -> None:
    sent = {"configurable": {"user": "u"}, "tags": ["t"], "metadata": {"m": 1}, "run_name": "mine", "run_id": "x"}
    body = client.post("/config/invoke", json={"input": "x", "config": sent}).json()
    assert body["output"] == {"configurable": {"user": "u"}, "tags": []}


def test_configurable_where_not_allowed_is_422() -> None:
    app = serve({"/config": RunnableLambda(config_of)}, config_keys=["tags"])
    with live(app) as server, httpx.Client(base_url=server.url) as client:
        refused = client.post("/config/invoke", json={"input": "x", "config": {"configurable": {"user": "u"}}})
        assert refused.status_code == 422
        assert refused.json()["detail"][0]["loc"] == ["body", "config", "configurable"]
        empty = client.post("/config/invoke", json={"input": "x", "config": {"configurable": {}, "tags": ["t"]}})
        assert empty.json()["output"]["tags"] == ["t"]


def _principal(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    cookie = request.cookies.get("session")
    if header == "Bearer alice-token" or cookie == "alice-session":
        return "alice"
    return None


async def _user_from_principal(config: RunConfig, principal: Any, request: Request) -> RunConfig:
    return attrs.evolve(config, configurable={**config.configurable, "user": principal})


@pytest.fixture(scope="module")
def guarded() -> Iterator[LiveServer]:
    app = serve(
        {"/config": RunnableLambda(config_of)},
        auth=_principal,
        per_request=_user_from_principal,
        client_configurable={"user", "theme"},
    )
    with live(app) as running:
        yield running


GET_ROUTES = ["input_schema", "output_schema", "config_schema", "graph", "playground/", "playground/playground.js"]


@pytest.mark.parametrize("route", [*LANGSERVE_BODIES, *GET_ROUTES, "openapi.json"])
def test_auth_runs_on_every_route(guarded: LiveServer, route: str) -> None:
    path = "/openapi.json" if route == "openapi.json" else f"/config/{route}"
    method = "GET" if route in GET_ROUTES or route == "openapi.json" else "POST"
    body = {**LANGSERVE_BODIES.get(route, {}), "input": "x"} if method == "POST" else None
    if route == "batch":
        body = {"inputs": ["x"]}
    with httpx.Client(base_url=guarded.url) as client:
        refused = client.request(method, path, json=body)
        assert refused.status_code == 401 and refused.json()["type"] == "Unauthorized"
        assert (
            client.request(method, path, json=body, headers={"authorization": "Bearer alice-token"}).status_code == 200
        )
        cookie = {"cookie": "session=alice-session"}
        assert client.request(method, path, json=body, headers=cookie).status_code == 200


def test_auth_runs_before_the_body_is_read(guarded: LiveServer) -> None:
    with httpx.Client(base_url=guarded.url) as client:
        response = client.post("/config/invoke", content=b"{not json")
        assert response.status_code == 401  # not 400: the body was never looked at


def test_per_request_overwrites_what_the_client_sent(guarded: LiveServer) -> None:
    with httpx.Client(base_url=guarded.url, headers={"authorization": "Bearer alice-token"}) as client:
        sent = {"configurable": {"user": "mallory", "theme": "dark"}}
        out = client.post("/config/invoke", json={"input": "x", "config": sent}).json()["output"]
        assert out["configurable"] == {"user": "alice", "theme": "dark"}
        batch = client.post("/config/batch", json={"inputs": ["x", "y"], "config": [sent, sent]}).json()["output"]
        assert [o["configurable"]["user"] for o in batch] == ["alice", "alice"]
