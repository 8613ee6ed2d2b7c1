"""What the tracing integration failed on: counted, logged, never raised into a run.

>>> before = failure_count()
>>> FAILURES.note("a meter's histograms", RuntimeError("gone"))
>>> failure_count() - before
1
"""

from __future__ import annotations

import logging
import threading
from typing import Final, final

_log = logging.getLogger("combinators.integrations.otel")


@final
class _Failures:
    """Failures of the projection and its metrics: counted for ``failure_count``, logged."""

    __slots__ = ("count", "_lock")

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def _counted(self) -> None:
        with self._lock:
            self.count += 1

    def record(self, effect: object, error: Exception) -> None:
        """The projection could not fold ``effect``."""
        self._counted()
        run = getattr(effect, "run", None)
        name = getattr(run, "name", "?")
        _log.warning("tracing dropped %s of run %r: %s: %s", type(effect).__name__, name, type(error).__name__, error)

    def note(self, what: str, error: Exception) -> None:
        """Something else failed (``what`` names it); the runs go on without it."""
        self._counted()
        _log.warning("tracing left out %s: %s: %s", what, type(error).__name__, error)


FAILURES: Final = _Failures()


def failure_count() -> int:
    """How many times tracing failed (since the process started): effects it could not
    fold, metrics it could not set up.

    >>> failure_count() >= 0
    True
    """
    return FAILURES.count
