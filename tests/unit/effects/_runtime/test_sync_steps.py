"""Where a user's sync step runs under async: on the library's pool (threads named ``combinators-sync-``),
in the loop with ``in_thread=False`` or when it is plumbing around a step (``map``'s function).
That it never holds the loop is the promise of ``tests/reliability/test_sync_steps.py``."""

from __future__ import annotations

import asyncio
import threading

from combinators import RunnableLambda


def test_in_thread_false_is_the_opt_out_and_runs_in_the_loop() -> None:
    seen: list[str] = []

    def where(_: object) -> str:
        seen.append(threading.current_thread().name)
        return "ok"

    asyncio.run(RunnableLambda(where, in_thread=False).ainvoke(None))
    asyncio.run(RunnableLambda(where).ainvoke(None))
    assert seen[0] == threading.main_thread().name
    assert seen[1].startswith("combinators-sync-")


def test_the_function_given_to_map_stays_inline_under_async() -> None:
    # map's function is plumbing around a step (a cheap reshaping), as retry predicates
    # and listeners are: it runs in the loop, while a lambda step hops to the pool.
    seen: list[str] = []

    def where(x: object) -> object:
        seen.append(threading.current_thread().name)
        return x

    asyncio.run(RunnableLambda(where).map(where).ainvoke(None))
    assert seen[0].startswith("combinators-sync-")
    assert seen[1] == threading.main_thread().name
