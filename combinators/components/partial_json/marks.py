"""What the JSON scanner gives: a value, ``NO_VALUE`` (no value yet) or a ``Mark`` (the
value at one moment, as a view on the live containers), and its depth limit; and the
values of its tokens: strings (whole, or the part of an open one that can be decoded
already) and numbers.

>>> decode_string(r"a\\u00e9"), number("1.5"), number("-2")
('aé', 1.5, -2)
>>> raw = r"ab\\ud83d"
>>> raw[: decodable_length(raw, 0)]  # a high surrogate waits for the escape it pairs with
'ab'

>>> from combinators.components.partial_json.scanner import Scanner
>>> scanner = Scanner()
>>> scanner.feed('[1, {"a": "x')
>>> mark = scanner.mark()
>>> mark.has_value, len(mark.levels)
(True, 2)
"""

from __future__ import annotations

import json
from typing import Final, TypeAlias, cast, final

from effects.projections.jsonable import JsonValue as JsonValue  # one JSON type for the library

JsonContainer: TypeAlias = "list[JsonValue] | dict[str, JsonValue]"


@final
class NoValue:
    """The marker of "the text so far holds no value" (``NO_VALUE`` is its one instance).

    >>> from combinators.components.partial_json.scanner import Scanner
    >>> scanner = Scanner()
    >>> scanner.feed("  ")
    >>> scanner.outcome() is NO_VALUE
    True
    """

    __slots__ = ()


NO_VALUE: Final = NoValue()

Outcome: TypeAlias = "JsonValue | NoValue"

Level: TypeAlias = "tuple[JsonContainer, int, str | None]"
"""An open container as a mark saw it: the live container, its length then, and the key
awaiting a value (objects only)."""


@final
class Mark:
    """The value of the text at one moment, as a view on the scanner's live containers.

    Taking a mark copies nothing: ``levels`` are the open containers (outermost first)
    with their lengths at that moment, ``leaf`` the partial value in the innermost one
    (or the whole value when nothing is open). It stays true later because open
    containers only grow and completed values never change (``patches`` reads it).

    >>> from combinators.components.partial_json.scanner import Scanner
    >>> scanner = Scanner()
    >>> scanner.feed('{"a": [1, "x')
    >>> mark = scanner.mark()
    >>> [(length, key) for _, length, key in mark.levels], mark.leaf
    ([(0, 'a'), (1, None)], 'x')
    """

    __slots__ = ("levels", "leaf", "source", "rewrites")

    def __init__(self, levels: tuple[Level, ...], leaf: Outcome, source: object, rewrites: int = 0) -> None:
        self.levels = levels
        self.leaf = leaf
        self.source = source  # the scanner it is a view on
        self.rewrites = rewrites  # how many repeated keys the scanner had read then

    @property
    def has_value(self) -> bool:
        """Whether the text so far has a value (``None`` after a mismatch is one)."""
        return bool(self.levels) or not isinstance(self.leaf, NoValue)


MAX_DEPTH: Final = 100
"""How deeply arrays and objects may nest; deeper text raises ``JsonTooDeepError``, so no
value built here makes Python recurse near its limit (comparing, copying, validating)."""


class JsonTooDeepError(json.JSONDecodeError):
    """The JSON text nests deeper than ``MAX_DEPTH`` levels.

    >>> from combinators.components.partial_json.scanner import Scanner
    >>> scanner = Scanner()
    >>> scanner.feed("[" * (MAX_DEPTH + 1))
    Traceback (most recent call last):
    ...
    combinators.components.partial_json.marks.JsonTooDeepError: JSON nested deeper than 100 levels: line 1 column 1 (char 0)
    """

    def __init__(self) -> None:
        super().__init__(f"JSON nested deeper than {MAX_DEPTH} levels", "", 0)

    def __reduce__(self) -> tuple[type[JsonTooDeepError], tuple[()]]:
        return (type(self), ())


_STRING_DECODER: Final = json.JSONDecoder(strict=False)  # strict=False: raw newlines are fine
_HIGH: Final = frozenset({"d8", "d9", "da", "db"})  # \uD800-\uDBFF, the first half of a surrogate pair


def decode_string(raw: str) -> str:
    """Decode the inside of a JSON string (its escapes are known to be complete)."""
    return cast(str, _STRING_DECODER.decode('"' + raw + '"'))


def number(text: str) -> int | float:
    """The number a complete JSON number token stands for."""
    if "." in text or "e" in text or "E" in text:
        return float(text)
    return int(text)


def decodable_length(raw: str, escape: int) -> int:
    """How much of an open string's raw text decodes now: not an unfinished escape
    (``escape`` characters of it read, 1 for a lone backslash), nor a high surrogate
    escape that the next one may pair with."""
    cut = len(raw) - ((1 if escape == 1 else escape) if escape else 0)
    if cut >= 6 and raw[cut - 6 : cut - 4] == "\\u" and raw[cut - 4 : cut - 2].lower() in _HIGH:
        backslashes = cut - 5 - len(raw[: cut - 5].rstrip("\\"))
        if backslashes % 2 == 1:  # an escape, not an escaped backslash then "u..."
            cut -= 6
    return cut


__all__ = [
    "JsonContainer",
    "JsonTooDeepError",
    "JsonValue",
    "Level",
    "MAX_DEPTH",
    "Mark",
    "NO_VALUE",
    "NoValue",
    "Outcome",
    "decodable_length",
    "decode_string",
    "number",
]
