"""The running step's scope: a nested call without a config finds its run (and its config) through the context."""

from __future__ import annotations

import asyncio

from combinators import RunConfig, RunnableLambda


def test_config_reaches_nested_invokes_through_context() -> None:
    seen: list[RunConfig] = []

    def inner(x: int, config: RunConfig) -> int:
        seen.append(config)
        return x

    def outer(x: int) -> int:
        return RunnableLambda(inner).invoke(x)  # no config passed

    RunnableLambda(outer).invoke(1, {"tags": ["t"], "metadata": {"m": 1}})
    assert seen[0].tags == ("t",)
    assert dict(seen[0].metadata) == {"m": 1}

    async def aouter(x: int) -> int:
        return await RunnableLambda(inner).ainvoke(x)

    asyncio.run(RunnableLambda(aouter).ainvoke(1, {"tags": ["async"]}))
    assert seen[1].tags == ("async",)
