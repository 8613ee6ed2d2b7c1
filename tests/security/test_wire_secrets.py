"""A request body holding a serialized secret, in any wire form a server could read, is a 400
before anything runs: never a 500, and never a ``Secret`` handed to the chain."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")

import httpx

from combinators import RunnableLambda
from combinators.integrations.serving import serve
from tests.integration.serving.live import LiveServer, live

OURS = {"__combinators__": 1, "type": "secret", "name": "OPENAI_API_KEY"}
LANGCHAINS = {"lc": 1, "type": "secret", "id": ["OPENAI_API_KEY"]}
MESSAGE = "combinators.components.HumanMessage"

SECRET_INPUTS: dict[str, object] = {
    "envelope": OURS,
    "nested in a dict": {"question": "q", "key": OURS},
    "nested in a list": ["a", ["b", OURS]],
    "in a constructor's kwargs": {
        "__combinators__": 1,
        "type": "constructor",
        "id": MESSAGE,
        "kwargs": {"content": OURS},
    },
    "malformed secret marker": {"__combinators__": 1, "type": "secret", "name": 5},
    "langchain form": {"lc": 1, "type": "secret", "id": ["OPENAI_API_KEY"]},
    "langchain form nested": {"messages": [LANGCHAINS]},
}
RAN: list[object] = []


def seen(value: object) -> str:
    RAN.append(value)
    return repr(value)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live(serve({"/seen": RunnableLambda(seen)})) as running:
        yield running


@pytest.mark.parametrize("form", list(SECRET_INPUTS))
@pytest.mark.parametrize("route", ["invoke", "stream", "stream_events", "batch"])
def test_a_serialized_secret_in_a_request_is_a_400(server: LiveServer, form: str, route: str) -> None:
    RAN.clear()
    value = SECRET_INPUTS[form]
    body: dict[str, Any] = {"inputs": ["fine", value]} if route == "batch" else {"input": value}
    response = httpx.post(f"{server.url}/seen/{route}", json=body, timeout=10)
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["type"] == "RefusedInput" and answer["retryable"] is False
    assert answer["detail"][0]["loc"][:2] == ["body", "inputs" if route == "batch" else "input"]
    assert RAN == []  # refused before anything ran


def test_a_malformed_envelope_is_a_400_too(server: LiveServer) -> None:
    bad = {"__combinators__": 1, "type": "constructor", "id": MESSAGE, "kwargs": {"content": 5}}
    response = httpx.post(f"{server.url}/seen/invoke", json={"input": bad}, timeout=10)
    assert (
        response.status_code == 400 and response.json()["message"] == "a serialized value in the request cannot be read"
    )


def test_allowed_values_still_travel(server: LiveServer) -> None:
    message = {"__combinators__": 1, "type": "constructor", "id": MESSAGE, "kwargs": {"content": "hi"}}
    response = httpx.post(f"{server.url}/seen/invoke", json={"input": {"m": message, "type": "secret"}}, timeout=10)
    assert response.status_code == 200 and response.json()["output"] == "{'m': HumanMessage('hi'), 'type': 'secret'}"
