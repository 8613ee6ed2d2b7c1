"""What runs on a Dask worker: one chunk of items, under this library's interpreter.

The step arrives once per worker (a broadcast blob, unpickled once and kept while it is
in use); each chunk's items and keyword arguments arrive with its task. Cancellation
is a ``distributed.Event`` named after the batch: one watcher thread per worker and
batch polls it and raises a local flag, which the interpreter checks each time a run
starts (a flag read, not a round trip to the scheduler). It polls (``is_set``) rather
than waits: a wait still pending on the scheduler when the cluster closes is cancelled
there, and distributed logs each as an ERROR traceback.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections import OrderedDict
from typing import Final, Never, final

from distributed import Event, get_client, get_worker

from combinators.integrations.dask.travel import pack
from effects import Step
from effects.executors import run_items

_STEPS_KEPT: Final = 16
_steps: OrderedDict[str, Step[Never, object]] = OrderedDict()
"""The steps shipped to this worker, by token: each is only run on its own shipped items."""
_steps_lock = threading.Lock()


def run_chunk(chunk: bytes, *, step: bytes, token: str, cancel: str, asynchronous: bool) -> bytes:
    """Run one chunk of a batch; its outcomes, packed for the trip back."""
    runnable = _step(token, step)
    kwargs, items = pickle.loads(chunk)
    watch = _watch(cancel)
    try:
        outcomes = run_items(
            runnable,
            items,
            kwargs,
            asynchronous=asynchronous,
            where=get_worker().address,
            cancelled=watch.flag.is_set,
        )
    finally:
        watch.leave()
    return pack(outcomes)


def _step(token: str, blob: bytes) -> Step[Never, object]:
    with _steps_lock:
        kept = _steps.get(token)
        if kept is not None:
            _steps.move_to_end(token)
            return kept
    step: Step[Never, object] = pickle.loads(blob)
    with _steps_lock:
        _steps[token] = step
        while len(_steps) > _STEPS_KEPT:
            _steps.popitem(last=False)
    return step


_watches: dict[str, _Watch] = {}
_watches_lock = threading.Lock()
POLL_SECONDS: Final = 0.1
"""How often a watcher asks the scheduler whether the batch was cancelled (and checks
whether anyone still needs it): the most a cancelled chunk runs on unaware."""
IDLE_SECONDS: Final = 2.0
"""How long a watcher outlives the last chunk of its batch that ran here. Chunks of one
batch land one after another, each too short to overlap the next: a watcher that left
with each would cost every chunk a new event and a round trip to the scheduler."""


@final
class _Watch:
    """Raises ``flag`` when the batch's cancellation event is set."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.flag = threading.Event()
        self.users = 0
        self.idle_since = time.monotonic()
        self.event = Event(name, client=get_client())

    def start(self) -> None:
        # A batch cancelled before this worker saw it must not start a single item.
        if self.event.is_set():
            self.flag.set()
            return
        threading.Thread(target=self._wait, name=f"combinators-{self.name}", daemon=True).start()

    def leave(self) -> None:
        with _watches_lock:
            self.users -= 1
            if self.users == 0:
                self.idle_since = time.monotonic()
                if self.flag.is_set():
                    _watches.pop(self.name, None)

    def _wait(self) -> None:
        try:
            while not self.event.is_set():
                with _watches_lock:
                    if self.users == 0 and time.monotonic() - self.idle_since > IDLE_SECONDS:
                        _watches.pop(self.name, None)
                        return
                time.sleep(POLL_SECONDS)
        except Exception:  # the worker is shutting down: nobody is left to stop
            return
        self.flag.set()
        with _watches_lock:
            if self.users == 0:
                _watches.pop(self.name, None)


def _watch(name: str) -> _Watch:
    with _watches_lock:
        watch = _watches.get(name)
        fresh = watch is None
        if watch is None:
            watch = _watches[name] = _Watch(name)
        watch.users += 1
    if fresh:
        watch.start()
    return watch
