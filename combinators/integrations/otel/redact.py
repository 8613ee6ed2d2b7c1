"""The one redactor every traced text goes through: content, metadata, tags, errors.

Values first take their JSON form (``to_jsonable``), which writes any ``Secret`` (any
value with ``__redacted__``) as stars. Then entries under secret-looking keys are
replaced, secret-looking text (API keys, bearer tokens, AWS access keys, JWTs, private
keys) is replaced in every string, and the result is cut to size keeping its JSON
structure (long strings and lists are shortened first).

>>> redactor = Redactor()
>>> redactor.text("401 for key sk-live-1234567890abcdef")
'401 for key [REDACTED]'
>>> redactor.json({"api_key": "x", "query": "Bearer abc.def"}, max_chars=200)
'{"api_key": "[REDACTED]", "query": "[REDACTED]"}'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Final, final

import attrs

from effects.projections.jsonable import JsonValue, to_jsonable

REDACTED: Final = "[REDACTED]"

SECRET_KEYS: Final = r"(?i)api[_-]?key|token(?!s)|secret|passw|authorization|cookie|credential|private[_-]?key"
"""Keys whose values are never shown (matched anywhere in the key; ``tokens``, plural,
is a count: ``input_tokens`` stays)."""

SECRET_VALUES: Final = (
    r"sk-[A-Za-z0-9_-]{8,}",
    r"(?i:bearer)\s+[^\s\"']+",
    r"(?:AKIA|ASIA)[0-9A-Z]{16}",
    r"eyJ[\w-]+\.[\w-]+\.[\w-]+",
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
)
"""Text that is replaced wherever it appears: OpenAI-style keys, bearer tokens, AWS
access key ids, JWTs, PEM private keys (to their end, or to the end of the text)."""

_CUT: Final = "…"
_REMEMBERED_TAGS: Final = 1024


def _keys(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _values(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


@final
@attrs.frozen
class Redactor:
    """Drops secret-looking keys and text; see the module docstring.

    >>> Redactor(values=(r"hunter\\d",)).text("pw hunter2")
    'pw [REDACTED]'
    """

    keys: str = SECRET_KEYS
    values: tuple[str, ...] = SECRET_VALUES
    _key_re: re.Pattern[str] = attrs.field(init=False, eq=False, repr=False)
    _value_re: re.Pattern[str] = attrs.field(init=False, eq=False, repr=False)
    _tags: dict[tuple[str, ...], tuple[str, ...]] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_key_re", _keys(self.keys))
        object.__setattr__(self, "_value_re", _values(self.values))
        object.__setattr__(self, "_tags", {})

    def __reduce__(self) -> tuple[type[Redactor], tuple[str, tuple[str, ...]]]:
        return (Redactor, (self.keys, self.values))

    def secret_key(self, key: str) -> bool:
        """Whether a value under ``key`` is never shown.

        >>> Redactor().secret_key("OPENAI_API_KEY"), Redactor().secret_key("query")
        (True, False)
        """
        return self._key_re.search(key) is not None

    def text(self, text: str) -> str:
        """``text`` with every secret-looking part replaced."""
        return self._value_re.sub(REDACTED, text)

    def tags(self, tags: tuple[str, ...]) -> tuple[str, ...]:
        """``tags``, each redacted; remembered, as a chain's runs share a few tag tuples.

        >>> Redactor().tags(("seq:step:1", "key=sk-0123456789ab"))
        ('seq:step:1', 'key=[REDACTED]')
        """
        known = self._tags.get(tags)
        if known is None:
            known = tuple(self.text(tag) for tag in tags)
            if len(self._tags) < _REMEMBERED_TAGS:
                self._tags[tags] = known
        return known

    def clean(self, value: object) -> JsonValue:
        """The JSON form of ``value``, redacted (not cut).

        >>> Redactor().clean({"token": 1, "items": ["sk-abcdefgh12"]})
        {'token': '[REDACTED]', 'items': ['[REDACTED]']}
        """
        return self._walk(to_jsonable(value))

    def json(self, value: object, *, max_chars: int) -> str:
        """The redacted JSON text of ``value``, at most ``max_chars`` long."""
        return fit(self.clean(value), max_chars)

    def _walk(self, data: JsonValue) -> JsonValue:
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, list):
            return [self._walk(item) for item in data]
        if isinstance(data, dict):
            return {key: REDACTED if self.secret_key(key) else self._walk(item) for key, item in data.items()}
        return data


def fit(data: JsonValue, max_chars: int) -> str:
    """JSON text of ``data`` cut to ``max_chars``, shortening strings and lists first.

    >>> fit({"a": "x" * 50, "b": list(range(40))}, 60)
    '{"a": "xxxxxxxxxxxxxxx…", "b": [0, 1, 2, "… 37 more"]}'
    """
    text = _dumps(data)
    limit = max(max_chars, 1)
    while len(text) > max_chars and limit > 1:
        limit //= 2
        text = _dumps(_shortened(data, limit))
    if len(text) > max_chars:
        text = text[: max(max_chars - 1, 0)] + _CUT
    return text


def _dumps(data: JsonValue) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


def _shortened(data: JsonValue, limit: int) -> JsonValue:
    if isinstance(data, str):
        return data if len(data) <= limit else data[:limit] + _CUT
    if isinstance(data, list):
        items = max(limit // 4, 2)
        kept: list[JsonValue] = [_shortened(item, limit) for item in data[:items]]
        if len(data) > items:
            kept.append(f"{_CUT} {len(data) - items} more")
        return kept
    if isinstance(data, Mapping):
        return {key: _shortened(item, limit) for key, item in data.items()}
    return data
