"""One bounded, shared thread pool for sync batches and parallel branches.

Never a pool per call: a call submits a few *helpers* that pull items from a shared
counter, and the calling thread pulls items too. A helper that never started (the
pool was busy, for instance with the outer level of a nested batch) is cancelled
once the caller has drained the items itself, so nested batches cannot deadlock.

>>> run_indexed(lambda i: i * i, 4, limit=None)
[0, 1, 4, 9]
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from contextvars import copy_context
from typing import TYPE_CHECKING, Final, Literal, TypeVar, cast, overload

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

_T = TypeVar("_T")

POOL_SIZE: Final = min(32, (os.cpu_count() or 1) + 4)
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def shared_pool() -> ThreadPoolExecutor:
    """The process-wide pool (created on first use).

    >>> shared_pool() is shared_pool()
    True
    """
    global _pool
    if _pool is None:
        from concurrent.futures import ThreadPoolExecutor  # on first use: cheap imports

        with _pool_lock:
            if _pool is None:
                _pool = ThreadPoolExecutor(POOL_SIZE, thread_name_prefix="combinators")
    return _pool


class _Failed:
    """Marks a slot whose item raised (kept apart from values that are exceptions)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


@overload
def run_indexed(
    work: Callable[[int], _T],
    count: int,
    *,
    limit: int | None,
    return_exceptions: Literal[False] = False,
) -> list[_T]: ...


@overload
def run_indexed(
    work: Callable[[int], _T],
    count: int,
    *,
    limit: int | None,
    return_exceptions: bool,
) -> list[_T | Exception]: ...


def run_indexed(
    work: Callable[[int], _T],
    count: int,
    *,
    limit: int | None,
    return_exceptions: bool = False,
) -> list[_T] | list[_T | Exception]:
    """Run ``work(0) .. work(count - 1)`` on the shared pool, results in index order.

    ``limit`` caps how many run at once (the caller's thread included). Without
    ``return_exceptions`` the first failure (lowest index) is raised once the
    items already running have finished, and no new item starts after it.
    Only ``Exception``s are captured as results; other ``BaseException``s always
    propagate.

    >>> run_indexed(lambda i: 10 // i, 3, limit=2, return_exceptions=True)[0]
    ZeroDivisionError('integer division or modulo by zero')
    """
    if count == 0:
        return []
    slots: list[_T | _Failed | None] = [None] * count
    next_index = itertools.count().__next__
    stop: list[bool] = []  # non-empty once an item failed: a flag that needs no lock object

    def pull() -> None:
        while not stop:
            i = next_index()
            if i >= count:
                return
            try:
                slots[i] = work(i)
            except Exception as error:
                slots[i] = _Failed(error)
                if not return_exceptions:
                    stop.append(True)
            except BaseException as error:
                slots[i] = _Failed(error)
                stop.append(True)

    helpers = min(count, limit if limit is not None else POOL_SIZE + 1) - 1
    futures: list[Future[None]] = []
    if helpers > 0:
        pool = shared_pool()
        # Each helper gets its own copy of the caller's context: a Context object
        # cannot be entered by two threads at once.
        futures = [pool.submit(copy_context().run, pull) for _ in range(helpers)]
    pull()
    for future in futures:
        if not future.cancel():
            future.result()
    results: list[_T | Exception] = []
    first_error: BaseException | None = None
    for slot in slots:
        if isinstance(slot, _Failed):
            error = slot.error
            if isinstance(error, Exception) and return_exceptions:
                results.append(error)
            else:
                first_error = first_error or error
        else:
            # None only in slots never run after a stop, and then we raise below.
            results.append(cast(_T, slot))
    if first_error is not None:
        raise first_error
    return results
