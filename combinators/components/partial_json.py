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
"""

from __future__ import annotations

import json
import re
from typing import Final, TypeAlias, cast, final

import jsonpatch

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"
"""A value as ``json.loads`` returns it."""

JsonContainer: TypeAlias = "list[JsonValue] | dict[str, JsonValue]"


@final
class _NoValue:
    """Internal marker: the text so far holds no value."""

    __slots__ = ()


_NO_VALUE: Final = _NoValue()

_Outcome: TypeAlias = "JsonValue | _NoValue"

# What the scanner expects next, in the innermost open container (or at top level).
_VALUE: Final = 0  # a value: at top level, after ':' and after ',' in an array
_VALUE_OR_CLOSE: Final = 1  # just after '['
_KEY_OR_CLOSE: Final = 2  # just after '{'
_KEY: Final = 3  # after ',' in an object
_COLON: Final = 4
_COMMA_OR_CLOSE: Final = 5

# Which token is being read.
_NONE: Final = 0
_STRING: Final = 1
_NUMBER: Final = 2
_LITERAL: Final = 3

# Where the scanner is as a whole.
_RUNNING: Final = 0
_DONE: Final = 1  # a complete top-level value was read; later text is ignored
_ERROR: Final = 2  # the text stopped being JSON; the value is frozen at the error
_MISMATCH: Final = 3  # a closer matched no opener: the value is None from now on

# Number sub-states; the accepting ones are those where the text read is a number.
_N_START, _N_SIGN, _N_ZERO, _N_INT, _N_DOT, _N_FRAC, _N_EXP, _N_EXP_SIGN, _N_EXP_DIGITS = range(9)
_N_ACCEPTING: Final = frozenset({_N_ZERO, _N_INT, _N_FRAC, _N_EXP_DIGITS})

_WS: Final = frozenset(" \t\n\r")
_DIGITS: Final = frozenset("0123456789")
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_SIMPLE_ESCAPES: Final = frozenset('"\\/bfnrt')
_STRING_RUN: Final = re.compile(r'[^"\\]+')
_WS_RUN: Final = re.compile(r"[ \t\n\r]+")
_NOT_BRACKET_RUN: Final = re.compile(r'[^"{}\[\]]+')
_LITERALS: Final[dict[str, tuple[str, JsonValue]]] = {
    "t": ("true", True),
    "f": ("false", False),
    "n": ("null", None),
    # Python's json accepts these three too, so the peer does.
    "N": ("NaN", float("nan")),
    "I": ("Infinity", float("inf")),
}
_CLOSER_OF: Final = {"[": "]", "{": "}"}
_STRING_DECODER: Final = json.JSONDecoder(strict=False)  # strict=False: raw newlines are fine
_HIGH: Final = frozenset({"d8", "d9", "da", "db"})  # \uD800-\uDBFF, the first half of a surrogate pair


def _decode(raw: str) -> str:
    """Decode the inside of a JSON string (its escapes are known to be complete)."""
    return cast(str, _STRING_DECODER.decode('"' + raw + '"'))


def _number(text: str) -> int | float:
    if "." in text or "e" in text or "E" in text:
        return float(text)
    return int(text)


@final
class _Scanner:
    """An incremental JSON reader that builds the value as it goes (internal)."""

    __slots__ = (
        "_containers", "_keys", "_expect", "_status", "_top", "_frozen",
        "_token", "_str_parts", "_str_decoded", "_str_is_key", "_escape",
        "_num", "_num_state", "_num_valid", "_lit_word", "_lit_value", "_lit_pos",
        "_stack", "_low", "_in_string", "_escaped",
    )  # fmt: skip

    def __init__(self) -> None:
        self._containers: list[JsonContainer] = []
        self._keys: list[str | None] = []
        self._expect = _VALUE
        self._status = _RUNNING
        self._top: JsonValue = None
        self._frozen: _Outcome = _NO_VALUE  # the value at an error
        self._token = _NONE
        self._str_parts: list[str] = []  # raw text of the open string not yet decoded
        self._str_decoded: list[str] = []  # its decoded beginning
        self._str_is_key = False
        self._escape = 0  # 0: none, 1: after '\', 2..5: reading the (n-2)th hex digit of \u
        self._num: list[str] = []
        self._num_state = _N_START
        self._num_valid = 0
        self._lit_word = ""
        self._lit_value: JsonValue = None
        self._lit_pos = 0
        # Bracket tracking after an error, as the peer does over the whole text.
        self._stack: list[str] = []
        self._low = 0  # the fewest brackets open since the error
        self._in_string = False
        self._escaped = False

    # -- results -------------------------------------------------------------------

    def outcome(self) -> _Outcome:
        """The value of the text so far, ``None`` after a mismatch, or no value."""
        status = self._status
        if status == _DONE:
            return self._top
        if status == _ERROR:
            if self._low == len(self._containers):
                return self._frozen
            # The text after the error closed containers that were open at it: the
            # document is complete but malformed, so keep only what came before them.
            return self._nest(self._low, _NO_VALUE)
        if status == _MISMATCH:
            return None
        return self._snapshot(at_error=False)

    def _partial_token(self, *, at_error: bool) -> _Outcome:
        token = self._token
        if token == _STRING and not self._str_is_key:
            # The peer drops a string cut inside a \u escape, or broken by an error.
            if at_error:
                return _NO_VALUE
            decoded, held = self._decode_open_string()
            if self._escape >= 2:
                return _NO_VALUE
            if self._escape == 1:  # a lone trailing backslash is left out
                held = held[:-1]
            return decoded + _decode(held) if held else decoded
        if token == _NUMBER and self._num_valid:
            return _number("".join(self._num[: self._num_valid]))
        return _NO_VALUE

    def _decode_open_string(self) -> tuple[str, str]:
        """Decode the raw text read since the last call; return (decoded, held back raw).

        Decoding only new text keeps a long streamed string linear. Held back: an
        unfinished escape, or a high surrogate escape that the next one may pair with.
        """
        raw = "".join(self._str_parts)
        escape = self._escape
        cut = len(raw) - ((1 if escape == 1 else escape) if escape else 0)
        if cut >= 6 and raw[cut - 6 : cut - 4] == "\\u" and raw[cut - 4 : cut - 2].lower() in _HIGH:
            backslashes = cut - 5 - len(raw[: cut - 5].rstrip("\\"))
            if backslashes % 2 == 1:  # an escape, not an escaped backslash then "u..."
                cut -= 6
        if cut:
            self._str_decoded.append(_decode(raw[:cut]))
        held = raw[cut:]
        self._str_parts = [held] if held else []
        decoded = "".join(self._str_decoded)
        self._str_decoded = [decoded] if decoded else []
        return decoded, held

    def _snapshot(self, *, at_error: bool) -> _Outcome:
        return self._nest(len(self._containers), self._partial_token(at_error=at_error))

    def _nest(self, depth: int, child: _Outcome) -> _Outcome:
        """Copies of the ``depth`` outer open containers, with ``child`` in the innermost."""
        # Only open containers are copied; completed children are shared, never mutated.
        for index in range(depth - 1, -1, -1):
            container = self._containers[index]
            copy = container.copy()
            if not isinstance(child, _NoValue):
                if isinstance(copy, list):
                    copy.append(child)
                else:
                    key = self._keys[index]
                    if key is not None:
                        copy[key] = child
            child = copy
        return child

    # -- building --------------------------------------------------------------------

    def _complete(self, value: JsonValue) -> None:
        self._token = _NONE
        if not self._containers:
            self._top = value
            self._status = _DONE
            return
        container = self._containers[-1]
        if isinstance(container, list):
            container.append(value)
        else:
            key = self._keys[-1]
            assert key is not None  # a value in an object always follows its key
            container[key] = value
            self._keys[-1] = None
        self._expect = _COMMA_OR_CLOSE

    def _open(self, container: JsonContainer) -> None:
        self._containers.append(container)
        self._keys.append(None)
        self._expect = _VALUE_OR_CLOSE if isinstance(container, list) else _KEY_OR_CLOSE

    def _close(self) -> None:
        container = self._containers.pop()
        self._keys.pop()
        self._complete(container)

    def _fail(self) -> None:
        """The text is not JSON from here: freeze the value, then only track brackets."""
        self._frozen = self._snapshot(at_error=True)
        self._stack = ["]" if isinstance(c, list) else "}" for c in self._containers]
        self._low = len(self._stack)
        self._in_string = self._token == _STRING
        self._escaped = self._in_string and self._escape == 1
        self._status = _ERROR

    # -- reading -------------------------------------------------------------------

    def feed(self, text: str) -> None:
        """Read more text."""
        i, n = 0, len(text)
        while i < n:
            status = self._status
            if status == _MISMATCH:
                return
            if status != _RUNNING:
                self._track(text, i)
                return
            token = self._token
            if token == _STRING:
                i = self._read_string(text, i)
                continue
            char = text[i]
            if token == _NUMBER:
                if self._read_number(char):
                    i += 1
                    continue
                if self._status != _RUNNING:
                    continue  # an error: the bracket tracker re-reads this char
                self._complete(_number("".join(self._num)))
                continue
            if token == _LITERAL:
                if char == self._lit_word[self._lit_pos]:
                    self._lit_pos += 1
                    i += 1
                    if self._lit_pos == len(self._lit_word):
                        self._complete(self._lit_value)
                else:
                    self._fail()
                continue
            if char in _WS:
                match = _WS_RUN.match(text, i)
                i = match.end() if match else i + 1
                continue
            if self._read_structural(char):
                i += 1

    def _read_structural(self, char: str) -> bool:
        """Handle one character outside any token; False if it must be re-read."""
        expect = self._expect
        if expect in (_VALUE, _VALUE_OR_CLOSE):
            if char == "[":
                self._open([])
            elif char == "{":
                self._open({})
            elif char == '"':
                self._begin_string(is_key=False)
            elif char == "-" or char in _DIGITS:
                self._token = _NUMBER
                self._num = []
                self._num_state = _N_START
                self._num_valid = 0
                return False  # the number reader takes this character
            elif char in _LITERALS:
                self._token = _LITERAL
                self._lit_word, self._lit_value = _LITERALS[char]
                self._lit_pos = 1
            elif char == "]" and expect == _VALUE_OR_CLOSE:
                self._close()
            else:
                self._fail()
                return False
            return True
        if expect in (_KEY, _KEY_OR_CLOSE):
            if char == '"':
                self._begin_string(is_key=True)
            elif char == "}" and expect == _KEY_OR_CLOSE:
                self._close()
            else:
                self._fail()
                return False
            return True
        if expect == _COLON:
            if char != ":":
                self._fail()
                return False
            self._expect = _VALUE
            return True
        # _COMMA_OR_CLOSE
        is_list = isinstance(self._containers[-1], list)
        if char == ",":
            self._expect = _VALUE if is_list else _KEY
        elif char == ("]" if is_list else "}"):
            self._close()
        else:
            self._fail()
            return False
        return True

    def _begin_string(self, *, is_key: bool) -> None:
        self._token = _STRING
        self._str_parts = []
        self._str_decoded = []
        self._str_is_key = is_key
        self._escape = 0

    def _read_string(self, text: str, i: int) -> int:
        escape = self._escape
        if escape == 0:
            match = _STRING_RUN.match(text, i)
            if match:
                self._str_parts.append(match.group())
                return match.end()
            char = text[i]
            if char == "\\":
                self._escape = 1
                self._str_parts.append(char)
                return i + 1
            # the closing quote
            value = "".join(self._str_decoded) + _decode("".join(self._str_parts))
            if self._str_is_key:
                self._token = _NONE
                self._keys[-1] = value
                self._expect = _COLON
            else:
                self._complete(value)
            return i + 1
        char = text[i]
        if escape == 1:
            if char in _SIMPLE_ESCAPES:
                self._escape = 0
            elif char == "u":
                self._escape = 2
            else:
                self._fail()
                return i
        elif char in _HEX:
            self._escape = 0 if escape == 5 else escape + 1
        else:
            self._fail()
            return i
        self._str_parts.append(char)
        return i + 1

    def _read_number(self, char: str) -> bool:
        """Extend the number with ``char``; False if the number ended before it."""
        state = self._num_state
        if char in _DIGITS:
            if state in (_N_START, _N_SIGN):
                state = _N_ZERO if char == "0" else _N_INT
            elif state == _N_ZERO:
                self._fail()  # a leading zero
                return False
            elif state == _N_DOT:
                state = _N_FRAC
            elif state in (_N_EXP, _N_EXP_SIGN):
                state = _N_EXP_DIGITS
        elif char == "-" and state == _N_START:
            state = _N_SIGN
        elif char == "." and state in (_N_ZERO, _N_INT):
            state = _N_DOT
        elif char in ("e", "E") and state in (_N_ZERO, _N_INT, _N_FRAC):
            state = _N_EXP
        elif char in ("+", "-") and state == _N_EXP:
            state = _N_EXP_SIGN
        elif char == "I" and state == _N_SIGN:
            # "-I": the literal -Infinity, which Python's json (so the peer) accepts
            self._token = _LITERAL
            self._lit_word, self._lit_value, self._lit_pos = "-Infinity", float("-inf"), 2
            return True
        elif state in _N_ACCEPTING:
            return False
        else:
            self._fail()
            return False
        self._num.append(char)
        self._num_state = state
        if state in _N_ACCEPTING:
            self._num_valid = len(self._num)
        return True

    def _track(self, text: str, i: int) -> None:
        """After an error or a complete value: only a closer that matches no opener counts."""
        n = len(text)
        stack = self._stack
        while i < n:
            if self._in_string:
                if self._escaped:
                    self._escaped = False
                    i += 1
                    continue
                match = _STRING_RUN.match(text, i)
                if match:
                    i = match.end()
                    continue
                self._escaped = text[i] == "\\"
                self._in_string = text[i] != '"'
                i += 1
                continue
            match = _NOT_BRACKET_RUN.match(text, i)
            if match:
                i = match.end()
                continue
            char = text[i]
            i += 1
            if char == '"':
                self._in_string = True
            elif char in _CLOSER_OF:
                stack.append(_CLOSER_OF[char])
            elif stack and stack[-1] == char:
                stack.pop()
                self._low = min(self._low, len(stack))
            else:
                self._status = _MISMATCH
                return


_STRIPPED_AT_ENDS: Final = frozenset(" \n\r\t`")


def _held_back(char: str) -> bool:
    # The peer strips whitespace and backticks from both ends of the text before parsing.
    return char in _STRIPPED_AT_ENDS or char.isspace()


@final
class _Stripped:
    """Feeds a scanner the text without its leading and trailing whitespace/backticks."""

    __slots__ = ("scanner", "_leading", "_lead_set", "_pending")

    def __init__(self, *, lead_unicode_space: bool) -> None:
        self.scanner = _Scanner()
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
        self._plain = None if markdown else _Scanner()
        self._primary = _Stripped(lead_unicode_space=True) if markdown else None
        self._tail = ""  # the last characters seen, to find a fence split across chunks
        self._fence_found = False
        self._tag = ""  # text after the fence while it may still become "json"
        self._fenced: _Stripped | None = None

    def feed(self, chunk: str) -> None:
        """Read the next chunk of text."""
        if not isinstance(chunk, str):  # pyright: ignore[reportUnnecessaryIsInstance] - untyped callers
            raise TypeError(f"PartialJsonReader.feed expects str chunks, got {type(chunk).__name__}")
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

    def _outcome(self) -> _Outcome:
        if self._plain is not None:
            return self._plain.outcome()
        if self._primary is not None:
            first = self._primary.scanner.outcome()
            if not isinstance(first, _NoValue):
                return first
        if self._fenced is None:
            return _NO_VALUE
        return self._fenced.scanner.outcome()

    def value(self) -> JsonValue:
        """The value of the text so far, or ``None`` if there is none (yet)."""
        outcome = self._outcome()
        return None if isinstance(outcome, _NoValue) else outcome

    def result(self) -> JsonValue:
        """The value of the text so far; ``json.JSONDecodeError`` if there is none.

        >>> reader = PartialJsonReader()
        >>> reader.feed("tr")
        >>> reader.result()
        Traceback (most recent call last):
        json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
        """
        outcome = self._outcome()
        if isinstance(outcome, _NoValue):
            raise json.JSONDecodeError("Expecting value", "", 0)
        return outcome


def _no_value_error(text: str) -> json.JSONDecodeError:
    stripped = len(text) - len(text.lstrip())
    return json.JSONDecodeError("Expecting value", text, stripped)


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
    if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance] - untyped callers
        raise TypeError(f"parse_partial_json expects a str, got {type(text).__name__}")
    try:
        return cast(JsonValue, json.loads(text, strict=False))
    except json.JSONDecodeError:
        pass
    scanner = _Scanner()
    scanner.feed(text)
    outcome = scanner.outcome()
    if isinstance(outcome, _NoValue):
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
    if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance] - untyped callers
        raise TypeError(f"parse_json_markdown expects a str, got {type(text).__name__}")
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
