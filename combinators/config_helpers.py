"""The peer's config helpers, for ported code: ``ensure_config``, ``patch_config``,
``get_config_list`` and ``run_in_executor``.

Configs here are ``RunConfig`` values; every helper also takes the peer's dict shape.
Inside a running step, ``ensure_config`` starts from the step's own config, as the peer
does from its context variable.

>>> ensure_config({"tags": ["a"]})
RunConfig(tags=('a',))
>>> patch_config({"tags": ["a"], "run_name": "x"}, recursion_limit=3)
RunConfig(tags=('a',), run_name='x', recursion_limit=3)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ParamSpec, TypeVar

import attrs

from effects.authoring import current_scope, in_worker
from effects.config import ConfigLike, RunConfig, config_list, merge_configs

P = ParamSpec("P")
T = TypeVar("T")


def ensure_config(config: ConfigLike = None) -> RunConfig:
    """``config`` over the config of the step running here (if any), as one ``RunConfig``.

    >>> from combinators import RunnableLambda
    >>> def tags_seen(x: int) -> tuple[str, ...]:
    ...     return ensure_config().tags
    >>> RunnableLambda(tags_seen).invoke(1, {"tags": ["outer"]})
    ('outer',)
    """
    scope = current_scope()
    given = RunConfig.coerce(config)
    if scope is None:
        return given
    return merge_configs(scope.config.for_children(), given)


def patch_config(
    config: ConfigLike,
    *,
    recursion_limit: int | None = None,
    max_concurrency: int | None = None,
    run_name: str | None = None,
    configurable: Mapping[str, object] | None = None,
) -> RunConfig:
    """``config`` with some fields replaced (the peer's ``patch_config``; no callbacks here).

    >>> patch_config(None, max_concurrency=2, configurable={"k": 1})
    RunConfig(max_concurrency=2, configurable={'k': 1})
    """
    base = RunConfig.coerce(config)
    if recursion_limit is None and max_concurrency is None and run_name is None and configurable is None:
        return base
    return attrs.evolve(
        base,
        recursion_limit=base.recursion_limit if recursion_limit is None else recursion_limit,
        max_concurrency=base.max_concurrency if max_concurrency is None else max_concurrency,
        run_name=base.run_name if run_name is None else run_name,
        configurable=base.configurable if configurable is None else {**base.configurable, **configurable},
    )


def get_config_list(config: ConfigLike | Sequence[ConfigLike], length: int) -> list[RunConfig]:
    """One config per input of a batch of ``length``: a list is checked, one config repeated.

    A single config with a ``run_id`` gives it to the first input only (ids are unique).

    >>> get_config_list({"tags": ["a"]}, 2)
    [RunConfig(tags=('a',)), RunConfig(tags=('a',))]
    >>> get_config_list([None], 2)
    Traceback (most recent call last):
    ...
    ValueError: config must be a list of the same length as inputs, but got 1 configs for 2 inputs
    """
    return config_list(config, length)


async def run_in_executor(config: ConfigLike, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run the blocking ``func`` on a worker thread of the library's pool (as a sync step
    runs under async: never the loop's default executor), keeping the caller's context.

    >>> import asyncio
    >>> asyncio.run(run_in_executor(None, sum, [1, 2]))
    3
    """
    return await in_worker(None, func, *args, **kwargs)


__all__ = ["ensure_config", "get_config_list", "patch_config", "run_in_executor"]
