"""Partial JSON: the value of JSON text that is still arriving.

A model streams JSON a few characters at a time; ``parse_partial_json`` gives the value
the text would have if it stopped here: unterminated strings, arrays and objects are
closed, and trailing pieces that cannot be closed yet (a key without its value, ``tru``,
``1e``) are left out. For text that is a prefix of valid JSON the result is the peer's
(langchain-core ``parse_partial_json``) result exactly, checked by a differential fuzz.

>>> parse_partial_json('{"b": "xy')
{'b': 'xy'}
>>> parse_partial_json('{"a": [1, 2')
{'a': [1, 2]}
>>> parse_json_markdown('```json\\n{"a": 1}\\n```')
{'a': 1}

Malformed text (deliberately simpler than the peer, whose repair loop answers by
accident): the value is the value of the text before the first error, ``None`` if a
closing bracket anywhere matches no opener (as the peer), and ``json.JSONDecodeError``
if there is no value at all. Text after a complete value is ignored.

Cost: ``PartialJsonReader.feed`` does Python work proportional to the new chunk only
(strings are skipped with a regex); ``value()`` copies only the containers still open
and decodes the string still open, reusing every completed sub-value. Streaming n
chunks is therefore linear in Python work; only the C-level copies of open containers
grow with the value. The peer re-parses all text so far for every chunk (quadratic).
Consequence: successive values share completed sub-values; treat them as read-only.
The scanner itself is in ``json_scanner``.
"""

from __future__ import annotations

import json
from typing import Final, cast, final

import jsonpatch

from combinators.components.partial_json.scanner import Scanner
from combinators.components.partial_json.marks import MAX_DEPTH, NO_VALUE, Mark, NoValue, Outcome
from combinators.components.partial_json.marks import JsonContainer as JsonContainer
from combinators.components.partial_json.marks import JsonValue as JsonValue
from effects.authoring import checked


_STRIPPED_AT_ENDS: Final = frozenset(" \n\r\t`")


def _held_back(char: str) -> bool:
    # The peer strips whitespace and backticks from both ends of the text before parsing.
    return char in _STRIPPED_AT_ENDS or char.isspace()


@final
class _Stripped:
    """Feeds a scanner the text without its leading and trailing whitespace/backticks."""

    __slots__ = ("scanner", "_leading", "_lead_set", "_pending")

    def __init__(self, *, lead_unicode_space: bool) -> None:
        self.scanner = Scanner()
        self._leading = True
        self._lead_set = lead_unicode_space
        self._pending: list[str] = []  # trailing characters that may yet be stripped

    def feed(self, chunk: str) -> None:
        if self._leading:
            start = 0
            while start < len(chunk) and (
                chunk[start] in _STRIPPED_AT_ENDS or (self._lead_set and chunk[start].isspace())
            ):
                start += 1
            chunk = chunk[start:]
            if not chunk:
                return
            self._leading = False
        end = len(chunk)
        while end > 0 and _held_back(chunk[end - 1]):
            end -= 1
        if end == 0:
            self._pending.append(chunk)
            return
        if self._pending:
            self.scanner.feed("".join(self._pending))
            self._pending = []
        self.scanner.feed(chunk[:end])
        if end < len(chunk):
            self._pending.append(chunk[end:])


@final
class PartialJsonReader:
    """Reads JSON text chunk by chunk; ``value()`` is the value of all text so far.

    With ``markdown=True`` it follows ``parse_json_markdown``: surrounding whitespace and
    backticks are stripped, and if that is not JSON the text after the first fence
    (```` ``` ```` then an optional ``json``) is read instead. ``value()`` is ``None``
    while nothing can be parsed yet. Each ``feed`` costs time in the chunk's length.

    >>> reader = PartialJsonReader(markdown=True)
    >>> for chunk in ['```json\\n', '{"a"', ': [1', ', 2]}\\n```']:
    ...     reader.feed(chunk)
    ...     print(reader.value())
    None
    {}
    {'a': [1]}
    {'a': [1, 2]}
    """

    __slots__ = ("_plain", "_primary", "_tail", "_fence_found", "_tag", "_fenced")

    def __init__(self, *, markdown: bool = False) -> None:
        self._plain = None if markdown else Scanner()
        self._primary = _Stripped(lead_unicode_space=True) if markdown else None
        self._tail = ""  # the last characters seen, to find a fence split across chunks
        self._fence_found = False
        self._tag = ""  # text after the fence while it may still become "json"
        self._fenced: _Stripped | None = None

    def feed(self, chunk: str) -> None:
        """Read the next chunk of text."""
        checked(chunk, str, "PartialJsonReader.feed expects str chunks")
        if self._plain is not None:
            self._plain.feed(chunk)
            return
        assert self._primary is not None
        self._primary.feed(chunk)
        self._feed_fenced(chunk)

    def _feed_fenced(self, chunk: str) -> None:
        if self._fenced is not None:
            self._fenced.feed(chunk)
            return
        if not self._fence_found:
            seen = self._tail + chunk
            at = seen.find("```")
            if at < 0:
                self._tail = seen[-2:]
                return
            self._fence_found = True
            chunk = seen[at + 3 :]
        self._tag += chunk
        if len(self._tag) < 4 and "json".startswith(self._tag):
            return  # may still become the "json" tag, which the peer skips
        rest = self._tag[4:] if self._tag.startswith("json") else self._tag
        self._tag = ""
        self._fenced = _Stripped(lead_unicode_space=False)
        self._fenced.feed(rest)

    def _outcome(self) -> Outcome:
        if self._plain is not None:
            return self._plain.outcome()
        if self._primary is not None:
            first = self._primary.scanner.outcome()
            if not isinstance(first, NoValue):
                return first
        if self._fenced is None:
            return NO_VALUE
        return self._fenced.scanner.outcome()

    def mark(self) -> Mark | None:
        """The value of the text so far as a ``Mark`` (no copy), or ``None`` when ``value()`` is.

        >>> reader = PartialJsonReader()
        >>> reader.feed('[1, 2')
        >>> reader.mark().levels[0][1]
        1
        """
        if self._plain is not None:
            mark = self._plain.mark()
        else:
            assert self._primary is not None
            mark = self._primary.scanner.mark()
            if not mark.has_value:
                if self._fenced is None:
                    return None
                mark = self._fenced.scanner.mark()
        if not mark.has_value or (not mark.levels and mark.leaf is None):
            return None
        return mark

    def repeats_a_key(self) -> bool:
        """Whether the text read so far repeats a key inside one object (a later entry
        then replaces an earlier one, as in Python's json).

        >>> reader = PartialJsonReader()
        >>> reader.feed('{"a": [1], "a"')
        >>> reader.repeats_a_key(), reader.value()
        (True, {'a': [1]})
        """
        if self._plain is not None:
            return self._plain.rewrites > 0
        assert self._primary is not None
        return self._primary.scanner.rewrites > 0 or (self._fenced is not None and self._fenced.scanner.rewrites > 0)

    def value(self) -> JsonValue:
        """The value of the text so far, or ``None`` if there is none (yet)."""
        outcome = self._outcome()
        return None if isinstance(outcome, NoValue) else outcome

    def result(self) -> JsonValue:
        """The value of the text so far; ``json.JSONDecodeError`` if there is none.

        >>> reader = PartialJsonReader()
        >>> reader.feed("tr")
        >>> reader.result()
        Traceback (most recent call last):
        json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
        """
        outcome = self._outcome()
        if isinstance(outcome, NoValue):
            raise json.JSONDecodeError("Expecting value", "", 0)
        return outcome


def _no_value_error(text: str) -> json.JSONDecodeError:
    stripped = len(text) - len(text.lstrip())
    return json.JSONDecodeError("Expecting value", text, stripped)


_LENIENT: Final = json.JSONDecoder(strict=False)
"""``json.loads(text, strict=False)`` without a new decoder per call."""


def parse_partial_json(text: str) -> JsonValue:
    """Parse JSON that may be cut short, closing what is still open.

    Returns ``None`` when a closing bracket matches no opener (as the peer does) and
    raises ``json.JSONDecodeError`` when the text holds no value at all.

    >>> parse_partial_json('[1, 2.')
    [1, 2]
    >>> parse_partial_json('{"a": tru')
    {}
    >>> parse_partial_json('{"a": 1}}') is None
    True
    """
    checked(text, str, "parse_partial_json expects a str")
    if text.count("[") + text.count("{") <= MAX_DEPTH:  # json recurses once per level: only then
        try:
            return cast(JsonValue, _LENIENT.decode(text))
        except json.JSONDecodeError:
            pass
    scanner = Scanner()
    scanner.feed(text)
    outcome = scanner.outcome()
    if isinstance(outcome, NoValue):
        raise _no_value_error(text)
    return outcome


def parse_json_markdown(text: str) -> JsonValue:
    """Parse (partial) JSON that may sit in a markdown code fence.

    Surrounding whitespace and backticks are stripped; if the rest is not JSON, the
    text after the first ```` ``` ```` (and an optional ``json`` tag) is parsed instead.

    >>> parse_json_markdown('Here you go: ```json\\n[1, 2')
    [1, 2]
    >>> parse_json_markdown('  {"a": "hello  ')
    {'a': 'hello'}
    """
    checked(text, str, "parse_json_markdown expects a str")
    reader = PartialJsonReader(markdown=True)
    reader.feed(text)
    try:
        return reader.result()
    except json.JSONDecodeError:
        raise _no_value_error(text) from None


def json_diff(previous: object, current: object) -> list[dict[str, object]]:
    """The JSON Patch (RFC 6902) operations that turn ``previous`` into ``current``.

    From ``None`` the first operation replaces the root, as the peer's diff mode shows.

    >>> json_diff(None, {})
    [{'op': 'replace', 'path': '', 'value': {}}]
    >>> json_diff({"a": [1]}, {"a": [1, 2]})
    [{'op': 'add', 'path': '/a/1', 'value': 2}]
    """
    return jsonpatch.make_patch(previous, current).patch
