"""Per-request config: what a client may set, and the hooks that let the server set the rest.

Merge order, last writer wins: the client's ``config`` (only the keys in
``config_keys``; ``("configurable",)`` by default), then the ``per_request`` hook (it
sees the principal that ``auth`` returned), then the server's own ``run_name`` (the
route's path) and ``run_id``, which nothing overrides. Keys outside ``config_keys`` are
dropped, as LangServe does; a non-empty ``configurable`` where it is not allowed is a
422, so a client never believes it set something it did not.

Inside ``configurable``, a client sets only the ids the server names in
``client_configurable`` (none by default); the others are dropped, as LangServe drops
undeclared keys. An id whose field a component declares sensitive (a URL, a key,
headers: ``combinators.authoring.SENSITIVE``) cannot be named at all unless its
``ConfigurableField`` says ``client_settable=True``: ``serve`` refuses it.

>>> policy = ConfigPolicy(("configurable",), frozenset({"user"}))
>>> policy.read({"tags": ["dropped"], "configurable": {"user": "u1", "base_url": "x"}}, ("body", "config")).configurable
mappingproxy({'user': 'u1'})
>>> ConfigPolicy(("tags",)).read({"configurable": {"user": "u1"}}, ("body", "config"))
Traceback (most recent call last):
...
combinators.integrations.serving.errors.Rejected: the server does not allow 'configurable' in config
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final, TypeAlias, final
from uuid import UUID

import attrs
from starlette.requests import Request

from combinators.integrations.serving.bodies import Loc, problem
from combinators.integrations.serving.errors import invalid
from combinators import RunConfig
from effects.authoring import is_dict, is_list_of, is_str_mapping
from effects.projections import JsonValue

SETTABLE_KEYS: Final = ("configurable", "tags", "metadata", "recursion_limit", "max_concurrency", "timeout")
"""The config keys a server may let clients set (``run_name`` and ``run_id`` are the server's)."""

AuthHook: TypeAlias = Callable[[Request], "Awaitable[object] | object"]
"""Who is asking: returns the principal (any value), or ``None`` for a 401. Sync or async."""

PerRequestHook: TypeAlias = Callable[[RunConfig, Any, Request], "Awaitable[RunConfig] | RunConfig"]
"""``(config, principal, request) -> config``: sets config from the principal. Sync or async."""


def _fits(key: str, value: object) -> bool:
    if key == "tags":
        return is_list_of(value, str)
    if key in ("metadata", "configurable"):
        return isinstance(value, dict)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if key == "timeout":
        return value > 0
    return isinstance(value, int) and value >= 1  # recursion_limit, max_concurrency


_EXPECTED: Final = {
    "tags": "a list of strings",
    "metadata": "an object",
    "configurable": "an object",
    "recursion_limit": "an integer of at least 1",
    "max_concurrency": "an integer of at least 1 or null",
    "timeout": "a positive number of seconds or null",
}


def _check(key: str, value: object, loc: Loc) -> object:
    if not _fits(key, value):
        expected = _EXPECTED[key]
        raise invalid(f"config {key!r} must be {expected}", problem((*loc, key), f"expected {expected}", "type"))
    return tuple(value) if key == "tags" and is_list_of(value, str) else value


_NOTHING_SET: Final = RunConfig()


@final
@attrs.frozen
class ConfigPolicy:
    """Which config keys a client may set (a subset of ``SETTABLE_KEYS``), and which
    ``configurable`` ids (``ids``; the others are dropped).

    >>> ConfigPolicy(("run_name",))
    Traceback (most recent call last):
    ...
    ValueError: config_keys may hold only configurable, tags, metadata, recursion_limit, max_concurrency, timeout; got 'run_name'
    """

    keys: tuple[str, ...] = ("configurable",)
    ids: frozenset[str] = frozenset()

    def __attrs_post_init__(self) -> None:
        for key in self.keys:
            if key not in SETTABLE_KEYS:
                raise ValueError(f"config_keys may hold only {', '.join(SETTABLE_KEYS)}; got {key!r}")

    def read(self, raw: object, loc: Loc) -> RunConfig:
        """The part of a client's config the server keeps (checked; 422 when malformed)."""
        if raw is None:
            return _NOTHING_SET
        if not is_dict(raw):
            raise invalid("config must be an object", problem(loc, "expected an object", "type"))
        sent = raw
        configurable = sent.get("configurable")
        if configurable and "configurable" not in self.keys:
            raise invalid(
                "the server does not allow 'configurable' in config",
                problem((*loc, "configurable"), "the server does not allow this key", "forbidden"),
            )
        kept = {key: _check(key, sent[key], loc) for key in self.keys if sent.get(key) is not None}
        chosen = kept.get("configurable")
        if is_str_mapping(chosen):
            allowed = {key: value for key, value in chosen.items() if key in self.ids}
            if allowed:
                kept["configurable"] = allowed
            else:
                del kept["configurable"]
        return RunConfig.coerce(kept) if kept else _NOTHING_SET


async def call_hook(result: object) -> object:
    """A hook's result, awaited when the hook was async."""
    if inspect.isawaitable(result):
        awaited: object = await result
        return awaited
    return result


async def server_config(
    client: RunConfig,
    per_request: PerRequestHook | None,
    principal: object,
    request: Request,
    run_name: str,
    run_id: UUID,
) -> RunConfig:
    """The config a run gets: the client's kept part, the hook's changes, the server's name and id."""
    config = client
    if per_request is not None:
        config = RunConfig.coerce(await call_hook(per_request(client, principal, request)))
    return RunConfig(
        tags=config.tags,
        metadata=config.metadata,
        run_name=run_name,
        run_id=run_id,
        max_concurrency=config.max_concurrency,
        recursion_limit=config.recursion_limit,
        configurable=config.configurable,
        timeout=config.timeout,
    )


def _published(entry: JsonValue) -> JsonValue:
    """A configurable id's schema without a default that is a URL (a secret's is never there)."""
    if not isinstance(entry, dict):
        return entry
    default = entry.get("default")
    if isinstance(default, str) and "://" in default:
        return {key: value for key, value in entry.items() if key != "default"}
    return dict(entry)


def config_schema(policy: ConfigPolicy, runnable_schema: Mapping[str, JsonValue]) -> dict[str, JsonValue]:
    """The JSON Schema of the config a client may send: the ``configurable`` ids it may
    set (of the runnable's ``config_schema()``) and the other keys ``config_keys`` allows.

    >>> configurable = {"type": "object", "properties": {"t": {"type": "number"}, "url": {"default": "http://10.0.0.1"}}}
    >>> schema = {"title": "absConfig", "properties": {"configurable": configurable}}
    >>> config_schema(ConfigPolicy(("tags",)), schema)
    {'title': 'absConfig', 'type': 'object', 'properties': {'tags': {'type': 'array', 'items': {'type': 'string'}}}}
    >>> config_schema(ConfigPolicy(("configurable",), frozenset({"t", "url"})), schema)["properties"]
    {'configurable': {'title': 'Configurable', 'type': 'object', 'properties': {'t': {'type': 'number'}, 'url': {}}}}
    """
    properties = runnable_schema.get("properties")
    configurable = properties.get("configurable") if isinstance(properties, dict) else None
    declared = configurable.get("properties") if isinstance(configurable, dict) else None
    ids: dict[str, JsonValue] = {
        key: _published(entry)
        for key, entry in (declared.items() if isinstance(declared, dict) else ())
        if key in policy.ids
    }
    ids.update({key: {} for key in sorted(policy.ids) if key not in ids})  # read by the chain's own functions
    shapes: Mapping[str, JsonValue] = {
        "configurable": {"title": "Configurable", "type": "object", "properties": ids},
        "tags": {"type": "array", "items": {"type": "string"}},
        "metadata": {"type": "object"},
        "recursion_limit": {"type": "integer", "minimum": 1},
        "max_concurrency": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        "timeout": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}]},
    }
    return {
        "title": runnable_schema.get("title", "Config"),
        "type": "object",
        "properties": {key: shapes[key] for key in policy.keys},
    }
