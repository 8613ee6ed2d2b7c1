"""A served chain's clients set only what the server names, never a sensitive field.

The probe's scenario: a served ``ChatOpenAI`` whose ``base_url`` and ``api_key`` are
configurable, pointing at a fake OpenAI server on 127.0.0.1, and an "attacker" listener
on another 127.0.0.1 port. A client that sends the attacker's URL (and its own key, and
headers) on any run route gets an answer from the real server: its keys are dropped,
the attacker receives nothing, and the server's key goes only where the server sends it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import httpx
import pytest

pytest.importorskip("openai")
pytest.importorskip("starlette")

from combinators import ConfigurableField, Runnable, RunnableLambda
from combinators.integrations.openai.chat import ChatOpenAI
from combinators.integrations.serving import serve
from combinators import RunConfig
from tests.integration.serving.live import live
from tests.unit.combinators.integrations.openai.fake_server import (
    FakeOpenAIServer,
    JsonReply,
    Recorded,
    Reply,
    SseReply,
    completion,
    text_stream,
)

SERVER_KEY = "sk-server-own-key-0123456789abcdef"
ATTACKER_KEY = "sk-attacker-key"


def _answer(request: Recorded) -> Reply:
    if request.body.get("stream"):
        return SseReply(text_stream(["fine"]))
    return JsonReply(completion("fine"))


@pytest.fixture
def upstream() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as running:
        running.responder = _answer
        yield running


@pytest.fixture
def attacker() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as running:
        running.responder = _answer
        yield running


@pytest.fixture(autouse=True)
def _no_environment_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def _model(upstream: FakeOpenAIServer, *, settable: bool = False) -> Runnable[Any, Any]:
    model = ChatOpenAI(model="fake-model", base_url=upstream.url, api_key=SERVER_KEY, max_retries=0, timeout=5.0)
    return model.configurable_fields(
        base_url=ConfigurableField(id="base_url", client_settable=settable),
        api_key=ConfigurableField(id="api_key"),
        temperature=ConfigurableField(id="temperature"),
    )


def _hostile(attacker: FakeOpenAIServer) -> dict[str, Any]:
    return {
        "configurable": {
            "base_url": attacker.url,
            "api_key": ATTACKER_KEY,
            "default_headers": {"x-forwarded-to": attacker.url},
            "organization": "org-attacker",
            "temperature": 0.5,
        }
    }


ROUTES: Mapping[str, dict[str, Any]] = {
    "invoke": {},
    "batch": {},
    "stream": {},
    "stream_log": {},
    "stream_events": {"version": "v2"},
}


def _post(client: httpx.Client, route: str, config: dict[str, Any]) -> httpx.Response:
    if route == "batch":
        return client.post(f"/chat/{route}", json={"inputs": ["hi", "ho"], "config": config})
    return client.post(f"/chat/{route}", json={"input": "hi", "config": config, **ROUTES[route]})


@pytest.mark.parametrize("route", list(ROUTES))
def test_a_client_cannot_send_the_servers_key_elsewhere(
    upstream: FakeOpenAIServer, attacker: FakeOpenAIServer, route: str
) -> None:
    app = serve({"/chat": _model(upstream)}, client_configurable={"temperature"})
    with live(app) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        response = _post(client, route, _hostile(attacker))
    assert response.status_code == 200, response.text
    assert "fine" in response.text and "error" not in response.text.replace('"errors"', "")
    assert attacker.requests == []
    assert upstream.requests, "the run reached the server's own upstream"
    for request in upstream.requests:
        assert request.headers["authorization"] == f"Bearer {SERVER_KEY}"
        assert "x-forwarded-to" not in request.headers and "openai-organization" not in request.headers
        assert request.body["temperature"] == 0.5  # the id the server named did reach the model
    assert SERVER_KEY not in response.text


def test_by_default_a_client_sets_no_configurable_id(upstream: FakeOpenAIServer) -> None:
    app = serve({"/chat": _model(upstream)})
    with live(app) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        response = client.post("/chat/invoke", json={"input": "hi", "config": {"configurable": {"temperature": 0.5}}})
    assert response.status_code == 200
    assert "temperature" not in upstream.requests[0].body


@pytest.mark.parametrize("field", ["base_url", "api_key"])
def test_the_server_cannot_name_a_sensitive_field(upstream: FakeOpenAIServer, field: str) -> None:
    with pytest.raises(ValueError, match=rf"'{field}'.*sensitive \((endpoint|secret)\).*client_settable=True"):
        serve({"/chat": _model(upstream)}, client_configurable={"temperature", field})
    with pytest.raises(ValueError, match="sensitive"):
        serve({"/chat": _model(upstream)}, client_configurable={"/chat": {field}})


def test_client_settable_is_the_fields_own_opt_in(upstream: FakeOpenAIServer, attacker: FakeOpenAIServer) -> None:
    sent = {"configurable": {"base_url": attacker.url}}
    opted_in = serve({"/chat": _model(upstream, settable=True)}, client_configurable={"base_url"})
    with live(opted_in) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        assert client.post("/chat/invoke", json={"input": "hi", "config": sent}).status_code == 200
    assert len(attacker.requests) == 1 and upstream.requests == []  # the server chose to allow it
    not_named = serve({"/chat": _model(upstream, settable=True)})
    with live(not_named) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        assert client.post("/chat/invoke", json={"input": "hi", "config": sent}).status_code == 200
    assert len(attacker.requests) == 1 and len(upstream.requests) == 1  # opting in alone allows nothing


def test_published_schemas_show_only_what_a_client_may_set(upstream: FakeOpenAIServer) -> None:
    served = _model(upstream, settable=True)
    app = serve({"/chat": served}, client_configurable={"temperature", "base_url"})
    with live(app) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        schema = client.get("/chat/config_schema").json()
        openapi = client.get("/openapi.json").text
        playground = client.get("/chat/playground/").text
    ids = schema["properties"]["configurable"]["properties"]
    assert sorted(ids) == ["base_url", "temperature"]
    assert "default" not in ids["base_url"]  # settable, yet its current value stays the server's
    for published in (json.dumps(schema), openapi, playground):
        assert upstream.url not in published and "127.0.0.1" not in published
        assert SERVER_KEY not in published and "api_key" not in published
    own = served.config_schema()["properties"]["configurable"]["properties"]
    assert "default" not in own["base_url"] and "default" not in own["api_key"]


def _configurable_of(text: str, config: RunConfig) -> dict[str, Any]:
    return dict(config.configurable)


def _with_user(config: RunConfig, principal: object, request: object) -> RunConfig:
    return attrs.evolve(config, configurable={**config.configurable, "user_id": "from-server"})


def test_undeclared_keys_are_dropped_and_per_request_may_add_them() -> None:
    chain = RunnableLambda(_configurable_of)
    sent = {"configurable": {"user_id": "mallory", "theme": "dark"}}
    with live(serve({"/c": chain})) as server, httpx.Client(base_url=server.url) as client:
        assert client.post("/c/invoke", json={"input": "x", "config": sent}).json()["output"] == {}
    named = serve({"/c": chain}, client_configurable={"theme"}, per_request=_with_user)
    with live(named) as server, httpx.Client(base_url=server.url) as client:
        output = client.post("/c/invoke", json={"input": "x", "config": sent}).json()["output"]
        batch = client.post("/c/batch", json={"inputs": ["x"], "config": sent}).json()["output"]
    assert output == {"theme": "dark", "user_id": "from-server"} and batch == [output]


def test_client_configurable_names_served_paths_and_sets_not_strings() -> None:
    with pytest.raises(ValueError, match="not served: /nope"):
        serve({"/c": RunnableLambda(str)}, client_configurable={"/nope": {"x"}})
    with pytest.raises(TypeError, match="not the str 'theme'"):
        serve({"/c": RunnableLambda(str)}, client_configurable="theme")


def test_the_librarys_components_declare_their_endpoints_and_keys() -> None:
    from combinators.authoring import SENSITIVE
    from combinators.integrations.aws.kendra import AmazonKendraRetriever
    from combinators.integrations.openai.embeddings import OpenAIEmbeddings
    from combinators.integrations.serving import RemoteRunnable

    cases: list[tuple[Runnable[Any, Any], list[str]]] = [
        (ChatOpenAI(), ["base_url", "api_key", "secrets_from_env"]),
        (
            AmazonKendraRetriever(index_id="0123abcd-0123-abcd-0123-0123456789ab", region_name="us-east-1"),
            ["index_id", "region_name", "client"],
        ),
        (RemoteRunnable("http://127.0.0.1:1/x"), ["url", "settings"]),
    ]
    for component, fields in cases:
        for field in fields:
            configured = component.configurable_fields(**{field: ConfigurableField(id=field)})
            (spec,) = configured.config_specs()
            assert spec.sensitive is not None and not spec.client_may_set, (component, field)
    embeddings = attrs.fields_dict(OpenAIEmbeddings)
    assert [embeddings[name].metadata.get(SENSITIVE) for name in ("base_url", "api_key")] == ["endpoint", "secret"]
