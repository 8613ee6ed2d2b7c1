"""text/event-stream framing and its parser."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from effects.projections import (
    SSE_END,
    EventNotEncodable,
    EventStreamFailed,
    SseParser,
    encode_event_stream,
    encode_sse_event,
    parse_event_stream,
    safe_jsonable,
    stream_events_v2,
    to_jsonable,
)
from effects.effect_values import Effect
from effects.projections.sse import NOT_ENCODABLE
from tests.unit.effects.projections.script import Piece, Script, Secret
from tests.unit.effects.projections.strategies import SECRET_TEXT, effect_trees


def test_frames_are_the_js_peer_bytes() -> None:
    s = Script()
    run = s.run(0x1234, "reverse")
    s.start(run, "hello")
    s.stream(run, "olleh")
    s.end(run, "hello", "olleh")
    frames = list(encode_event_stream(stream_events_v2(s.effects)))
    assert len(frames) == 4 and frames[-1] == SSE_END == b"event: end\n\n"
    assert frames[0] == (
        b'event: data\ndata: {"event":"on_chain_start","data":{"input":"hello"},"name":"reverse",'
        b'"tags":[],"run_id":"00000000-0000-0000-0000-000000001234","metadata":{},"parent_ids":[]}\n\n'
    )
    assert all(frame.startswith(b"event: data\ndata: ") and frame.endswith(b"\n\n") for frame in frames[:-1])


def test_json_is_one_line_utf8_and_strict() -> None:
    frame = encode_sse_event({"text": "a\nb\r\u2028é", "n": float("nan"), "p": Piece("x"), "s": Secret(SECRET_TEXT)})
    body = frame[len(b"event: data\ndata: ") : -2]
    assert b"\n" not in body and b"\r" not in body
    assert json.loads(body) == {
        "text": "a\nb\r\u2028é",
        "n": "NaN",
        "p": {"type": "Piece", "text": "x"},
        "s": "**********",
    }
    assert "é".encode() in body and SECRET_TEXT.encode() not in frame


def test_parser_handles_any_split_crlf_comments_and_unknown_fields() -> None:
    stream = b': hello\r\nevent: data\r\nid: 7\r\ndata: {"a":\r\ndata: 1}\r\n\r\n\n' + SSE_END
    for cut in range(len(stream) + 1):
        assert list(parse_event_stream([stream[:cut], stream[cut:]])) == [{"a": 1}]
    one_by_one = [stream[i : i + 1] for i in range(len(stream))]
    assert list(parse_event_stream(one_by_one)) == [{"a": 1}]


@pytest.mark.parametrize(
    ("stream", "message"),
    [
        (b"event: data\ndata: 1\n\n", "ended without its 'end' frame"),
        (b"event: ping\ndata: 1\n\n" + SSE_END, "unknown event 'ping'"),
        (b"event: data\ndata: {oops\n\n" + SSE_END, "data is not JSON"),
        (SSE_END + b"event: data\ndata: 1\n\n", "data after its 'end' frame"),
    ],
)
def test_malformed_streams_raise_value_error(stream: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        list(parse_event_stream([stream[:5], stream[5:]]))


def test_parser_rejects_text() -> None:
    with pytest.raises(TypeError, match="SseParser.feed expects bytes, got str"):
        SseParser().feed("event: end\n\n")  # type: ignore[arg-type]


@given(effect_trees(), st.integers(1, 64))
def test_events_round_trip_through_sse_in_json_form(effects: list[Effect], chunk_size: int) -> None:
    events = list(stream_events_v2(effects))
    body = b"".join(encode_event_stream(events))
    pieces = [body[i : i + chunk_size] for i in range(0, len(body), chunk_size)]
    # The served form: exceptions scrubbed; an event with no JSON form ends the stream.
    expected: list[object] = []
    for event in events:
        try:
            expected.append(safe_jsonable(event))
        except EventNotEncodable as error:
            assert body.endswith(error.frame) and SSE_END not in body
            read: list[object] = []
            with pytest.raises(EventStreamFailed, match=NOT_ENCODABLE):
                read.extend(parse_event_stream(pieces))
            assert read == expected  # the events before it stand
            break
    else:
        assert list(parse_event_stream(pieces)) == expected
        plain = [to_jsonable(event) for event in events]
        if "'error_type'" not in repr(plain):  # no exception inside: the plain JSON form, unchanged
            assert expected == plain
    assert SECRET_TEXT.encode() not in body


def test_frame_parser_reads_every_protocol_frame_in_any_cut() -> None:
    from effects.projections import SseFrame, SseFrameParser, sse_comment, sse_frame

    stream = (
        sse_frame("metadata", '{"run_id":"r"}')
        + sse_comment("ping")
        + sse_frame("data", '"a"')
        + b'event: error\r\ndata: {"status_code":500}\r\n\r\n'
        + sse_frame("end")
    )
    expected = [
        SseFrame("metadata", '{"run_id":"r"}'),
        SseFrame("data", '"a"'),
        SseFrame("error", '{"status_code":500}'),
        SseFrame("end", None),
    ]
    for cut in range(len(stream) + 1):
        parser = SseFrameParser()
        assert parser.feed(stream[:cut]) + parser.feed(stream[cut:]) == expected
        assert not parser.pending


def test_an_error_frame_ends_the_parsed_stream_with_a_typed_error_after_the_events_before_it() -> None:
    # What encode_event_stream sends for an event it cannot encode: our own parser reads it
    # back as an EventStreamFailed carrying the frame's fields, keeping the events before it.
    frame = EventNotEncodable("it holds a Leaky, which has no JSON form").frame
    seen: list[object] = []
    with pytest.raises(EventStreamFailed, match="OutputNotEncodable") as caught:
        for event in parse_event_stream([b"event: data\ndata: 1\n\n", frame]):
            seen.append(event)
    assert seen == [1]
    assert caught.value.info == {
        "status_code": 500,
        "type": "OutputNotEncodable",
        "message": "the output could not be sent as JSON: it holds a Leaky, which has no JSON form",
        "retryable": False,
    }
    parser = SseParser()
    with pytest.raises(EventStreamFailed):
        parser.feed(frame)
    assert parser.ended  # nothing may follow an error frame either
