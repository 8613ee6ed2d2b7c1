"""Errors are typed on the wire: status, type, message (scrubbed when unmapped), retryable."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from combinators import RunnableLambda
from combinators.language_models import ModelRateLimitError, ModelServerError
from combinators.integrations.serving import ErrorInfo, serve
from combinators import InputValueError, StepTimeout
from effects.projections import SseFrameParser
from tests.integration.serving.chains import fails_after_three
from tests.integration.serving.live import LiveServer, live

FAILURES: dict[str, BaseException] = {
    "secret": KeyError("the-secret-key"),
    "rate": ModelRateLimitError("slow down", status=429),
    "server": ModelServerError("upstream 502", status=502),
    "input": InputValueError("the question is empty"),
    "timeout": StepTimeout("model took longer than 2s"),
    "long": ValueError("context too long: 9000 tokens"),
}


def fail(kind: str) -> str:
    if kind in FAILURES:
        raise FAILURES[kind]
    return kind.upper()


def context_too_long(error: BaseException) -> ErrorInfo | None:
    if isinstance(error, ValueError) and "context too long" in str(error):
        return ErrorInfo(400, "ContextTooLong", str(error))
    return None


def broken_map(error: BaseException) -> ErrorInfo | None:
    raise RuntimeError("the map itself fails")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    app = serve(
        {"/fail": RunnableLambda(fail), "/fails": RunnableLambda(fails_after_three)}, error_map=context_too_long
    )
    with live(app) as running:
        yield running


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        yield http


@pytest.mark.parametrize(
    ("kind", "status", "type_", "message", "retry_after"),
    [
        ("secret", 500, "InternalServerError", "Internal Server Error", None),
        ("rate", 429, "ModelRateLimitError", "the model server rate-limited the request (429)", "1"),
        ("server", 503, "ModelServerError", "the model server is unavailable (502)", "1"),
        ("input", 422, "InputValueError", "the chain cannot take this input", None),
        ("timeout", 504, "Timeout", "the run took longer than its time limit", None),
        ("long", 400, "ContextTooLong", "context too long: 9000 tokens", None),  # the error_map's own answer
    ],
)
def test_invoke_answers_errors_as_typed_json(
    client: httpx.Client, kind: str, status: int, type_: str, message: str, retry_after: str | None
) -> None:
    response = client.post("/fail/invoke", json={"input": kind})
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert (body["type"], body["message"]) == (type_, message)
    assert body["retryable"] is (status in (429, 503, 504))
    assert response.headers.get("retry-after") == retry_after
    assert "run_id" in body
    # The library builds the message from safe fields: an exception's own text never travels.
    for raw in ("the-secret-key", "slow down", "upstream 502", "the question is empty", "longer than 2s"):
        assert raw not in response.text


def test_a_failing_stream_ends_with_one_error_frame_and_no_end(client: httpx.Client) -> None:
    for route in ("stream", "stream_log", "stream_events"):
        parser = SseFrameParser()
        with client.stream("POST", f"/fails/{route}", json={"input": "x"}) as response:
            frames = [f for chunk in response.iter_bytes() for f in parser.feed(chunk)]
        assert frames[0].event == ("metadata" if route == "stream" else "data") and frames[-1].event == "error", route
        assert [f.event for f in frames].count("error") == 1 and "end" not in [f.event for f in frames]
        assert json.loads(frames[-1].data or "") == {
            "status_code": 500,
            "type": "InternalServerError",
            "message": "Internal Server Error",
            "retryable": False,
        }
        if route == "stream":
            assert [json.loads(f.data or "") for f in frames if f.event == "data"] == ["a", "b", "c"]
        text = b"".join(f"{f.event}{f.data}".encode() for f in frames)
        assert b"the-secret-key" not in text, route


def test_error_events_carry_the_mapped_error_only(client: httpx.Client) -> None:
    parser = SseFrameParser()
    with client.stream("POST", "/fails/stream_events", json={"input": "x"}) as response:
        frames = [f for chunk in response.iter_bytes() for f in parser.feed(chunk)]
    events = [json.loads(f.data or "") for f in frames if f.event == "data"]
    (failed,) = [e for e in events if e["event"] == "on_chain_error"]
    assert failed["data"]["error"]["type"] == "InternalServerError"


def test_batch_with_return_exceptions_answers_each_error_in_its_place(client: httpx.Client) -> None:
    body = client.post(
        "/fail/batch", json={"inputs": ["ok", "rate", "fine", "secret"], "return_exceptions": True}
    ).json()
    assert body["output"] == ["OK", None, "FINE", None]
    errors = body["errors"]
    assert errors[0] is None and errors[2] is None
    assert (errors[1]["status_code"], errors[1]["retryable"]) == (429, True)
    assert (errors[3]["status_code"], errors[3]["message"]) == (500, "Internal Server Error")


def test_batch_without_return_exceptions_answers_the_error(client: httpx.Client) -> None:
    response = client.post("/fail/batch", json={"inputs": ["ok", "rate"]})
    assert response.status_code == 429 and response.json()["type"] == "ModelRateLimitError"


def test_an_error_map_that_fails_falls_back_on_the_defaults() -> None:
    with live(serve({"/fail": RunnableLambda(fail)}, error_map=broken_map)) as server:
        response = httpx.post(f"{server.url}/fail/invoke", json={"input": "rate"})
        assert response.status_code == 429
