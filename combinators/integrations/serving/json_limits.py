"""JSON a served chain reads and writes: limits checked when a body is parsed, and
answers that cannot be encoded turned into a short, typed error.

A body nested deeper than ``max_json_depth`` (100 by default), holding an integer of
more than ``max_int_digits`` digits (1000), a non-finite number (``NaN``, ``1e999``) or
a string with a lone surrogate (``"\\ud800"``, which no UTF-8 answer can carry) is a
400 naming the limit, before anything runs. An output the server cannot write as JSON
(nested too deep for the encoder, a lone surrogate made by the chain, an object with no
wire form, named by its type) ends the answer
with a 500 (``/invoke``, ``/batch``) or an ``error`` frame (streams) of type
``OutputNotEncodable``, and one short log line: no traceback.

>>> limits = JsonLimits(max_depth=3)
>>> limits.parse(b'{"input": [[1]]}')
{'input': [[1]]}
>>> limits.parse(b'{"input": [[[1]]]}')
Traceback (most recent call last):
...
combinators.integrations.serving.errors.Rejected: the JSON body is nested deeper than 3 levels (the server's max_json_depth)
>>> JsonLimits(max_int_digits=5).parse(b'{"input": 123456}')
Traceback (most recent call last):
...
combinators.integrations.serving.errors.Rejected: the JSON body has an integer of more than 5 digits (the server's max_int_digits)
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from collections.abc import Callable
from typing import Final, final

import attrs

from combinators.load import DataTooDeepError
from combinators.integrations.serving.errors import ErrorInfo, Rejected
from combinators.integrations.serving.wire_forms import NoWireForm
from effects.projections import JsonValue, compact_json
from effects.guards import is_dict, is_list

_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_BIG_EXPONENT: Final = re.compile(rb"[eE][+-]?[0-9]{3,}")


def _refused(kind: str, message: str) -> Rejected:
    return Rejected(ErrorInfo(400, kind, message))


def _too_deep(limit: int) -> Rejected:
    return _refused("JSONTooDeep", f"the JSON body is nested deeper than {limit} levels (the server's max_json_depth)")


def _children(item: object) -> list[object] | None:
    """A parsed JSON container's items (an object's keys and values), or ``None``."""
    if is_dict(item):
        return [*item.keys(), *item.values()]
    if is_list(item):
        return item
    return None


_STRING: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS: Final = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_DIGITS: Final = bytes(b for b in range(256) if b not in b"0123456789")
_STEP: Final = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def outside_strings(raw: bytes) -> bytes:
    """The JSON text without its strings (what brackets and numbers are made of).

    >>> outside_strings(b'{"a[": [1, "\\\\"]"]}')
    b'{: [1, ]}'
    """
    if b'\\"' in raw:  # an escaped quote: the careful way
        return _STRING.sub(b"", raw)
    return b"".join(raw.split(b'"')[0::2])  # quotes alternate: every other piece is outside


def text_depth(bare: bytes) -> int:
    """How deep a JSON text without strings nests (a translate and a running sum, in C).

    >>> text_depth(outside_strings(b'{"a": [1, {"b": "]]]"}]}')), text_depth(b"7")
    (3, 0)
    """
    brackets = bare.translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _has_lone_surrogate(value: object) -> bool:
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        else:
            stack.extend(_children(item) or ())
    return False


def _no_constant(name: str) -> float:
    raise _refused("InvalidJSON", f"the JSON body has {name}, which JSON does not allow")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _refused("InvalidJSON", "the JSON body has a number too large for a float")
    return number


@final
@attrs.frozen
class JsonLimits:
    """How deep a request body may nest and how many digits its integers may have."""

    max_depth: int = 100
    max_int_digits: int = 1000

    def __attrs_post_init__(self) -> None:
        for name in ("max_depth", "max_int_digits"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)!r}")

    def _integer(self, text: str) -> int:
        if len(text.lstrip("-")) > self.max_int_digits:
            raise _refused(
                "NumberTooLong",
                f"the JSON body has an integer of more than {self.max_int_digits} digits (the server's max_int_digits)",
            )
        return int(text)

    def parse(self, raw: bytes) -> object:
        """``raw`` parsed; a 400 naming the limit or the fault when it breaks one.

        >>> JsonLimits().parse(b'{"a": "\\\\ud800"}')
        Traceback (most recent call last):
        ...
        combinators.integrations.serving.errors.Rejected: the JSON body has a lone surrogate (\\ud800-\\udfff) in a string
        """
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _refused("InvalidJSON", "Invalid JSON body: not UTF-8") from None
        bare = outside_strings(raw) if len(raw) > min(self.max_depth, self.max_int_digits) else raw
        if bare.count(b"[") + bare.count(b"{") > self.max_depth and text_depth(bare) > self.max_depth:
            raise _too_deep(self.max_depth)  # before parsing: a deep text never reaches the parser
        parse_int: Callable[[str], object] | None = None
        if len(bare.translate(None, _NOT_DIGITS)) > self.max_int_digits:
            parse_int = self._integer  # only then: a hook per integer costs a call each
        parse_float = _finite if _BIG_EXPONENT.search(bare) else None
        try:
            value: object = json.loads(text, parse_int=parse_int, parse_float=parse_float, parse_constant=_no_constant)
        except RecursionError:
            raise _too_deep(self.max_depth) from None
        except json.JSONDecodeError as error:
            raise _refused(
                "InvalidJSON", f"Invalid JSON body: {error.msg} at line {error.lineno} column {error.colno}"
            ) from None
        except ValueError:  # an integer past Python's own digit limit
            raise _refused("NumberTooLong", "the JSON body has an integer too long to read") from None
        if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
            raise _refused("InvalidJSON", "the JSON body has a lone surrogate (\\ud800-\\udfff) in a string")
        return value


NOT_ENCODABLE: Final = "OutputNotEncodable"


@final
class OutputNotEncodable(Exception):
    """A run's answer that cannot be written as JSON; ``info`` is what the client gets.

    >>> OutputNotEncodable("nested too deep").info.to_json()["type"]
    'OutputNotEncodable'
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.info = ErrorInfo(500, NOT_ENCODABLE, f"the output could not be sent as JSON: {reason}")


def encoded(make: Callable[[], JsonValue]) -> bytes:
    """The UTF-8 JSON of what ``make`` builds (the wire form of an output); a value too
    deep for the encoder, not finite or not encodable raises ``OutputNotEncodable``.

    >>> encoded(lambda: {"a": 1})
    b'{"a":1}'
    >>> encoded(lambda: "\\ud800")
    Traceback (most recent call last):
    ...
    combinators.integrations.serving.json_limits.OutputNotEncodable: it holds a lone surrogate (\\ud800-\\udfff)
    """
    try:
        return compact_json(make()).encode("utf-8")
    except (RecursionError, DataTooDeepError):
        raise OutputNotEncodable("it is nested too deep") from None
    except NoWireForm as error:  # its type only: a repr would show what the object holds
        raise OutputNotEncodable(f"it holds a {error.type_name}, which has no JSON form") from None
    except UnicodeEncodeError:
        raise OutputNotEncodable("it holds a lone surrogate (\\ud800-\\udfff)") from None
    except ValueError as error:
        raise OutputNotEncodable(f"it holds a value JSON cannot write ({str(error)[:80]})") from None
