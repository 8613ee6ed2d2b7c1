"""``stream_events(..., encoding="text/event-stream")`` bytes are served to clients (as
LangChain.js's docs show): they never carry an exception's text, a URL, an upstream body
or an object's ``repr``; the error event still names the error's type, with a safe message."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import pytest

from combinators import RunnableLambda
from effects.authoring import is_dict
from effects.projections import compact_json, parse_event_stream, to_jsonable

LEAK = 'POST https://internal.example/v1?key=sk-live-ABC123 failed: {"upstream":"quota of org-7"}'
SECRETS = ("sk-live", "https://", "internal.example", "upstream", "org-7")


def _boom(_: int) -> int:
    raise ValueError(LEAK)


class _Leaky:
    def __repr__(self) -> str:
        return "Leaky(key='sk-live-XYZ', url='https://internal.example')"


def _sync_bytes(chain: RunnableLambda[int, object]) -> tuple[bytes, BaseException | None]:
    frames: list[bytes] = []
    try:
        for frame in chain.stream_events(1, version="v2", encoding="text/event-stream"):
            frames.append(frame)
    except Exception as error:
        return b"".join(frames), error
    return b"".join(frames), None


def _async_bytes(chain: RunnableLambda[int, object]) -> tuple[bytes, BaseException | None]:
    async def main() -> tuple[bytes, BaseException | None]:
        frames: list[bytes] = []
        try:
            async for frame in chain.astream_events(1, version="v2", encoding="text/event-stream"):
                frames.append(frame)
        except Exception as error:
            return b"".join(frames), error
        return b"".join(frames), None

    return asyncio.run(main())


ENCODERS: list[Callable[[RunnableLambda[int, object]], tuple[bytes, BaseException | None]]] = [
    _sync_bytes,
    _async_bytes,
]


def _assert_clean(raw: bytes) -> None:
    text = raw.decode("utf-8")
    for secret in SECRETS:
        assert secret not in text, (secret, text)


@pytest.mark.parametrize("encode", ENCODERS)
def test_error_event_names_type_with_safe_message(encode: Callable[..., tuple[bytes, BaseException | None]]) -> None:
    raw, raised = encode(RunnableLambda(_boom))
    assert isinstance(raised, ValueError)  # in-process, the caller still gets the exception itself
    _assert_clean(raw)
    events = [json.loads(line[6:]) for line in raw.decode().splitlines() if line.startswith("data: ")]
    assert [e["event"] for e in events] == ["on_chain_start", "on_chain_error"]
    assert events[1]["data"]["error"] == {
        "type": "error",
        "error_type": "ValueError",
        "message": "Internal Server Error",
    }


@pytest.mark.parametrize("encode", ENCODERS)
def test_exception_inside_a_value_is_scrubbed(encode: Callable[..., tuple[bytes, BaseException | None]]) -> None:
    raw, raised = encode(RunnableLambda(lambda _: {"e": ValueError(LEAK), "n": 1}))
    assert raised is None
    _assert_clean(raw)
    events = list(parse_event_stream([raw]))
    end = events[-1]
    assert isinstance(end, dict) and end["event"] == "on_chain_end"
    assert end["data"] == {
        "output": {"e": {"type": "error", "error_type": "ValueError", "message": "Internal Server Error"}, "n": 1}
    }


@pytest.mark.parametrize("encode", ENCODERS)
def test_object_without_json_form_ends_with_an_error_naming_its_type(
    encode: Callable[..., tuple[bytes, BaseException | None]],
) -> None:
    raw, raised = encode(RunnableLambda(lambda _: {"client": _Leaky()}))
    assert raised is None
    _assert_clean(raw)
    assert "Leaky(" not in raw.decode()
    frames = raw.split(b"\n\n")
    assert frames[-1] == b""
    last = frames[-2]
    assert last.startswith(b"event: error\ndata: ")
    info = json.loads(last.split(b"data: ", 1)[1])
    assert info["type"] == "OutputNotEncodable"
    assert info["status_code"] == 500 and info["retryable"] is False
    assert "_Leaky" in info["message"]
    # The start event (no such object in it) went out as before; nothing follows the error.
    assert frames[0].startswith(b"event: data\n")
    assert b"event: end" not in raw


@pytest.mark.parametrize("encode", ENCODERS)
def test_plain_values_frames_unchanged(encode: Callable[..., tuple[bytes, BaseException | None]]) -> None:
    chain = RunnableLambda(lambda x: {"n": x, "s": "é", "l": [1.5, None, True]})
    raw, raised = encode(chain)
    assert raised is None
    events = list(chain.stream_events(1, version="v2"))
    frames = raw.split(b"\n\n")
    assert frames[-2:] == [b"event: end", b""]
    data = frames[:-2]
    assert len(data) == len(events) == 3
    for frame, event in zip(data, events, strict=True):
        got: object = json.loads(frame.split(b"data: ", 1)[1])
        want = to_jsonable(event)
        assert is_dict(got) and is_dict(want)
        assert {k: v for k, v in got.items() if k != "run_id"} == {k: v for k, v in want.items() if k != "run_id"}
        assert frame.startswith(b"event: data\ndata: {")
    # Byte for byte what the plain JSON form gives, for a fixed event.
    fixed = {"event": "on_chain_end", "data": {"output": {"n": 1, "s": "é"}}}
    from effects.projections import encode_sse_event

    assert encode_sse_event(fixed) == b"event: data\ndata: " + compact_json(to_jsonable(fixed)).encode() + b"\n\n"
