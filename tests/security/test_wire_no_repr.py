"""A served value with no LangChain class and no documented form is never sent as its
``repr`` (issue 28: "a documented, readable JSON form ... never a repr"): a repr shows
whatever its class chose to show, a secret or an exception's text included.

Checked on every route (``/invoke``, ``/batch``, ``/stream``, ``/stream_log``,
``/stream_events``) with httpx against uvicorn on 127.0.0.1:

- a pydantic model travels as its fields (``model_dump`` in python mode, each field
  through the wire again: a nested exception is scrubbed, a ``SecretStr`` redacted);
- ``returns``' ``Some(x)`` / ``Nothing`` as ``{"kind": "some", "value": x}`` /
  ``{"kind": "nothing"}``, inside containers and records too;
- a dataclass holding those travels as its reading form, with those forms inside;
- an object with no form at all (a plain class with a leaky ``__repr__``, bare or inside
  a dataclass) is a server error when encoding: ``/invoke`` and ``/batch`` answer a 500
  ``OutputNotEncodable``; a stream keeps the chunks it already sent and ends with an
  ``error`` frame. Its repr is never called.

Before the fix, every one of these was ``{"type": "repr", "repr": ...}``: the model's
repr showed ``ValueError('POST https://internal...sk-live...')``, the plain class's its key.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any, cast

import attrs
import pydantic
import pytest
from returns.maybe import Maybe, Nothing, Some
from returns.result import Failure, Success

pytest.importorskip("uvicorn")

import httpx

from combinators import Runnable, RunnableGenerator, RunnableLambda
from combinators.integrations.serving import serve
from effects.projections import SseFrameParser
from tests.integration.serving.live import LiveServer, live

SECRET = "sk-live-9a8b7c6d5e4f3a2b1c0d"
URL = f"https://internal.example/v1/lookup?key={SECRET}"
FORBIDDEN = (SECRET, "sk-live", "internal.example", "LeakyClient(", "SecretStr(", "<Some", "<Nothing", '"repr"')
ROUTES = ("invoke", "batch", "stream", "stream_log", "stream_events")
SCRUBBED = {"type": "error", "error_type": "ValueError", "message": "Internal Server Error"}


class Inner(pydantic.BaseModel):
    n: int


class Account(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)

    name: str
    key: pydantic.SecretStr
    error: Exception
    inner: Inner
    tags: list[str]


class LeakyClient:
    """A client object whose repr shows its key (as many do)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __repr__(self) -> str:
        return f"LeakyClient(key={self.key!r}, url={URL!r})"


@dataclasses.dataclass(frozen=True)
class Found:
    account: Account
    maybe: Maybe[int]


@dataclasses.dataclass(frozen=True)
class Holds:
    client: LeakyClient


@attrs.frozen
class Looked:
    maybe: Maybe[Any]


def account() -> Account:
    return Account(
        name="ada", key=pydantic.SecretStr(SECRET), error=ValueError(f"GET {URL}"), inner=Inner(n=1), tags=["a"]
    )


ACCOUNT_FORM = {"name": "ada", "key": "**********", "error": SCRUBBED, "inner": {"n": 1}, "tags": ["a"]}


def maybes(_: object) -> dict[str, object]:
    return {
        "found": Some(42),
        "missing": Nothing,
        "nested": [Some(Success(1)), (Nothing, Failure(ValueError(URL)))],
        "error": Some(ValueError(URL)),
        "model": Some(Inner(n=2)),
    }


MAYBES_FORM = {
    "found": {"kind": "some", "value": 42},
    "missing": {"kind": "nothing"},
    "nested": [
        {"kind": "some", "value": {"ok": True, "value": 1}},
        [{"kind": "nothing"}, {"ok": False, "error": SCRUBBED}],
    ],
    "error": {"kind": "some", "value": SCRUBBED},
    "model": {"kind": "some", "value": {"n": 2}},
}


async def then_leaky(_: AsyncIterator[object]) -> AsyncIterator[object]:
    yield "first "
    yield LeakyClient(SECRET)


CHAINS: dict[str, Runnable[Any, Any]] = {
    "/model": RunnableLambda(lambda _: account()),
    "/maybe": RunnableLambda(maybes),
    "/record": RunnableLambda(lambda _: {"found": Found(account(), Some(3)), "looked": Looked(Nothing)}),
    "/leaky": RunnableLambda(lambda _: {"fine": 1, "client": LeakyClient(SECRET)}),
    "/leaky_record": RunnableLambda(lambda _: [Holds(LeakyClient(SECRET))]),
    "/leaky_in_model": RunnableLambda(lambda _: Some(LeakyClient(SECRET))),
    "/leaky_key": RunnableLambda(lambda _: {LeakyClient(SECRET): 1}),
    "/leaky_stream": RunnableGenerator(then_leaky),
    "/cycle": RunnableLambda(lambda _: cyclic()),
    "/intermediate": RunnableLambda(lambda _: LeakyClient(SECRET)).with_config(run_name="connect")
    | RunnableLambda(lambda _: "done").with_config(run_name="answer"),
}


@dataclasses.dataclass
class Node:
    next: object


def cyclic() -> Node:
    node = Node(LeakyClient(SECRET))
    node.next = [node]
    return node


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live(serve(CHAINS)) as running:
        yield running


def call(server: LiveServer, path: str, route: str) -> httpx.Response:
    body: dict[str, Any] = {"inputs": ["q", "q"]} if route == "batch" else {"input": "q"}
    return httpx.post(f"{server.url}{path}/{route}", json=body, timeout=30)


def frames(response: httpx.Response) -> list[tuple[str | None, Any]]:
    parser = SseFrameParser()
    return [(frame.event, json.loads(frame.data or "null")) for frame in parser.feed(response.content)]


def assert_clean(text: str) -> None:
    for forbidden in FORBIDDEN:
        assert forbidden not in text, f"{forbidden!r} leaked in {text[:2000]!r}"


def final_output(route: str, response: httpx.Response) -> Any:
    """The output as each route shows it: the body, the last chunk, the log's final
    output, the end event's output."""
    if route == "invoke":
        return response.json()["output"]
    if route == "batch":
        outputs = cast("list[Any]", response.json()["output"])
        assert outputs[0] == outputs[1]
        return outputs[0]
    data = [payload for event, payload in frames(response) if event == "data"]
    assert frames(response)[-1][0] == "end"
    if route == "stream":
        return data[-1]
    if route == "stream_log":
        finals = [op["value"] for patch in data for op in patch["ops"] if op["path"] == "/final_output"]
        return finals[-1]
    ends = [event["data"]["output"] for event in data if event["event"] == "on_chain_end"]
    return ends[-1]


EXPECTED = {
    "/model": ACCOUNT_FORM,
    "/maybe": MAYBES_FORM,
    "/record": {
        "found": {"type": "Found", "account": ACCOUNT_FORM, "maybe": {"kind": "some", "value": 3}},
        "looked": {
            "__combinators__": 1,
            "type": "constructor",
            "id": f"{__name__}.Looked",
            "kwargs": {"maybe": {"kind": "nothing"}},
        },
    },
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("path", list(EXPECTED))
def test_a_value_with_a_form_travels_in_it_on_every_route(server: LiveServer, path: str, route: str) -> None:
    response = call(server, path, route)
    assert response.status_code == 200, response.text
    assert_clean(response.text)
    assert final_output(route, response) == EXPECTED[path]


@pytest.mark.parametrize("route", ("invoke", "batch"))
@pytest.mark.parametrize("path", ["/leaky", "/leaky_record", "/leaky_in_model", "/leaky_key"])
def test_an_object_with_no_form_is_a_server_error_not_a_repr(
    server: LiveServer, caplog: pytest.LogCaptureFixture, path: str, route: str
) -> None:
    with caplog.at_level(logging.WARNING):
        response = call(server, path, route)
    assert response.status_code == 500, response.text
    assert_clean(response.text)
    answer = response.json()
    assert answer["type"] == "OutputNotEncodable"
    assert answer["message"] == "the output could not be sent as JSON: it holds a LeakyClient, which has no JSON form"
    logged = [record.getMessage() for record in caplog.records if "LeakyClient" in record.getMessage()]
    assert logged and all(SECRET not in line for line in logged)


@pytest.mark.parametrize("route", ("stream", "stream_log", "stream_events"))
@pytest.mark.parametrize("path", ["/leaky", "/leaky_record", "/leaky_in_model", "/leaky_key", "/leaky_stream"])
def test_a_stream_ends_with_an_error_frame_at_an_object_with_no_form(server: LiveServer, path: str, route: str) -> None:
    response = call(server, path, route)
    assert response.status_code == 200
    assert_clean(response.text)
    sent = frames(response)
    event, error = sent[-1]
    assert event == "error", sent
    assert error["type"] == "OutputNotEncodable" and "LeakyClient" in error["message"]
    assert [event for event, _ in sent].count("error") == 1
    if path == "/leaky_stream" and route == "stream":  # the chunk sent before stays sent
        assert [payload for event, payload in sent if event == "data"] == ["first "]
    if route == "stream_events":  # the run's start went out before its unwritable output
        started = [payload["event"] for event, payload in sent if event == "data"]
        assert started[0] == "on_chain_start"


@pytest.mark.parametrize("route", ROUTES)
def test_a_cycle_is_refused_not_written_as_a_placeholder(server: LiveServer, route: str) -> None:
    response = call(server, "/cycle", route)
    assert_clean(response.text)
    if route in ("invoke", "batch"):
        assert response.status_code == 500
        error = response.json()
    else:
        event, error = frames(response)[-1]
        assert event == "error"
    assert error["type"] == "OutputNotEncodable"
    assert (
        error["message"]
        == "the output could not be sent as JSON: it holds a value JSON cannot write (the value holds a reference cycle)"
    )


def test_an_intermediate_object_with_no_form_ends_only_the_streams_that_show_it(server: LiveServer) -> None:
    """A step's output shows in ``/stream_log`` and ``/stream_events``: an object with no
    form there ends them (as LangServe's serializer fails on it), while ``/invoke`` and
    ``/stream``, which show only the chain's output, answer; a filter that leaves the
    step out keeps the stream whole."""
    for route in ROUTES:
        response = call(server, "/intermediate", route)
        assert_clean(response.text)
        if route in ("invoke", "batch", "stream"):
            assert response.status_code == 200 and final_output(route, response) == "done"
        else:
            event, error = frames(response)[-1]
            assert event == "error" and error["type"] == "OutputNotEncodable", response.text
    body = {"input": "q", "include_names": ["answer"]}
    for route in ("stream_log", "stream_events"):
        response = httpx.post(f"{server.url}/intermediate/{route}", json=body, timeout=30)
        assert_clean(response.text)
        assert frames(response)[-1][0] == "end", response.text
