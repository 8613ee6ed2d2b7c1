"""The incremental JSON scanner under ``partial_json``: the value of text read so far.

``Scanner.feed`` reads more text; ``Scanner.outcome()`` is the value the text would
have if it stopped here (open strings, arrays and objects closed; trailing pieces that
cannot be closed yet left out), ``None`` after a closer that matches no opener, or
``NO_VALUE`` when there is none. Python work is proportional to the new text only.

>>> scanner = Scanner()
>>> scanner.feed("[1, tr")
>>> scanner.outcome()
[1]
"""

from __future__ import annotations

import re
from typing import Final, final

from combinators.components.partial_json.marks import decodable_length, decode_string, number
from combinators.components.partial_json.marks import (
    MAX_DEPTH,
    NO_VALUE,
    JsonContainer,
    JsonTooDeepError,
    JsonValue,
    Mark,
    NoValue,
    Outcome,
)

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


@final
class Scanner:
    """An incremental JSON reader that builds the value as it goes.

    >>> scanner = Scanner()
    >>> scanner.feed('{"a": [1, "x')
    >>> scanner.outcome()
    {'a': [1, 'x']}
    >>> scanner.feed('"]}')
    >>> scanner.outcome()
    {'a': [1, 'x']}
    """

    __slots__ = (
        "_containers", "_keys", "_expect", "_status", "_top", "_frozen",
        "_token", "_str_parts", "_str_decoded", "_str_is_key", "_escape",
        "_num", "_num_state", "_num_valid", "_lit_word", "_lit_value", "_lit_pos",
        "_stack", "_low", "_in_string", "_escaped", "_closed_at_error", "_rewrites",
        "_keys_seen",
    )  # fmt: skip

    def __init__(self) -> None:
        self._containers: list[JsonContainer] = []
        self._keys: list[str | None] = []
        self._expect = _VALUE
        self._status = _RUNNING
        self._top: JsonValue = None
        self._frozen: Outcome = NO_VALUE  # the value at an error
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
        self._closed_at_error: tuple[int, Outcome] | None = None  # outcome() for the last _low
        self._rewrites = 0  # keys read that the open object already had
        # One object per distinct key, as Python's json does: a long list of records
        # holds each key once, and comparing two of its values finds keys by identity.
        self._keys_seen: dict[str, str] = {}

    def mark(self) -> Mark:
        """The value of the text so far, as a ``Mark`` (no copy made)."""
        if self._status == _RUNNING:
            keys = self._keys
            levels = tuple([(container, len(container), keys[i]) for i, container in enumerate(self._containers)])
            return Mark(levels, self._partial_token(at_error=False), self, self._rewrites)
        return Mark((), self.outcome(), self, self._rewrites)

    @property
    def rewrites(self) -> int:
        """How many keys read so far repeat one their object already had."""
        return self._rewrites

    # -- results -------------------------------------------------------------------

    def outcome(self) -> Outcome:
        """The value of the text so far, ``None`` after a mismatch, or no value."""
        status = self._status
        if status == _DONE:
            return self._top
        if status == _ERROR:
            if self._low == len(self._containers):
                return self._frozen
            # The text after the error closed containers that were open at it: the
            # document is complete but malformed, so keep only what came before them.
            # Cached: the same value object while nothing changes.
            if self._closed_at_error is None or self._closed_at_error[0] != self._low:
                self._closed_at_error = (self._low, self._nest(self._low, NO_VALUE))
            return self._closed_at_error[1]
        if status == _MISMATCH:
            return None
        return self._snapshot(at_error=False)

    def _partial_token(self, *, at_error: bool) -> Outcome:
        token = self._token
        if token == _STRING and not self._str_is_key:
            # The peer drops a string cut inside a \u escape, or broken by an error.
            if at_error:
                return NO_VALUE
            decoded, held = self._decode_open_string()
            if self._escape >= 2:
                return NO_VALUE
            if self._escape == 1:  # a lone trailing backslash is left out
                held = held[:-1]
            return decoded + decode_string(held) if held else decoded
        if token == _NUMBER and self._num_valid:
            return number("".join(self._num[: self._num_valid]))
        return NO_VALUE

    def _decode_open_string(self) -> tuple[str, str]:
        """Decode the raw text read since the last call; return (decoded, held back raw).

        Decoding only new text keeps a long streamed string linear. Held back: an
        unfinished escape, or a high surrogate escape that the next one may pair with.
        """
        raw = "".join(self._str_parts)
        cut = decodable_length(raw, self._escape)
        if cut:
            self._str_decoded.append(decode_string(raw[:cut]))
        held = raw[cut:]
        self._str_parts = [held] if held else []
        decoded = "".join(self._str_decoded)
        self._str_decoded = [decoded] if decoded else []
        return decoded, held

    def _snapshot(self, *, at_error: bool) -> Outcome:
        return self._nest(len(self._containers), self._partial_token(at_error=at_error))

    def _nest(self, depth: int, child: Outcome) -> Outcome:
        """Copies of the ``depth`` outer open containers, with ``child`` in the innermost."""
        # Only open containers are copied; completed children are shared, never mutated.
        for index in range(depth - 1, -1, -1):
            container = self._containers[index]
            copy = container.copy()
            if not isinstance(child, NoValue):
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
            if key in container:
                # A repeated key rewrites an entry: write to a copy, so marks taken
                # before still see the value they saw.
                container = self._containers[-1] = container.copy()
                self._rewrites += 1
            container[key] = value
            self._keys[-1] = None
        self._expect = _COMMA_OR_CLOSE

    def _open(self, container: JsonContainer) -> None:
        if len(self._containers) >= MAX_DEPTH:
            raise JsonTooDeepError
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
                if self._readnumber(char):
                    i += 1
                    continue
                if self._status != _RUNNING:
                    continue  # an error: the bracket tracker re-reads this char
                self._complete(number("".join(self._num)))
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
            value = "".join(self._str_decoded) + decode_string("".join(self._str_parts))
            if self._str_is_key:
                value = self._keys_seen.setdefault(value, value)
                self._token = _NONE
                self._keys[-1] = value
                self._expect = _COLON
                if value in self._containers[-1]:
                    self._rewrites += 1
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

    def _readnumber(self, char: str) -> bool:
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
