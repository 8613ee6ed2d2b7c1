"""What a run may leave behind, recorded: loop reports, unraisable errors, async generators.

``Leftovers`` is installed around a piece of work. It records

- what the event loop's exception handler receives ("Task exception was never
  retrieved", "an error occurred during closing of asynchronous generator", ...);
- unraisable exceptions (an error in a generator's ``close`` during garbage collection)
  and exceptions that end a thread;
- every async generator that started and was left suspended (never finished or
  closed), whether it is still alive or was handed to the loop's finalizer: such a
  generator is closed by the loop later, concurrently with its neighbours, in no
  defined order;
- tasks other than the caller's that are still pending.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import weakref
from collections.abc import AsyncGenerator, Callable, Coroutine
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")


def _where(generator: AsyncGenerator[Any, Any]) -> str:
    frame = generator.ag_frame
    line = f" at {frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno}" if frame is not None else ""
    return f"{generator.__qualname__}{line}"


class Leftovers:
    """Reports collected while installed; ``problems()`` lists them (empty means clean)."""

    def __init__(self, *, settle: bool = False) -> None:
        self.settle = settle  # collect what earlier work left before watching (slower)
        self.loop_reports: list[str] = []
        self.unraisable: list[str] = []
        self.thread_errors: list[str] = []
        self.suspended: list[str] = []
        self.pending_tasks: list[str] = []
        self._started: weakref.WeakSet[AsyncGenerator[Any, Any]] = weakref.WeakSet()
        self._abandoned: set[int] = set()
        self._old_unraisable: Callable[[Any], object] | None = None
        self._old_thread_hook: Callable[[threading.ExceptHookArgs], object] | None = None

    # -- sync parts: hooks for the whole block ------------------------------------------

    def __enter__(self) -> Leftovers:
        # Everything alive now is not this block's: frozen, it is left out of each
        # collection, which then costs what the block allocated, not the whole heap.
        if self.settle:
            gc.collect()
        gc.freeze()
        self._old_unraisable = sys.unraisablehook
        self._old_thread_hook = threading.excepthook
        sys.unraisablehook = self._on_unraisable
        threading.excepthook = self._on_thread_error
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        gc.collect()
        gc.unfreeze()
        assert self._old_unraisable is not None and self._old_thread_hook is not None
        sys.unraisablehook = self._old_unraisable
        threading.excepthook = self._old_thread_hook

    def _on_unraisable(self, report: Any) -> None:
        self.unraisable.append(f"{report.err_msg or 'unraisable'}: {report.exc_value!r} in {report.object!r}")

    def _on_thread_error(self, report: threading.ExceptHookArgs) -> None:
        self.thread_errors.append(f"{report.thread!r}: {report.exc_value!r}")

    # -- async parts: one event loop per call -------------------------------------------

    def abandon(self, generator: object) -> None:
        """The consumer drops ``generator`` unclosed on purpose: the loop may finalize it."""
        self._abandoned.add(id(generator))

    def run(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """``asyncio.run(work())`` with the loop's reports and async generators watched."""
        return asyncio.run(self._watched(work))

    async def _watched(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._on_loop_report)
        firstiter, finalizer = sys.get_asyncgen_hooks()

        def started(generator: AsyncGenerator[Any, Any]) -> None:
            self._started.add(generator)
            if firstiter is not None:
                firstiter(generator)

        def finalized(generator: AsyncGenerator[Any, Any]) -> None:
            if id(generator) not in self._abandoned:
                self.suspended.append(f"{_where(generator)} (finalized by the loop)")
            if finalizer is not None:
                finalizer(generator)

        sys.set_asyncgen_hooks(firstiter=started, finalizer=finalized)
        try:
            result = await work()
            # Let the cleanup the work scheduled (an abandoned generator's aclose) run, then look.
            me = asyncio.current_task()
            gc.collect()
            for _ in range(200):
                await asyncio.sleep(0)
                if not [task for task in asyncio.all_tasks() if task is not me]:
                    break
            gc.collect()
            self.suspended += [_where(generator) for generator in list(self._started) if generator.ag_frame is not None]
            self.pending_tasks += [repr(task) for task in asyncio.all_tasks() if task is not me]
            return result
        finally:
            sys.set_asyncgen_hooks(firstiter=firstiter, finalizer=finalizer)

    def _on_loop_report(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.loop_reports.append(f"{context.get('message')}: {context.get('exception')!r}")

    def problems(self) -> list[str]:
        """Everything recorded, one line each."""
        return [
            *(f"loop report: {r}" for r in self.loop_reports),
            *(f"unraisable: {r}" for r in self.unraisable),
            *(f"thread error: {r}" for r in self.thread_errors),
            *(f"async generator left suspended: {r}" for r in self.suspended),
            *(f"task left pending: {r}" for r in self.pending_tasks),
        ]
