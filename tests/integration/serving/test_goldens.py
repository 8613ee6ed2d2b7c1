"""Golden bytes of every route from a live server (run ids and times normalised, nothing else).

Set ``COMBINATORS_UPDATE_GOLDENS=1`` to rewrite them after a deliberate change.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from combinators.integrations.serving import serve
from tests.integration.serving.chains import ROUTES
from tests.integration.serving.live import LiveServer, live

GOLDEN = Path(__file__).parent / "golden"
_UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TIME = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")

CASES = {
    "invoke": ("/chat/invoke", {"input": {"question": "what?"}}),
    "batch": ("/shout/batch", {"inputs": ["a", "b"], "return_exceptions": True}),
    "stream": ("/chat/stream", {"input": {"question": "what?"}}),
    "stream_log": ("/chat/stream_log", {"input": {"question": "what?"}}),
    "stream_events": ("/chat/stream_events", {"input": {"question": "what?"}}),
    "stream_error": ("/fails/stream", {"input": "x"}),
    "stream_events_error": ("/fails/stream_events", {"input": "x"}),
    "stream_empty": ("/nothing/stream", {"input": "x"}),
    "invoke_plain_dict": ("/human_like/invoke", {"input": "hi"}),
}


def normalised(raw: bytes) -> bytes:
    """Run ids become ``<id:N>`` in order of first appearance; timestamps become ``<time>``."""
    seen: dict[bytes, bytes] = {}

    def name(match: re.Match[bytes]) -> bytes:
        return seen.setdefault(match.group(0), b"<id:%d>" % (len(seen) + 1))

    return _TIME.sub(b"<time>", _UUID.sub(name, raw))


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live(serve(ROUTES)) as running:
        yield running


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_bytes(server: LiveServer, case: str) -> None:
    path, body = CASES[case]
    with httpx.Client(base_url=server.url, timeout=10) as client:
        response = client.post(path, json=body)
    headers = b"".join(
        b"%s: %s\n" % (k.encode(), v.encode())
        for k, v in sorted(response.headers.items())
        if k not in ("date", "server", "content-length")
    )
    got = b"%d\n%s\n%s" % (response.status_code, headers, normalised(response.content))
    golden = GOLDEN / f"{case}.txt"
    if os.environ.get("COMBINATORS_UPDATE_GOLDENS") == "1" or not golden.exists():
        golden.parent.mkdir(exist_ok=True)
        golden.write_bytes(got)
        pytest.fail(f"wrote {golden.name}; check it and run again")
    assert got == golden.read_bytes()
