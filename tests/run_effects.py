"""The effects of one run, collected whether the run ends or fails (for projections of failed runs)."""

from __future__ import annotations

import asyncio
from typing import Any

from combinators import Runnable
from effects.effect_values import Effect


def effects_of(chain: Runnable[Any, Any], value: object) -> list[Effect]:
    """Every effect of ``chain.astream_effects(value)``; an ordinary error ends the list."""
    seen: list[Effect] = []

    async def run() -> None:
        try:
            async for effect in chain.astream_effects(value):
                seen.append(effect)
        except Exception:
            pass  # the run's failure is in its effects (RunFailed)

    asyncio.run(run())
    return seen
