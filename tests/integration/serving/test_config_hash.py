"""LangServe's ``/c/{config_hash}/...`` routes: a config in the path (lz-string's URI form,
as LangServe's playground writes it), kept under the same rule as a body's ``config``,
behind the same ``auth``; on every route. The hashes below were made by LangServe 0.3.3's
``LZString.compressToEncodedURIComponent``; ``langserve/test_config_hash_clients.py``
calls these routes with LangServe's own client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import Request

from combinators import RunConfig, RunnableLambda
from combinators.integrations.serving import serve
from combinators.integrations.serving.config_hash import (
    MAX_HASH_CHARS,
    BadHash,
    compress_to_encoded_uri_component,
    decompress_from_encoded_uri_component,
)
from tests.integration.serving.live import LiveServer, live

# Made by LangServe 0.3.3's LZString (json.dumps of the config; the second with ensure_ascii=False).
VECTORS = {
    "N4Igxg9gdgZglgcwK4CcCGAjANgUxALgAJQAXHAWwAcd0TU8iAGAOgFYBfdoA": '{"configurable": {"temperature": 0.5}}',
    "N4Igxg9gdgZglgcwK4CcCGAjANgUxALgAJQkBnHFAwkACwEussJCB3AN5SwBNDBkchAC+AoA": (
        '{"configurable": {"user": "héllo wörld ✓"}}'
    ),
    "N4IgLghg5gziBcACA2iCIA0iQCMQF0sQBjAewDsAzASygFcAnCHAGwFMFFQ6Y2HOQACwA6dAAxi2AThYtSiUQBMAHAGZFStgBYATCAC++oA": (
        '{"tags": ["a", "b"], "configurable": {"user": "h\\u00e9llo \\ud83d\\ude42"}}'
    ),
    "N4IgtgpgLghgJjWIBcACUBrFqQA98GFHEmlnkWVXU2130ONPMusgC+7QA": json.dumps({"metadata": {"k": "x" * 300}}),
    "N4XyA": "{}",
    "NoRgNABATAukA": "[1, 2]",
}
USER = "N4Igxg9gdgZglgcwK4CcCGAjANgUxALgAJQkBnHFAwkACwEussJCB3AN5SwBNDBkchAC+AoA"  # {"configurable": {"user": ...}}
TAGS_AND_USER = (
    "N4IgLghg5gziBcACA2iCIA0iQCMQF0sQBjAewDsAzASygFcAnCHAGwFMFFQ6Y2HOQACwA6dAAxi2AThYtSiUQBMAHAGZFStgBYATCAC++oA"
)


@pytest.mark.parametrize("config_hash", sorted(VECTORS))
def test_langserves_hashes_decode(config_hash: str) -> None:
    assert decompress_from_encoded_uri_component(config_hash) == VECTORS[config_hash]


@pytest.mark.parametrize("config_hash", sorted(VECTORS))
def test_the_encoder_writes_langserves_own_hashes(config_hash: str) -> None:
    assert compress_to_encoded_uri_component(VECTORS[config_hash]) == config_hash


@given(st.text(max_size=400))
def test_encoding_then_decoding_is_the_identity(text: str) -> None:
    encoded = compress_to_encoded_uri_component(text)
    assert set(encoded) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$")
    assert decompress_from_encoded_uri_component(encoded) == text


@given(st.lists(st.sampled_from(["a", "b", "ab", "é", "🙂", '{"k": 1}']), max_size=200).map("".join))
def test_repetitive_text_round_trips_through_every_code_width(text: str) -> None:
    # repeats fill the dictionary, so codes cross 2, 3, ... 9 bits wide
    assert decompress_from_encoded_uri_component(compress_to_encoded_uri_component(text)) == text


@pytest.mark.parametrize(
    "bad",
    ["%%", "N4Igxg9gdgZg", "A" * (MAX_HASH_CHARS + 1), "N4Igxg9gdgZglgcwK4CcCGAjANgUxALgAJQ"],
)
def test_what_is_not_a_hash_is_refused(bad: str) -> None:
    with pytest.raises(BadHash):
        decompress_from_encoded_uri_component(bad)


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$", max_size=200))
def test_any_text_of_the_alphabet_decodes_or_is_refused(text: str) -> None:
    # never another exception, never more than the cap
    try:
        decoded = decompress_from_encoded_uri_component(text, max_chars=1000)
    except BadHash:
        return
    assert len(decoded) <= 1000


def config_of(text: str, config: RunConfig) -> dict[str, Any]:
    return {"configurable": dict(config.configurable), "tags": list(config.tags)}


def by_header(request: Request) -> object:
    return request.headers.get("x-user")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    app = serve({"/config": RunnableLambda(config_of)}, client_configurable={"user"}, auth=by_header)
    with live(app) as running:
        yield running


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=10, headers={"x-user": "ann"}) as http:
        yield http


def _outputs(route: str, response: httpx.Response) -> list[Any]:
    assert response.status_code == 200, response.text
    if route == "invoke":
        return [response.json()["output"]]
    if route == "batch":
        return list(response.json()["output"])
    frames = [line.removeprefix("data: ") for line in response.text.splitlines() if line.startswith("data: ")]
    found = [json.loads(frame) for frame in frames]
    if route == "stream":
        return [f for f in found if isinstance(f, dict) and "configurable" in f]
    if route == "stream_log":
        return [op["value"] for f in found for op in f["ops"] if op["path"] == "/final_output" and op["value"]]
    return [e["data"]["output"] for e in found if e["event"] == "on_chain_end"]


BODIES = {
    "invoke": {"input": "x"},
    "batch": {"inputs": ["x", "y"]},
    "stream": {"input": "x"},
    "stream_log": {"input": "x"},
    "stream_events": {"input": "x", "version": "v2"},
}


@pytest.mark.parametrize("route", sorted(BODIES))
def test_every_route_runs_with_the_paths_config(client: httpx.Client, route: str) -> None:
    response = client.post(f"/config/c/{USER}/{route}", json=BODIES[route])
    got = _outputs(route, response)
    assert got and all(o == {"configurable": {"user": "héllo wörld ✓"}, "tags": []} for o in got), got


def test_only_what_clients_may_set_is_kept_and_the_body_wins(client: httpx.Client) -> None:
    # tags are not in config_keys: dropped, as from a body; the body's configurable wins
    kept = client.post(f"/config/c/{TAGS_AND_USER}/invoke", json={"input": "x"}).json()["output"]
    assert kept == {"configurable": {"user": "héllo 🙂"}, "tags": []}
    over = client.post(f"/config/c/{USER}/invoke", json={"input": "x", "config": {"configurable": {"user": "bo"}}})
    assert over.json()["output"]["configurable"] == {"user": "bo"}


def test_an_unreadable_hash_is_a_400_that_does_not_echo_it(client: httpx.Client) -> None:
    for bad in ("N4Igxg9gdgZg", "NoRgNABATAukA", "zzzz$$$$"):  # truncated; a list, not an object; garbage
        response = client.post(f"/config/c/{bad}/invoke", json={"input": "x"})
        assert response.status_code == 400, response.text
        assert response.json()["type"] == "InvalidConfigHash" and bad not in response.text
        assert client.get(f"/config/c/{bad}/input_schema").status_code == 400


def test_a_configurable_the_server_does_not_allow_is_a_422_naming_the_path() -> None:
    app = serve({"/config": RunnableLambda(config_of)}, config_keys=("tags",))
    with live(app) as running, httpx.Client(base_url=running.url, timeout=10) as http:
        response = http.post(f"/config/c/{USER}/invoke", json={"input": "x"})
        assert response.status_code == 422, response.text
        assert response.json()["detail"][0]["loc"] == ["path", "config_hash", "configurable"]
        tags = http.post(f"/config/c/{TAGS_AND_USER}/invoke", json={"input": "x"})
        assert tags.status_code == 422  # it sets configurable too


def test_auth_runs_first_on_every_config_hash_route(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as anonymous:
        for route in BODIES:
            assert anonymous.post(f"/config/c/{USER}/{route}", json=BODIES[route]).status_code == 401
        for page in ("input_schema", "output_schema", "config_schema", "graph", "playground/", "playground"):
            assert anonymous.get(f"/config/c/{USER}/{page}").status_code == 401
        assert anonymous.post("/config/c/zzzz$$$$/invoke", json={"input": "x"}).status_code == 401


def test_schemas_and_the_playground_are_served_under_a_config_hash(client: httpx.Client) -> None:
    for page in ("input_schema", "output_schema", "config_schema", "graph"):
        response = client.get(f"/config/c/{USER}/{page}")
        assert response.status_code == 200 and response.json() == client.get(f"/config/{page}").json()
    moved = client.get(f"/config/c/{USER}/playground", follow_redirects=False)
    assert moved.status_code == 307 and moved.headers["location"] == f"/config/c/{USER}/playground/"
    page = client.get(f"/config/c/{USER}/playground/")
    assert page.status_code == 200 and page.text.startswith("<!doctype html>")
    assert client.get(f"/config/c/{USER}/playground/playground.js").status_code == 200


def test_the_openapi_document_lists_every_config_hash_route_and_each_is_served(client: httpx.Client) -> None:
    doc = client.get("/openapi.json").json()
    hashed = sorted(p for p in doc["paths"] if "/c/" in p)
    routes = [*sorted(BODIES), "config_schema", "graph", "input_schema", "output_schema"]
    assert hashed == sorted(f"/config/c/{{config_hash}}/{route}" for route in routes)
    assert sorted(p for p in doc["paths"] if "/c/" not in p) == sorted(f"/config/{route}" for route in routes)
    for path in hashed:
        ((method, operation),) = doc["paths"][path].items()
        plain = doc["paths"][path.replace("/c/{config_hash}", "")][method]
        assert operation["summary"] == plain["summary"] and operation.get("requestBody") == plain.get("requestBody")
        (parameter,) = operation["parameters"]
        assert parameter["name"] == "config_hash" and parameter["in"] == "path" and parameter["required"] is True
        assert "compressToEncodedURIComponent" in parameter["description"]
        assert operation["responses"]["400"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ErrorInfo"
        }
        assert operation["tags"] == ["config/config"] and plain["tags"] == ["config"]
        route = path.rsplit("/", 1)[1]
        served = (
            client.post(path.replace("{config_hash}", USER), json=BODIES[route])
            if method == "post"
            else client.get(path.replace("{config_hash}", USER))
        )
        assert served.status_code == 200, (path, served.text)
    assert client.get("/config/openapi.json").json()["paths"] == doc["paths"]  # one path: the same document
