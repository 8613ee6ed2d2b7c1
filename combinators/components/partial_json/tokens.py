"""Decoding the text of JSON tokens: strings (whole, or the part of an open one that can
be decoded already) and numbers.

>>> decode_string(r"a\\u00e9"), number("1.5"), number("-2")
('aé', 1.5, -2)
>>> raw = r"ab\\ud83d"
>>> raw[: decodable_length(raw, 0)]  # a high surrogate waits for the escape it pairs with
'ab'
"""

from __future__ import annotations

import json
from typing import Final, cast

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


__all__ = ["decodable_length", "decode_string", "number"]
