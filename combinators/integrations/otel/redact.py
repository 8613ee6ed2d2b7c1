"""The one redactor every traced text goes through: content, run names, metadata, tags, errors.

Values first take their JSON form (``to_jsonable``), which writes any ``Secret`` (any
value with ``__redacted__``) as stars. Then entries under secret-looking keys are
replaced, secret-looking text is replaced in every string (the formats of
``redact_rules``: provider keys, AWS keys, GitHub/GitLab/Slack tokens, JWTs, bearer and
basic credentials, private keys, passwords in URLs, values assigned to secret-looking
names), and the result is cut to size keeping its JSON structure (long strings and lists
are shortened first).

>>> redactor = Redactor()
>>> redactor.text("401 for key sk-live-1234567890abcdef")
'401 for key [REDACTED]'
>>> redactor.json({"api_key": "x", "query": "Bearer abc.def-123"}, max_chars=200)
'{"api_key": "[REDACTED]", "query": "[REDACTED]"}'
>>> redactor.text("postgres://app:hunter2@10.0.0.5/db, password=hunter2")
'postgres://app:[REDACTED]@10.0.0.5/db, password=[REDACTED]'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Final, final

import attrs

from combinators.integrations.otel.redact_rules import SECRET_FORMATS, SecretFormat, secret_key_name
from effects.projections.jsonable import JsonValue, to_jsonable

REDACTED: Final = "[REDACTED]"

SECRET_KEYS: Final = ""
"""No extra key pattern: the word rules of ``redact_rules.secret_key_name`` apply to every key."""

SECRET_VALUES: Final = tuple(f.pattern for f in SECRET_FORMATS)
"""The patterns of the built-in formats (``redact_rules.SECRET_FORMATS``)."""

_CUT: Final = "…"
_REMEMBERED_TAGS: Final = 1024
_SECRET_GROUP: Final = "(?P<secret>"


def _combined(formats: tuple[SecretFormat, ...], chosen: tuple[int, ...]) -> re.Pattern[str]:
    # One pass finds any chosen format; the group that matched (f<index>) says which. A
    # group ``secret`` may appear in each format, so the combined pattern drops its name.
    return re.compile("|".join(f"(?P<f{i}>{formats[i].pattern.replace(_SECRET_GROUP, '(?:')})" for i in chosen))


@final
@attrs.frozen
class Redactor:
    """Drops secret-looking keys and text; see the module docstring.

    ``keys`` is a further pattern of key names (searched anywhere in a key) and
    ``values`` further patterns of secret text, both added to the built-in rules
    (``formats``; a format's group ``secret`` is the part replaced).

    >>> Redactor(values=(r"hunter\\d",)).text("pw hunter2")
    'pw [REDACTED]'
    """

    keys: str = SECRET_KEYS
    values: tuple[str, ...] = ()
    formats: tuple[SecretFormat, ...] = SECRET_FORMATS
    _key_re: re.Pattern[str] | None = attrs.field(init=False, eq=False, repr=False)
    _all: tuple[SecretFormat, ...] = attrs.field(init=False, eq=False, repr=False)
    _each: tuple[re.Pattern[str], ...] = attrs.field(init=False, eq=False, repr=False)
    _combined: dict[tuple[int, ...], re.Pattern[str]] = attrs.field(init=False, eq=False, repr=False)
    _by_trigger: dict[str, tuple[int, ...]] = attrs.field(init=False, eq=False, repr=False)
    _triggers: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)
    _always: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    _runs: tuple[tuple[int, int], ...] = attrs.field(init=False, eq=False, repr=False)
    _tags: dict[tuple[str, ...], tuple[str, ...]] = attrs.field(init=False, eq=False, repr=False)
    _names: dict[str, str] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        every = (*self.formats, *(SecretFormat(f"values[{i}]", p) for i, p in enumerate(self.values)))
        object.__setattr__(self, "_key_re", re.compile(self.keys) if self.keys else None)
        object.__setattr__(self, "_all", every)
        object.__setattr__(self, "_each", tuple(re.compile(f.pattern) for f in every))
        object.__setattr__(self, "_combined", {})
        by_trigger: dict[str, list[int]] = {}
        for index, rule in enumerate(every):
            for trigger in rule.triggers:
                by_trigger.setdefault(trigger, []).append(index)
        object.__setattr__(self, "_by_trigger", {t: tuple(i) for t, i in by_trigger.items()})
        object.__setattr__(self, "_triggers", tuple(by_trigger))
        object.__setattr__(self, "_always", tuple(i for i, r in enumerate(every) if not r.triggers and not r.min_run))
        object.__setattr__(self, "_runs", tuple((i, r.min_run) for i, r in enumerate(every) if r.min_run))
        object.__setattr__(self, "_tags", {})
        object.__setattr__(self, "_names", {})

    def __reduce__(self) -> tuple[type[Redactor], tuple[str, tuple[str, ...], tuple[SecretFormat, ...]]]:
        return (Redactor, (self.keys, self.values, self.formats))

    def secret_key(self, key: str) -> bool:
        """Whether a value under ``key`` is never shown.

        >>> Redactor().secret_key("OPENAI_API_KEY"), Redactor().secret_key("query"), Redactor().secret_key("pwd")
        (True, False, True)
        """
        return secret_key_name(key) or (self._key_re is not None and self._key_re.search(key) is not None)

    def text(self, text: str) -> str:
        """``text`` with every secret-looking part replaced."""
        lowered = text.lower()
        chosen = set(self._always)
        for trigger in self._triggers:  # substring tests: faster here than one regex of them all
            if trigger in lowered:
                chosen.update(self._by_trigger[trigger])
        if self._runs and len(text) >= min(run for _, run in self._runs):
            longest = max(map(len, text.split()), default=0)
            chosen.update(index for index, run in self._runs if longest >= run)
        if not chosen:
            return text  # most texts: a few substring tests, no pattern run
        key = tuple(sorted(chosen))
        pattern = self._combined.get(key)
        if pattern is None:
            pattern = _combined(self._all, key)
            if len(self._combined) < _REMEMBERED_TAGS:
                self._combined[key] = pattern
        return pattern.sub(self._replace, text)

    def _replace(self, found: re.Match[str]) -> str:
        index = int((found.lastgroup or "f0")[1:])
        rule = self._all[index]
        own = self._each[index].match(found.string, found.start())
        if own is None or own.end() != found.end():  # cannot happen; replace the whole match to be safe
            return REDACTED
        start, end = own.span("secret") if "secret" in own.re.groupindex and own.group("secret") else own.span()
        secret = found.string[start:end]
        if rule.check is not None and not rule.check(secret):
            return found.group()
        return found.string[found.start() : start] + REDACTED + found.string[end : found.end()]

    def name(self, name: str) -> str:
        """A run's name, redacted; remembered, as a chain's runs share a few names.

        >>> Redactor().name("ask sk-0123456789abcdef")
        'ask [REDACTED]'
        """
        known = self._names.get(name)
        if known is None:
            known = self.text(name)
            if len(self._names) < _REMEMBERED_TAGS:
                self._names[name] = known
        return known

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
