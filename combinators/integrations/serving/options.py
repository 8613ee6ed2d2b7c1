"""How a runnable is served: limits, hooks and policies, as one value per mounted path.

>>> ServeOptions().max_body_bytes, ServeOptions().queue_size
(10485760, 64)
>>> ServeOptions(queue_size=0)
Traceback (most recent call last):
...
ValueError: queue_size must be at least 1, got 0
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, TypeVar, final
from uuid import UUID

import attrs

from combinators import AnyRunnable, Runnable
from combinators.integrations.serving.bodies import InputCheck
from combinators.integrations.serving.config import AuthHook, ConfigPolicy, PerRequestHook
from combinators.integrations.serving.errors import ErrorMap
from combinators.integrations.serving.http import RunGate
from combinators.integrations.serving.json_limits import JsonLimits
from combinators.integrations.serving.wire import WireTypes, wire_types
from effects.authoring import new_run_id


_Limit = TypeVar("_Limit", bound=float | None)


def _at_least(minimum: float) -> Callable[[object, attrs.Attribute[_Limit], _Limit], None]:
    def check(_: object, attribute: attrs.Attribute[_Limit], value: _Limit) -> None:
        if value is not None and value < minimum:
            raise ValueError(f"{attribute.name} must be at least {minimum:g}, got {value!r}")

    return check


def _keys(keys: Iterable[str]) -> tuple[str, ...]:
    return tuple(keys)


def _classes(classes: Iterable[type]) -> tuple[type, ...]:
    return tuple(classes)


ClientConfigurable = Collection[str] | Mapping[str, Collection[str]]
"""The ``configurable`` ids clients may set: one set for every path, or a set per path."""


def _ids(ids: ClientConfigurable) -> frozenset[str] | Mapping[str, frozenset[str]]:
    if isinstance(ids, str):
        raise TypeError(f"client_configurable takes a set of ids, not the str {ids!r}")
    if isinstance(ids, Mapping):
        per_path: Mapping[str, Collection[str]] = ids  # pyright: ignore[reportUnknownVariableType]
        return {path: _ids(one) for path, one in per_path.items()}  # type: ignore[misc]
    return frozenset(ids)


def client_ids(runnable: AnyRunnable, path: str, ids: frozenset[str]) -> frozenset[str]:
    """``ids`` checked against what ``runnable`` declares: a sensitive field is refused.

    >>> from combinators import ConfigurableField, pure
    >>> fake = pure("x").configurable_fields(value=ConfigurableField(id="reply"))
    >>> sorted(client_ids(fake, "/fake", frozenset({"reply", "user_id"})))
    ['reply', 'user_id']
    """
    for spec in runnable.config_specs():
        if spec.id in ids and not spec.client_may_set:
            raise ValueError(
                f"client_configurable names {spec.id!r} for {path}, but {runnable.name} declares that field"
                f" sensitive ({spec.sensitive}): clients may never set it. If they truly must, say so on the"
                f" field itself: ConfigurableField(id={spec.id!r}, client_settable=True)"
            )
    return ids


@final
@attrs.frozen
class ServeOptions:
    """Everything ``serve`` and ``mount`` take besides the runnables (see ``serve``).

    >>> from combinators import RunnableLambda
    >>> ServeOptions(config_keys=("configurable", "tags")).policy(RunnableLambda(str), "/echo").keys
    ('configurable', 'tags')
    """

    config_keys: tuple[str, ...] = attrs.field(default=("configurable",), converter=_keys)
    client_configurable: frozenset[str] | Mapping[str, frozenset[str]] = attrs.field(
        default=frozenset[str](), converter=_ids
    )
    """The ``configurable`` ids clients may set (none by default; the others are dropped)."""
    auth: AuthHook | None = None
    per_request: PerRequestHook | None = None
    error_map: ErrorMap | None = None
    max_body_bytes: int = attrs.field(default=10 * 1024 * 1024, validator=_at_least(1))
    max_json_depth: int = attrs.field(default=100, validator=_at_least(1))
    """How deep a request body may nest (400 ``JSONTooDeep`` past it, before anything runs)."""
    max_int_digits: int = attrs.field(default=1000, validator=_at_least(1))
    """How many digits an integer in a request body may have (400 ``NumberTooLong``)."""
    max_concurrent_runs: int | None = attrs.field(default=None, validator=_at_least(1))
    timeout: float | None = attrs.field(default=None, validator=_at_least(0.0))
    queue_size: int = attrs.field(default=64, validator=_at_least(1))
    ping_interval: float = attrs.field(default=15.0, validator=_at_least(0.001))
    input_types: tuple[type, ...] = attrs.field(default=(), converter=_classes)
    """Your own attrs classes that inputs may carry in the wire envelope."""
    playground: bool = True
    new_run_id: Callable[[], UUID] = new_run_id
    """Where the server's run ids come from (time-ordered UUIDs by default)."""

    def policy(self, runnable: AnyRunnable, path: str) -> ConfigPolicy:
        """The config policy of ``config_keys`` and the ids clients may set at ``path``."""
        chosen = self.client_configurable
        ids = chosen.get(path, frozenset[str]()) if isinstance(chosen, Mapping) else chosen
        return ConfigPolicy(self.config_keys, client_ids(runnable, path, ids))


@final
class Served:
    """One runnable at one path, with what its routes share (built once, at mount time)."""

    __slots__ = ("runnable", "path", "options", "policy", "input_check", "types", "gate", "json_limits")

    def __init__(self, runnable: Runnable[Any, Any], path: str, options: ServeOptions, gate: RunGate) -> None:
        # Typed Any both ways: the routes run it on decoded request bodies, which no type says.
        self.runnable = runnable
        self.path = path
        self.options = options
        self.policy = options.policy(runnable, path)
        self.input_check = InputCheck(runnable.input_schema())
        self.types: WireTypes = wire_types(options.input_types)
        self.gate = gate
        self.json_limits = JsonLimits(options.max_json_depth, options.max_int_digits)
