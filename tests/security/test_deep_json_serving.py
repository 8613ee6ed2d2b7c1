"""Deep and odd JSON against a live server: bad input is a 400 before anything runs,
an output the server cannot encode is a short typed error, and a failed request logs
one short line (no traceback).

The probe's numbers: input nested a few hundred levels, or an output 150 levels deep,
got a 500 after the chain had run and logged ~57 KB of traceback per sub-1 KB request;
5,000-digit integers and lone surrogates gave 500s.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("starlette")

from combinators import RunnableLambda
from combinators.integrations.serving import serve
from combinators.integrations.serving.json_limits import JsonLimits, outside_strings, text_depth
from effects.projections import SseFrameParser
from tests.integration.serving.live import LiveServer, live

RAN: list[object] = []


def served_logs(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the server logged (the client's own httpx lines left out)."""
    return [r for r in caplog.records if r.name.startswith(("combinators", "uvicorn", "starlette"))]


def echo(value: Any) -> Any:
    RAN.append(value)
    return value


def deep_output(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value}
    return value


def make_deep(_: Any) -> Any:
    return deep_output(150)


def make_surrogate(_: Any) -> str:
    return "broken \ud800 text"


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    app = serve(
        {
            "/echo": RunnableLambda(echo),
            "/deep": RunnableLambda(make_deep),
            "/surrogate": RunnableLambda(make_surrogate),
        }
    )
    with live(app) as running:
        yield running


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    RAN.clear()
    with httpx.Client(base_url=server.url, timeout=30) as http:
        yield http


def nested_text(levels: int) -> bytes:
    return b"[" * levels + b"1" + b"]" * levels


BAD_INPUTS = {
    "nested 300 levels": (b'{"input": ' + nested_text(300) + b"}", "JSONTooDeep", "max_json_depth"),
    "nested 5,000 levels": (b'{"input": ' + nested_text(5_000) + b"}", "JSONTooDeep", "max_json_depth"),
    "nested 200,000 levels": (b'{"input": ' + nested_text(200_000) + b"}", "JSONTooDeep", "max_json_depth"),
    "deep objects": (b'{"input": ' + b'{"a":' * 300 + b"1" + b"}" * 300 + b"}", "JSONTooDeep", "max_json_depth"),
    "5,000-digit integer": (b'{"input": ' + b"7" * 5_000 + b"}", "NumberTooLong", "max_int_digits"),
    "1,001-digit negative integer": (b'{"input": -' + b"7" * 1_001 + b"}", "NumberTooLong", "max_int_digits"),
    "lone surrogate": (b'{"input": "a \\ud800 b"}', "InvalidJSON", "surrogate"),
    "lone low surrogate in a key": (b'{"input": {"\\udc00": 1}}', "InvalidJSON", "surrogate"),
    "NaN": (b'{"input": NaN}', "InvalidJSON", "NaN"),
    "infinite float": (b'{"input": 1e999}', "InvalidJSON", "too large"),
}


@pytest.mark.parametrize("route", ["invoke", "batch", "stream", "stream_log", "stream_events"])
@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_json_is_a_400_before_anything_runs(
    client: httpx.Client, caplog: pytest.LogCaptureFixture, route: str, case: str
) -> None:
    body, kind, named = BAD_INPUTS[case]
    if route == "batch":
        body = body.replace(b'{"input": ', b'{"inputs": [', 1)[:-1] + b"]}"
    with caplog.at_level(logging.DEBUG):
        response = client.post(f"/echo/{route}", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text[:300]
    answer = response.json()
    assert answer["type"] == kind and named in answer["message"]
    assert len(response.content) < 500
    assert RAN == []
    assert served_logs(caplog) == []  # a client's fault: nothing to log


def test_what_fits_the_limits_still_runs(client: httpx.Client) -> None:
    nested: Any = 1
    for _ in range(90):
        nested = [nested]
    big = int("9" * 1_000)
    body = {"input": {"nested": nested, "big": big, "emoji": "\U0001f600", "escaped": "\u00e9"}}
    response = client.post("/echo/invoke", json=body)
    assert response.status_code == 200, response.text[:300]
    assert response.json()["output"] == body["input"]
    paired = client.post(
        "/echo/invoke", content=b'{"input": "\\ud83d\\ude00"}', headers={"content-type": "application/json"}
    )
    assert paired.json()["output"] == "\U0001f600"  # a surrogate pair is one character


def _frames(response: httpx.Response) -> list[tuple[str, Any]]:
    parser = SseFrameParser()
    return [(frame.event, frame.data) for frame in parser.feed(response.content)]


@pytest.mark.parametrize("path", ["/deep", "/surrogate"])
def test_an_output_that_cannot_be_encoded_is_a_short_typed_error(
    client: httpx.Client, caplog: pytest.LogCaptureFixture, path: str
) -> None:
    with caplog.at_level(logging.DEBUG):
        invoked = client.post(f"{path}/invoke", json={"input": 1})
        batched = client.post(f"{path}/batch", json={"inputs": [1, 2]})
        streams = [
            client.post(f"{path}/{route}", json={"input": 1}) for route in ("stream", "stream_log", "stream_events")
        ]
    for answer in (invoked, batched):
        assert answer.status_code == 500 and len(answer.content) < 500
        assert answer.json()["type"] == "OutputNotEncodable"
        assert answer.json()["message"].startswith("the output could not be sent as JSON")
    for answer in streams:
        assert answer.status_code == 200
        last_event, last_data = _frames(answer)[-1]
        assert last_event == "error", answer.text[-300:]
        assert '"type":"OutputNotEncodable"' in str(last_data) or "OutputNotEncodable" in str(last_data)
    logged = served_logs(caplog)
    assert len(logged) == 5  # one short line per failed request, no traceback
    assert not any(record.exc_info for record in logged)
    assert all(len(record.getMessage()) < 200 for record in logged)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab[]{}"\\\\ é'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='k[]{}"\\\\'), inner, max_size=3),
    max_leaves=30,
)


@given(JSON_VALUES, st.booleans())
def test_the_depth_read_from_the_text_is_the_values_depth(value: Any, ascii_only: bool) -> None:
    # Brackets, quotes and backslashes inside strings never count.
    raw = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert text_depth(outside_strings(raw)) == _depth(value)
    limits = JsonLimits(max_depth=max(_depth(value), 1))
    assert limits.parse(raw) == value
