"""RunConfig: the frozen configuration of a call, and its merge rules.

LangChain-shaped dicts are accepted wherever a config is (``RunConfig.coerce``);
unknown top-level keys move into ``configurable`` as the peer does.

>>> cfg = RunConfig.coerce({"tags": ["b"], "user": "ann"})
>>> cfg.tags, dict(cfg.configurable)
(('b',), {'user': 'ann'})
>>> merge_configs(cfg, RunConfig(tags=("a",), metadata={"k": 1})).tags
('a', 'b')
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, Sequence, ValuesView
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, TypedDict, TypeGuard, TypeVar, final, overload
from uuid import UUID

import attrs

from effects.guards import is_mapping

if TYPE_CHECKING:
    from effects.executors import Executor

_T = TypeVar("_T")

DEFAULT_RECURSION_LIMIT: Final = 25

_EMPTY: Final[Mapping[str, object]] = MappingProxyType({})


def _frozen_mapping(value: Mapping[str, object] | None) -> Mapping[str, object]:
    if not value:
        return _EMPTY
    return MappingProxyType(dict(value))


def _tag_tuple(value: Sequence[str] | None) -> tuple[str, ...]:
    return tuple(value) if value else ()


class RunConfigDict(TypedDict, total=False):
    """The LangChain shape of a config, accepted wherever a ``RunConfig`` is.

    >>> shape: RunConfigDict = {"tags": ["a"], "max_concurrency": 2}
    >>> RunConfig.coerce(shape).max_concurrency
    2
    """

    tags: list[str] | tuple[str, ...]
    metadata: Mapping[str, object]
    run_name: str
    run_id: UUID | str
    max_concurrency: int | None
    recursion_limit: int
    configurable: Mapping[str, object]
    timeout: float | None
    tracing: object
    progress: bool
    executor: Executor | None
    callbacks: object


@final
@attrs.frozen(eq=True, hash=False)
class RunConfig:
    """How one call runs: tags, metadata, names, limits, and user configuration.

    ``run_name`` and ``run_id`` describe the run they are given to and are never
    inherited by its children; ``timeout`` (seconds) is a deadline for the whole call.
    ``tracing`` traces the call as OpenTelemetry spans (``True``, an ``OtelConfig`` or
    an ``OtelTracing``; extra ``otel``); ``progress`` shows a progress bar over a
    batch's items or a stream's chunks (extra ``progress``). Neither is inherited.
    ``executor`` runs the batches under the call elsewhere (``effects.Executor``).
    ``callbacks`` are LangChain callback handlers (a list, or a callback manager carrying
    a parent run; extra ``langchain``) told about the call's runs; like ``tracing``, the
    call that was given them turns them into an observer, so they never reach the runs
    (nor a Dask worker or a server).

    >>> RunConfig(tags=("x",), max_concurrency=2)
    RunConfig(tags=('x',), max_concurrency=2)
    """

    tags: tuple[str, ...] = attrs.field(default=(), converter=_tag_tuple)
    metadata: Mapping[str, object] = attrs.field(default=_EMPTY, converter=_frozen_mapping)
    run_name: str | None = None
    run_id: UUID | None = None
    max_concurrency: int | None = None
    recursion_limit: int = DEFAULT_RECURSION_LIMIT
    configurable: Mapping[str, object] = attrs.field(default=_EMPTY, converter=_frozen_mapping)
    timeout: float | None = None
    tracing: object = None
    progress: bool = False
    executor: Executor | None = None
    callbacks: object = None

    def __attrs_post_init__(self) -> None:
        if self.max_concurrency is not None and self.max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, got {self.max_concurrency}")
        if self.recursion_limit < 0:
            raise ValueError(f"recursion_limit must be >= 0, got {self.recursion_limit}")
        if self.timeout is not None and self.timeout < 0:
            raise ValueError(f"timeout must be >= 0 seconds, got {self.timeout}")

    def __reduce__(self) -> tuple[object, ...]:
        # The mappings are read-only proxies, which do not pickle: send plain dicts.
        return (
            RunConfig,
            (
                self.tags,
                dict(self.metadata),
                self.run_name,
                self.run_id,
                self.max_concurrency,
                self.recursion_limit,
                dict(self.configurable),
                self.timeout,
                self.tracing,
                self.progress,
                self.executor,
                # Handlers stay with the caller: a shipped config carries none.
            ),
        )

    def __hash__(self) -> int:
        # Metadata and configurable may hold unhashable values: hash the rest.
        return hash((self.tags, self.run_name, self.run_id, self.max_concurrency, self.recursion_limit, self.timeout))

    def __repr__(self) -> str:
        # An expression that rebuilds the config: mappings as plain dicts, not proxies.
        shown: list[str] = []
        for a in attrs.fields(RunConfig):
            value: object = getattr(self, a.name)
            if value != a.default:
                shown_value = dict(value) if is_mapping(value) else value
                shown.append(f"{a.name}={shown_value!r}")
        return f"RunConfig({', '.join(shown)})"

    @staticmethod
    def coerce(config: object) -> RunConfig:
        """Accept a ``RunConfig``, a LangChain-shaped dict, or None.

        >>> RunConfig.coerce(None) == RunConfig()
        True
        >>> RunConfig.coerce({"callbacks": None}) == RunConfig()
        True
        """
        if config is None:
            return EMPTY_CONFIG
        if isinstance(config, RunConfig):
            return config
        if not isinstance(config, Mapping):
            raise TypeError(f"config must be a RunConfig or a dict, got {type(config).__name__}")
        return _from_mapping(config)  # pyright: ignore[reportUnknownArgumentType]

    def for_children(self) -> RunConfig:
        """The config a run hands to its children: without ``run_name`` and ``run_id``
        (nor ``tracing``, ``progress`` and ``callbacks``, which the call that asked for them handles).

        >>> RunConfig(run_name="a", tags=("t",)).for_children()
        RunConfig(tags=('t',))
        """
        if (
            self.run_name is None
            and self.run_id is None
            and self.tracing is None
            and not self.progress
            and self.callbacks is None
        ):
            return self
        return attrs.evolve(self, run_name=None, run_id=None, tracing=None, progress=False, callbacks=None)

    # Read as the peer's RunnableConfig dict (ported code receives a RunConfig where it
    # received a dict): config["tags"], config.get(...), {**config}, dict(config), with
    # the peer's key types. It is a value: setting a key is an error.
    @overload
    def __getitem__(self, key: Literal["tags"]) -> list[str]: ...
    @overload
    def __getitem__(self, key: Literal["metadata", "configurable"]) -> Mapping[str, object]: ...
    @overload
    def __getitem__(self, key: Literal["run_name"]) -> str | None: ...
    @overload
    def __getitem__(self, key: Literal["run_id"]) -> UUID | None: ...
    @overload
    def __getitem__(self, key: Literal["max_concurrency"]) -> int | None: ...
    @overload
    def __getitem__(self, key: Literal["recursion_limit"]) -> int: ...
    @overload
    def __getitem__(self, key: Literal["timeout"]) -> float | None: ...
    @overload
    def __getitem__(self, key: Literal["callbacks"]) -> object: ...
    @overload
    def __getitem__(self, key: str) -> object: ...

    def __getitem__(self, key: str) -> object:
        """Read a key of the LangChain-shaped dict (``config["tags"]``), for ported code.

        >>> RunConfig(tags=("a",))["tags"], RunConfig()["configurable"]
        (['a'], {})
        >>> config = RunConfig(configurable={"user_id": 7})
        >>> config["configurable"]["user_id"], {**config}["recursion_limit"], dict(config)["metadata"]
        (7, 25, {})
        """
        if key == "callbacks":
            return self.callbacks
        return self._shape()[key]

    # Defined at run time only: to a type checker a config has no item assignment, so
    # `config["tags"] = ...` is a type error there and a TypeError naming the fix here.
    if not TYPE_CHECKING:

        def __setitem__(self, key: str, value: object) -> None:
            """A config is a value: changing it is an error naming the ways to make a new one.

            >>> RunConfig()["tags"] = ["x"]
            Traceback (most recent call last):
            ...
            TypeError: RunConfig is immutable: config['tags'] cannot be set; pass a new config with runnable.with_config(tags=...) or build one with patch_config(config, tags=...)
            """
            raise TypeError(
                f"RunConfig is immutable: config[{key!r}] cannot be set; pass a new config with"
                f" runnable.with_config({key}=...) or build one with patch_config(config, {key}=...)"
            )

        def __delitem__(self, key: str) -> None:
            raise TypeError(f"RunConfig is immutable: config[{key!r}] cannot be deleted; use patch_config")

    def keys(self) -> KeysView[str]:
        """The keys of the LangChain-shaped dict (what ``{**config}`` and ``dict(config)`` read).

        >>> sorted(RunConfig(run_name="r").keys())
        ['configurable', 'metadata', 'recursion_limit', 'run_name', 'tags']
        """
        return self._shape().keys()

    def items(self) -> ItemsView[str, object]:
        """The LangChain-shaped dict's items."""
        return self._shape().items()

    def values(self) -> ValuesView[object]:
        """The LangChain-shaped dict's values."""
        return self._shape().values()

    def __contains__(self, key: object) -> bool:
        return key in self._shape()

    def __iter__(self) -> Iterator[str]:
        return iter(self._shape())

    def __len__(self) -> int:
        return len(self._shape())

    def get(self, key: str, default: object = None) -> object:
        """``config.get(key, default)`` over the LangChain-shaped dict.

        >>> RunConfig().get("run_name", "unnamed"), RunConfig(max_concurrency=2).get("max_concurrency")
        ('unnamed', 2)
        """
        return self._shape().get(key, default)

    def _shape(self) -> Mapping[str, object]:
        return self.to_dict()  # read by any key: a TypedDict is a Mapping[str, object]

    def to_dict(self) -> RunConfigDict:
        """The LangChain-shaped dict, as passed to functions that take a config.

        >>> RunConfig(tags=("a",)).to_dict()["tags"]
        ['a']
        """
        out: RunConfigDict = {
            "tags": list(self.tags),
            "metadata": dict(self.metadata),
            "configurable": dict(self.configurable),
            "recursion_limit": self.recursion_limit,
        }
        if self.run_name is not None:
            out["run_name"] = self.run_name
        if self.run_id is not None:
            out["run_id"] = self.run_id
        if self.max_concurrency is not None:
            out["max_concurrency"] = self.max_concurrency
        if self.timeout is not None:
            out["timeout"] = self.timeout
        if self.tracing is not None:
            out["tracing"] = self.tracing
        if self.progress:
            out["progress"] = True
        if self.executor is not None:
            out["executor"] = self.executor
        if self.callbacks is not None:
            out["callbacks"] = self.callbacks
        return out


EMPTY_CONFIG: Final = RunConfig()

_KNOWN_KEYS: Final = frozenset(
    {
        "tags",
        "metadata",
        "run_name",
        "run_id",
        "max_concurrency",
        "recursion_limit",
        "configurable",
        "timeout",
        "tracing",
        "progress",
        "executor",
        "callbacks",
    }
)


def _from_mapping(config: Mapping[str, object]) -> RunConfig:
    if not config:
        return EMPTY_CONFIG
    # No handler (None or an empty list, as LangChain and LangGraph pass it) is no entry:
    # the call then costs what it costs without the key.
    callbacks = None
    if "callbacks" in config:
        callbacks = config["callbacks"] or None
        if callbacks is None and len(config) == 1:
            return EMPTY_CONFIG
    extra = {k: v for k, v in config.items() if k not in _KNOWN_KEYS}
    configurable = dict(_mapping(config.get("configurable"), "configurable"))
    configurable.update(extra)
    run_id = config.get("run_id")
    if isinstance(run_id, str):
        run_id = UUID(run_id)
    if run_id is not None and not isinstance(run_id, UUID):
        raise TypeError(f"config['run_id'] must be a UUID or str, got {type(run_id).__name__}")
    return RunConfig(
        tags=_str_seq(config.get("tags"), "tags"),
        metadata=_mapping(config.get("metadata"), "metadata"),
        run_name=_opt(config.get("run_name"), str, "run_name"),
        run_id=run_id,
        max_concurrency=_opt(config.get("max_concurrency"), int, "max_concurrency"),
        recursion_limit=_or_default(
            _opt(config.get("recursion_limit"), int, "recursion_limit"), DEFAULT_RECURSION_LIMIT
        ),
        configurable=configurable,
        timeout=_opt_number(config.get("timeout")),
        tracing=config.get("tracing"),
        progress=_opt(config.get("progress"), bool, "progress") or False,
        executor=_executor(config.get("executor")),
        callbacks=callbacks,
    )


def _mapping(value: object, key: str) -> Mapping[str, object]:
    if value is None:
        return _EMPTY
    if not isinstance(value, Mapping):
        raise TypeError(f"config[{key!r}] must be a dict, got {type(value).__name__}")
    return value  # pyright: ignore[reportUnknownVariableType]


def _str_seq(value: object, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(f"config[{key!r}] must be a list of str, got {type(value).__name__}")
    items: list[str] = []
    given: Sequence[object] = value  # pyright: ignore[reportUnknownVariableType]
    for item in given:
        if not isinstance(item, str):
            raise TypeError(f"config[{key!r}] must hold str, got {type(item).__name__}")
        items.append(item)
    return tuple(items)


def _opt(value: object, kind: type[_T], key: str) -> _T | None:
    if value is None:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"config[{key!r}] must be {kind.__name__}, got {type(value).__name__}")
    return value


def _or_default(value: int | None, default: int) -> int:
    return default if value is None else value


def _opt_number(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"config['timeout'] must be a number of seconds, got {type(value).__name__}")
    return float(value)


def _executor(value: object) -> Executor | None:
    if value is None:
        return None
    if not _is_executor(value):
        raise TypeError(f"config['executor'] must be an Executor (with name and submit), got {type(value).__name__}")
    return value


def _is_executor(value: object) -> TypeGuard[Executor]:
    # Structurally, as the protocol says: a name and a submit method.
    return hasattr(value, "submit") and hasattr(value, "name")


def is_config_list(config: object) -> TypeGuard[Sequence[object]]:
    """Whether a batch's ``config`` is a list of configs, one per input.

    >>> is_config_list([{}, None]), is_config_list({"tags": ["a"]})
    (True, False)
    """
    return isinstance(config, Sequence) and not isinstance(config, str | bytes)


def config_list(config: object, count: int) -> list[RunConfig]:
    """One config per input of a batch of ``count``: a list (one per input) checked, one
    config repeated (the same object). A single config's ``run_id`` goes to the first
    input only: ids are unique.

    >>> config_list({"tags": ["a"]}, 2)
    [RunConfig(tags=('a',)), RunConfig(tags=('a',))]
    >>> config_list([None], 2)
    Traceback (most recent call last):
    ...
    ValueError: config must be a list of the same length as inputs, but got 1 configs for 2 inputs
    """
    if count < 0:
        raise ValueError(f"length must be >= 0, got {count}")
    if is_config_list(config):
        configs = config
        if len(configs) != count:
            raise ValueError(
                f"config must be a list of the same length as inputs, but got {len(configs)} configs for {count} inputs"
            )
        return [RunConfig.coerce(c) for c in configs]
    one = RunConfig.coerce(config)
    if one.run_id is not None and count > 1:
        return [one, *([attrs.evolve(one, run_id=None)] * (count - 1))]
    return [one] * count


def merge_configs(base: RunConfig, override: RunConfig) -> RunConfig:
    """Combine a bound config with a call's config (the peer's merge rules).

    Tags are a sorted union, metadata and configurable merge with ``override``
    winning, ``recursion_limit`` overrides only when it is not the default,
    timeouts take the smaller one.

    >>> a = RunConfig(tags=("z",), metadata={"k": 1}, timeout=5.0)
    >>> b = RunConfig(tags=("a", "z"), metadata={"k": 2}, timeout=1.0)
    >>> m = merge_configs(a, b)
    >>> m.tags, dict(m.metadata), m.timeout
    (('a', 'z'), {'k': 2}, 1.0)
    """
    if override is EMPTY_CONFIG:
        return base
    if base is EMPTY_CONFIG:
        return override
    return RunConfig(
        tags=tuple(sorted(set(base.tags) | set(override.tags))),
        metadata={**base.metadata, **override.metadata},
        run_name=override.run_name if override.run_name is not None else base.run_name,
        run_id=override.run_id if override.run_id is not None else base.run_id,
        max_concurrency=(override.max_concurrency if override.max_concurrency is not None else base.max_concurrency),
        recursion_limit=(
            override.recursion_limit if override.recursion_limit != DEFAULT_RECURSION_LIMIT else base.recursion_limit
        ),
        configurable={**base.configurable, **override.configurable},
        timeout=_min_timeout(base.timeout, override.timeout),
        tracing=override.tracing if override.tracing is not None else base.tracing,
        progress=override.progress or base.progress,
        executor=override.executor if override.executor is not None else base.executor,
        callbacks=override.callbacks if override.callbacks is not None else base.callbacks,
    )


def _min_timeout(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


ConfigLike: TypeAlias = RunConfig | RunConfigDict | None
"""What every ``config=`` parameter accepts: a ``RunConfig``, a dict in LangChain's shape
(typed: ``{"max_concurrency": "4"}`` is a type error), or None."""
