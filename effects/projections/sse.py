"""``text/event-stream`` bytes for an event stream, and a parser that reads them back.

Framing as LangChain.js's ``streamEvents(..., {encoding: "text/event-stream"})``: each
event is ``event: data\\ndata: <one-line JSON>\\n\\n`` (UTF-8), then one terminal
``event: end\\n\\n``; no ids, retries or comments. The JSON is the event's
``to_jsonable`` form, compact and strict (no NaN); objects appear in that form, not in
the JS peer's ``{"lc": 1, "type": "constructor", ...}`` form.

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

from effects.projections.jsonable import JsonValue, to_jsonable

SSE_END: Final = b"event: end\n\n"
"""The frame that closes the stream."""

_DATA_PREFIX: Final = b"event: data\ndata: "


def encode_sse_event(event: object) -> bytes:
    """One ``event: data`` frame for an event (any value; it is sent in its JSON form).

    >>> encode_sse_event({"a": [1, None]})
    b'event: data\\ndata: {"a":[1,null]}\\n\\n'
    """
    text = json.dumps(to_jsonable(event), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _DATA_PREFIX + text.encode("utf-8") + b"\n\n"


def encode_event_stream(events: Iterable[object]) -> Iterator[bytes]:
    """One frame per event, then ``SSE_END``.

    >>> list(encode_event_stream([]))
    [b'event: end\\n\\n']
    """
    for event in events:
        yield encode_sse_event(event)
    yield SSE_END


@final
class SseParser:
    """Reads ``text/event-stream`` bytes, in chunks cut anywhere, back into JSON events.

    Follows the SSE line rules that matter here: ``\\n``, ``\\r\\n`` or ``\\r`` end a
    line, a blank line ends a frame, ``data:`` lines are joined with ``\\n``, comment
    lines (``:``) and other fields are ignored. ``data`` frames give their JSON;
    the ``end`` frame ends the stream.

    >>> parser = SseParser()
    >>> parser.feed(b"event: data\\nda") + parser.feed(b"ta: [1]\\n\\nevent: end\\n\\n")
    [[1]]
    >>> parser.ended
    True
    """

    __slots__ = ("_buffer", "_event", "_data", "_ended", "_pending_cr")

    def __init__(self) -> None:
        self._buffer = b""
        self._event: str | None = None
        self._data: list[str] = []
        self._ended = False
        self._pending_cr = False

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
        if not isinstance(chunk, bytes | bytearray | memoryview):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may ignore the types
            raise TypeError(f"SseParser.feed expects bytes, got {type(chunk).__name__}")
        if self._ended:
            if bytes(chunk).strip():
                raise ValueError("text/event-stream has data after its 'end' frame")
            return []
        data = bytes(chunk)
        if self._pending_cr and data.startswith(b"\n"):
            data = data[1:]  # the second half of a \r\n cut between chunks
        self._pending_cr = data.endswith(b"\r")
        buffer = self._buffer + data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        *lines, self._buffer = buffer.split(b"\n")
        out: list[JsonValue] = []
        for index, line in enumerate(lines):
            if self._line(line, out):
                rest = b"\n".join([*lines[index + 1 :], self._buffer])
                self._buffer = b""
                if rest.strip():
                    raise ValueError("text/event-stream has data after its 'end' frame")
                break
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

    def _line(self, raw: bytes, out: list[JsonValue]) -> bool:
        """Take one line; True when it completed the 'end' frame."""
        if not raw:
            return self._dispatch(out)
        line = raw.decode("utf-8")
        if line.startswith(":"):
            return False
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        return False

    def _dispatch(self, out: list[JsonValue]) -> bool:
        event, data = self._event, self._data
        self._event, self._data = None, []
        if event == "end":
            self._ended = True
            return True
        if event is None and not data:
            return False  # a stray blank line
        if event not in (None, "data"):
            raise ValueError(
                f"text/event-stream frame has unknown event {event!r}; expected 'data' or 'end'"
            )
        text = "\n".join(data)
        try:
            out.append(json.loads(text))
        except json.JSONDecodeError as error:
            raise ValueError(f"text/event-stream data is not JSON: {text[:200]!r}") from error
        return False


def parse_event_stream(chunks: Iterable[bytes]) -> Iterator[JsonValue]:
    """The JSON events in a ``text/event-stream``; ``ValueError`` if it is malformed or cut short.

    >>> list(parse_event_stream([b"event: data\\r\\ndata: 1\\r", b"\\n\\r\\nevent: end\\n\\n"]))
    [1]
    """
    parser = SseParser()
    for chunk in chunks:
        yield from parser.feed(chunk)
    parser.close()
