"""LangServe's ``/c/{config_hash}/...`` routes: a config carried in the path.

LangServe's playground shares a configured chain as a link: the config, as JSON,
compressed with lz-string's ``compressToEncodedURIComponent`` (URL-safe characters),
stands in the path before the route, ``/chat/c/N4Ig.../invoke``. Every route accepts
it here too, under the same rule as a body's ``config``: only the keys and
``configurable`` ids the server lets clients set are kept (a ``configurable`` the
server does not allow is a 422), after the ``auth`` hook, before anything runs. The
path's config comes first and the body's ``config`` is merged over it, as LangServe
does. A hash that does not decode to a JSON object is a 400 that never echoes it.

The encoder and decoder are written from lz-string's format (a dictionary coder over 6-bit
characters; JavaScript strings, so 16-bit code units); it refuses a hash longer than
``MAX_HASH_CHARS`` and stops at ``MAX_CONFIG_CHARS`` characters of output (the
format can grow quadratically).

>>> decompress_from_encoded_uri_component("N4XyA")
'{}'
>>> decompress_from_encoded_uri_component("NoRgNABATAukA")
'[1, 2]'
>>> compress_to_encoded_uri_component("[1, 2]")
'NoRgNABATAukA'
"""

from __future__ import annotations

from typing import Final

from starlette.requests import Request

from combinators import RunConfig
from combinators.integrations.serving.errors import ErrorInfo, Rejected
from combinators.integrations.serving.options import Served
from effects.authoring import is_dict
from effects.config import EMPTY_CONFIG, merge_configs

MAX_HASH_CHARS: Final = 8192
"""The longest config hash read (a longer one is a 400)."""
MAX_CONFIG_CHARS: Final = 65536
"""The most characters a config hash may decompress to (a 400 beyond)."""
INVALID_HASH: Final = ErrorInfo(400, "InvalidConfigHash", "the config hash in the path cannot be read")

_ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
_VALUES: Final = {char: index for index, char in enumerate(_ALPHABET)}


class BadHash(ValueError):
    """The text is not lz-string's URI-component form (or is too long)."""


class _Bits:
    """Reads the hash's characters as bits, the lowest first in each 6-bit character."""

    __slots__ = ("values", "value", "position", "index")

    def __init__(self, text: str) -> None:
        try:
            self.values = [_VALUES[char] for char in text]
        except KeyError:
            raise BadHash("a character outside lz-string's URI alphabet") from None
        self.value = self._at(0)
        self.position = 32  # lz-string's reset value for 6-bit characters
        self.index = 1

    def _at(self, index: int) -> int:
        return self.values[index] if index < len(self.values) else 0

    def read(self, count: int) -> int:
        bits = 0
        for shift in range(count):
            bit = self.value & self.position
            self.position >>= 1
            if self.position == 0:
                self.position = 32
                self.value = self._at(self.index)
                self.index += 1
            if bit:
                bits |= 1 << shift
        return bits

    @property
    def exhausted(self) -> bool:
        return self.index > len(self.values)


def _as_text(units: list[str]) -> str:
    # JavaScript strings are UTF-16 code units: a surrogate pair is one character here.
    try:
        return "".join(units).encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeError:
        raise BadHash("not text") from None


def decompress_from_encoded_uri_component(text: str, max_chars: int = MAX_CONFIG_CHARS) -> str:
    """lz-string's ``decompressFromEncodedURIComponent`` (``BadHash`` when ``text`` is not
    its output, too long, or decompresses to more than ``max_chars`` characters).

    >>> decompress_from_encoded_uri_component("N4Igxg9gdgZglgcwK4CcCGAjANgUxALgAJQAXHAWwAcd0TU8iAGAOgFYBfdoA")
    '{"configurable": {"temperature": 0.5}}'
    >>> decompress_from_encoded_uri_component("%%")
    Traceback (most recent call last):
    ...
    combinators.integrations.serving.config_hash.BadHash: a character outside lz-string's URI alphabet
    """
    if len(text) > MAX_HASH_CHARS:
        raise BadHash("the hash is too long")
    bits = _Bits(text.replace(" ", "+"))  # a "+" that a URL decoder turned into a space
    words: list[str] = []
    first = bits.read(2)
    if first == 2:
        return ""
    if first not in (0, 1):
        raise BadHash("not lz-string's format")
    entry = chr(bits.read(8 if first == 0 else 16))
    dictionary: list[str] = ["", "", "", entry]
    previous = entry
    words.append(entry)
    size = len(entry)
    enlarge_in, width = 4, 3
    while True:
        if bits.exhausted:
            raise BadHash("the hash ends early")
        code = bits.read(width)
        if code in (0, 1):
            dictionary.append(chr(bits.read(8 if code == 0 else 16)))
            code = len(dictionary) - 1
            enlarge_in -= 1
        elif code == 2:
            return _as_text(words)
        if enlarge_in == 0:
            enlarge_in, width = 1 << width, width + 1
        if code < len(dictionary) and code > 2:
            entry = dictionary[code]
        elif code == len(dictionary):
            entry = previous + previous[0]
        else:
            raise BadHash("not lz-string's format")
        size += len(entry)
        if size > max_chars:
            raise BadHash("the config is too long")
        words.append(entry)
        dictionary.append(previous + entry[0])
        enlarge_in -= 1
        previous = entry
        if enlarge_in == 0:
            enlarge_in, width = 1 << width, width + 1


class _BitWriter:
    """Writes bits into 6-bit characters of the URI alphabet, the lowest bit of a value first."""

    __slots__ = ("chars", "value", "position")

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.value = 0
        self.position = 0

    def write(self, value: int, count: int) -> None:
        for _ in range(count):
            self.value = (self.value << 1) | (value & 1)
            value >>= 1
            if self.position == 5:
                self.chars.append(_ALPHABET[self.value])
                self.position, self.value = 0, 0
            else:
                self.position += 1

    def flush(self) -> str:
        while True:  # lz-string ends with the last character's bits shifted up
            self.value <<= 1
            if self.position == 5:
                self.chars.append(_ALPHABET[self.value])
                return "".join(self.chars)
            self.position += 1


def _code_units(text: str) -> list[str]:
    # JavaScript strings are UTF-16 code units: a character beyond U+FFFF is two here.
    data = text.encode("utf-16-le", "surrogatepass")
    return [chr(int.from_bytes(data[i : i + 2], "little")) for i in range(0, len(data), 2)]


def compress_to_encoded_uri_component(text: str) -> str:
    """lz-string's ``compressToEncodedURIComponent``: the same characters LangServe's
    ``LZString`` and lz-string's JavaScript write, which ``decompress_from_encoded_uri_component``
    reads back (the playground's Share link is made by its JavaScript twin).

    >>> compress_to_encoded_uri_component('{"configurable": {"temperature": 0.5}}')
    'N4Igxg9gdgZglgcwK4CcCGAjANgUxALgAJQAXHAWwAcd0TU8iAGAOgFYBfdoA'
    >>> decompress_from_encoded_uri_component(compress_to_encoded_uri_component("héllo 🙂"))
    'héllo 🙂'
    """
    out = _BitWriter()
    dictionary: dict[str, int] = {}
    fresh: set[str] = set()  # single units in the dictionary not yet written out
    size, width, enlarge_in = 3, 2, 2
    word = ""

    def emit(word: str) -> None:
        nonlocal width, enlarge_in
        if word in fresh:
            unit = ord(word)
            out.write(0 if unit < 256 else 1, width)
            out.write(unit, 8 if unit < 256 else 16)
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, width = 1 << width, width + 1
            fresh.discard(word)
        else:
            out.write(dictionary[word], width)
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in, width = 1 << width, width + 1

    for unit in _code_units(text):
        if unit not in dictionary:
            dictionary[unit] = size
            size += 1
            fresh.add(unit)
        if word + unit in dictionary:
            word += unit
            continue
        emit(word)
        dictionary[word + unit] = size
        size += 1
        word = unit
    if word:
        emit(word)
    out.write(2, width)  # the end of the stream
    return out.flush()


def path_config(served: Served, request: Request) -> RunConfig:
    """The config in the request's path (``/c/{config_hash}/...``), with only what the
    server lets clients set; nothing when the path has none. A 400 when the hash cannot be
    read, a 422 when it sets what the server does not allow (``configurable``)."""
    config_hash = request.path_params.get("config_hash")
    if not isinstance(config_hash, str):
        return EMPTY_CONFIG
    try:
        raw = decompress_from_encoded_uri_component(config_hash).encode("utf-8")
        value = served.json_limits.parse(raw)
    except (BadHash, Rejected):
        raise Rejected(INVALID_HASH) from None
    if not is_dict(value):
        raise Rejected(INVALID_HASH)
    return served.policy.read(value, ("path", "config_hash"))


def with_path_config(path: RunConfig, configs: list[RunConfig]) -> list[RunConfig]:
    """Each body config merged over the path's (the body's wins, as in LangServe).

    >>> [c.tags for c in with_path_config(RunConfig(tags=("a",)), [RunConfig(tags=("b",))])]
    [('a', 'b')]
    """
    if path is EMPTY_CONFIG:
        return configs
    return [merge_configs(path, config) for config in configs]
