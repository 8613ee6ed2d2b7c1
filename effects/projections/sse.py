"""``text/event-stream`` bytes for an event stream, and a parser that reads them back.

Framing as LangChain.js's ``streamEvents(..., {encoding: "text/event-stream"})``: each
event is ``event: data\\ndata: <one-line JSON>\\n\\n`` (UTF-8), then one terminal
``event: end\\n\\n``; no ids, retries or comments. The JSON is the event's
``to_jsonable`` form, compact and strict (no NaN); objects appear in that form, not in
the JS peer's ``{"lc": 1, "type": "constructor", ...}`` form.

These bytes are what a web handler serves, so they carry the served routes' safe forms,
never an exception's text or a ``repr``: an exception (an ``on_*_error`` event's
``error``, or one inside a value) is written as its type and a fixed message
(``safe_error_form``; a service error's public type and its library-built message), and
an event holding an object with no JSON form (nor one nested too deep, or in a
reference cycle) ends the stream with an ``event: error`` frame naming only its type
(``OutputNotEncodable``), as a served stream does. Plain values are unchanged.

The same frames carry the serving protocol (``metadata``, ``data``, ``error``, ``end``
and ``: ping`` comments): ``sse_frame`` writes any of them and ``SseFrameParser`` reads
them back, so one encoder serves both.

>>> frames = list(encode_event_stream([{"event": "on_chain_start", "data": {"input": "é"}}]))
>>> frames
[b'event: data\\ndata: {"event":"on_chain_start","data":{"input":"\\xc3\\xa9"}}\\n\\n', b'event: end\\n\\n']
>>> list(parse_event_stream(frames))
[{'event': 'on_chain_start', 'data': {'input': 'é'}}]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Final, final

import attrs

from effects.projections.jsonable import JsonValue, to_jsonable
from effects.guards import checked, is_a


def compact_json(value: JsonValue) -> str:
    """The one-line, compact, strict JSON text that frames carry.

    >>> compact_json({"a": [1, None], "b": "é"})
    '{"a":[1,null],"b":"é"}'
    """
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def sse_frame(event: str, data: str | None = None) -> bytes:
    """One frame: ``event: <event>``, then a ``data:`` line when ``data`` (one-line text) is given.

    >>> sse_frame("metadata", '{"run_id":"r1"}')
    b'event: metadata\\ndata: {"run_id":"r1"}\\n\\n'
    >>> sse_frame("end")
    b'event: end\\n\\n'
    """
    if data is None:
        return b"event: " + event.encode("utf-8") + b"\n\n"
    return b"event: " + event.encode("utf-8") + b"\ndata: " + data.encode("utf-8") + b"\n\n"


def sse_comment(text: str) -> bytes:
    """A comment line (readers skip it; it keeps idle connections open).

    >>> sse_comment("ping")
    b': ping\\n\\n'
    """
    return b": " + text.encode("utf-8") + b"\n\n"


SSE_END: Final = sse_frame("end")
"""The frame that closes the stream."""


SAFE_ERROR_MESSAGE: Final = "Internal Server Error"
"""The message an exception is sent with: never its own text (the served routes' default)."""

NOT_ENCODABLE: Final = "OutputNotEncodable"
"""The type of the error frame that ends a stream whose event has no JSON form."""


def safe_error_form(error: BaseException) -> JsonValue:
    """An exception as a client may see it: its type's name and ``SAFE_ERROR_MESSAGE``.

    An exception with a ``public_type`` (the service errors) is named by it.

    >>> safe_error_form(ValueError("GET https://internal/x?key=sk-live-1 failed"))
    {'type': 'error', 'error_type': 'ValueError', 'message': 'Internal Server Error'}
    """
    public = getattr(error, "public_type", None)
    kind = public if isinstance(public, str) and public else type(error).__name__
    return {"type": "error", "error_type": kind, "message": SAFE_ERROR_MESSAGE}


@final
class EventNotEncodable(Exception):
    """An event that cannot be sent: it holds a value with no JSON form (named by its type
    only), nests too deep or holds a reference cycle; ``frame`` is the error frame to send.

    >>> EventNotEncodable("it is nested too deep").frame.split(b"\\n")[0]
    b'event: error'
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        info: JsonValue = {
            "status_code": 500,
            "type": NOT_ENCODABLE,
            "message": f"the output could not be sent as JSON: {reason}",
            "retryable": False,
        }
        self.frame = sse_frame("error", compact_json(info))


@final
class EventStreamFailed(Exception):
    """The ``event: error`` frame that ended a ``text/event-stream`` (what
    ``EventNotEncodable`` sends): ``info`` holds its fields (status, type, message).

    >>> EventStreamFailed({"type": "OutputNotEncodable", "message": "it holds a Leaky"})
    EventStreamFailed('OutputNotEncodable: it holds a Leaky')
    """

    def __init__(self, info: JsonValue) -> None:
        fields = info if isinstance(info, dict) else {}
        super().__init__(f"{fields.get('type', 'error')}: {fields.get('message', '')}")
        self.info = info


class _NoForm(Exception):
    def __init__(self, value: object) -> None:
        super().__init__(type(value).__name__)
        self.type_name = type(value).__name__


def _other_form(value: object) -> JsonValue:
    dump = getattr(type(value), "model_dump", None)
    if dump is not None and hasattr(type(value), "model_fields"):  # a pydantic model: its fields
        return to_jsonable(dump(value, mode="json"), error_form=safe_error_form, other_form=_other_form)
    raise _NoForm(value)


def safe_jsonable(event: object) -> JsonValue:
    """``to_jsonable(event)`` with exceptions in ``safe_error_form`` and no ``repr``
    anywhere; raises ``EventNotEncodable`` for a value it cannot send.

    >>> safe_jsonable({"e": KeyError("sk-1")})
    {'e': {'type': 'error', 'error_type': 'KeyError', 'message': 'Internal Server Error'}}
    >>> safe_jsonable([object()])
    Traceback (most recent call last):
    ...
    effects.projections.sse.EventNotEncodable: it holds a object, which has no JSON form
    """
    try:
        return to_jsonable(event, error_form=safe_error_form, other_form=_other_form)
    except _NoForm as error:
        raise EventNotEncodable(f"it holds a {error.type_name}, which has no JSON form") from None
    except RecursionError:
        raise EventNotEncodable("it is nested too deep") from None
    except ValueError:
        raise EventNotEncodable("it holds a reference cycle") from None


def encode_sse_event(event: object) -> bytes:
    """One ``event: data`` frame for an event (any value; it is sent in its JSON form,
    ``safe_jsonable``'s); raises ``EventNotEncodable`` for one that cannot be sent.

    >>> encode_sse_event({"a": [1, None]})
    b'event: data\\ndata: {"a":[1,null]}\\n\\n'
    """
    text = compact_json(safe_jsonable(event))
    try:
        return sse_frame("data", text)
    except UnicodeEncodeError:
        raise EventNotEncodable("it holds a lone surrogate (\\ud800-\\udfff)") from None


def encode_event_stream(events: Iterable[object]) -> Iterator[bytes]:
    """One frame per event, then ``SSE_END``; an event that cannot be sent
    (``EventNotEncodable``) ends the stream with its ``event: error`` frame instead.

    >>> list(encode_event_stream([]))
    [b'event: end\\n\\n']
    >>> list(encode_event_stream([1, object(), 2]))[1].split(b"\\n")[0]
    b'event: error'
    """
    for event in events:
        try:
            frame = encode_sse_event(event)
        except EventNotEncodable as error:
            yield error.frame
            return
        yield frame
    yield SSE_END


@final
@attrs.frozen
class SseFrame:
    """One frame as read: its ``event`` name (``None`` when it had none) and its ``data`` text.

    >>> SseFrame("end", None)
    SseFrame(event='end', data=None)
    """

    event: str | None
    data: str | None
    """The ``data:`` lines joined with ``\\n``; ``None`` when the frame had none."""


@final
class SseFrameParser:
    """Reads ``text/event-stream`` bytes, in chunks cut anywhere, into frames.

    Follows the SSE line rules: ``\\n``, ``\\r\\n`` or ``\\r`` end a line, a blank
    line ends a frame, ``data:`` lines are joined with ``\\n``, comment lines (``:``)
    and fields other than ``event`` and ``data`` are ignored.

    >>> parser = SseFrameParser()
    >>> parser.feed(b"event: metadata\\r\\ndata: {}\\r\\n\\r\\n: ping\\n\\nevent: e")
    [SseFrame(event='metadata', data='{}')]
    >>> parser.feed(b"nd\\n\\n")
    [SseFrame(event='end', data=None)]
    """

    __slots__ = ("_buffer", "_event", "_data", "_pending_cr")

    def __init__(self) -> None:
        self._buffer = b""
        self._event: str | None = None
        self._data: list[str] | None = None
        self._pending_cr = False

    def feed(self, chunk: bytes) -> list[SseFrame]:
        """The frames completed by this chunk of bytes.

        >>> SseFrameParser().feed("event: data")
        Traceback (most recent call last):
        ...
        TypeError: SseFrameParser.feed expects bytes, got str
        """
        if not is_a(chunk, (bytes, bytearray, memoryview)):  # callers may ignore the types
            raise TypeError(f"SseFrameParser.feed expects bytes, got {type(chunk).__name__}")
        data = bytes(chunk)
        if self._pending_cr and data.startswith(b"\n"):
            data = data[1:]  # the second half of a \r\n cut between chunks
        self._pending_cr = data.endswith(b"\r")
        buffer = self._buffer + data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        *lines, self._buffer = buffer.split(b"\n")
        frames: list[SseFrame] = []
        for line in lines:
            frame = self._line(line)
            if frame is not None:
                frames.append(frame)
        return frames

    @property
    def pending(self) -> bool:
        """Whether bytes of an unfinished frame are waiting for more.

        >>> parser = SseFrameParser()
        >>> _ = parser.feed(b"event: end")
        >>> parser.pending
        True
        """
        return bool(self._buffer.strip()) or self._event is not None or self._data is not None

    def _line(self, raw: bytes) -> SseFrame | None:
        if not raw:
            event, data = self._event, self._data
            self._event, self._data = None, None
            if event is None and data is None:
                return None  # a stray blank line, or the end of a comment
            return SseFrame(event, None if data is None else "\n".join(data))
        line = raw.decode("utf-8")
        if line.startswith(":"):
            return None
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            if self._data is None:
                self._data = []
            self._data.append(value)
        return None


@final
class SseParser:
    """Reads ``text/event-stream`` bytes, in chunks cut anywhere, back into JSON events.

    The frames are read as ``SseFrameParser`` reads them; ``data`` frames (or frames
    without an event name) give their JSON; the ``end`` frame ends the stream, and an
    ``error`` frame ends it by raising ``EventStreamFailed``.

    >>> parser = SseParser()
    >>> parser.feed(b"event: data\\nda") + parser.feed(b"ta: [1]\\n\\nevent: end\\n\\n")
    [[1]]
    >>> parser.ended
    True
    """

    __slots__ = ("_frames", "_ended")

    def __init__(self) -> None:
        self._frames = SseFrameParser()
        self._ended = False

    @property
    def ended(self) -> bool:
        """Whether the ``end`` frame has been read.

        >>> SseParser().ended
        False
        """
        return self._ended

    def feed(self, chunk: bytes) -> list[JsonValue]:
        """The events completed by this chunk of bytes.

        >>> SseParser().feed("event: data")
        Traceback (most recent call last):
        ...
        TypeError: SseParser.feed expects bytes, got str
        """
        checked(chunk, (bytes, bytearray, memoryview), "SseParser.feed expects bytes")
        if self._ended:
            if bytes(chunk).strip():
                raise ValueError("text/event-stream has data after its 'end' frame")
            return []
        out: list[JsonValue] = []
        for frame in self._frames.feed(chunk):
            if self._ended:
                raise ValueError("text/event-stream has data after its 'end' frame")
            if frame.event == "end":
                self._ended = True
                continue
            if frame.event == "error":  # the stream ends with it; the events before it stand
                self._ended = True
                raise EventStreamFailed(_decoded(frame.data))
            out.append(_frame_json(frame))
        if self._ended and self._frames.pending:
            raise ValueError("text/event-stream has data after its 'end' frame")
        return out

    def close(self) -> None:
        """Check that the stream ended properly; raise ``ValueError`` if it did not.

        >>> SseParser().close()
        Traceback (most recent call last):
        ...
        ValueError: text/event-stream ended without its 'end' frame
        """
        if not self._ended:
            raise ValueError("text/event-stream ended without its 'end' frame")


def _frame_json(frame: SseFrame) -> JsonValue:
    if frame.event not in (None, "data"):
        raise ValueError(
            f"text/event-stream frame has unknown event {frame.event!r}; expected 'data', 'end' or 'error'"
        )
    return _decoded(frame.data)


def _decoded(data: str | None) -> JsonValue:
    text = data or ""
    try:
        decoded: JsonValue = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"text/event-stream data is not JSON: {text[:200]!r}") from error
    return decoded


def parse_event_stream(chunks: Iterable[bytes]) -> Iterator[JsonValue]:
    """The JSON events in a ``text/event-stream``; ``ValueError`` if it is malformed or cut short,
    ``EventStreamFailed`` (after the events before it) if it ends with an ``error`` frame.

    >>> list(parse_event_stream([b"event: data\\r\\ndata: 1\\r", b"\\n\\r\\nevent: end\\n\\n"]))
    [1]
    """
    parser = SseParser()
    for chunk in chunks:
        yield from parser.feed(chunk)
    parser.close()
