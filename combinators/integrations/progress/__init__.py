"""A progress bar for long batches and streams, drawn by tqdm (extra ``progress``).

``chain.batch(inputs, progress=True)`` (or the config flag ``{"progress": True}``, also
for ``stream``) shows a bar fed by ``ProgressFold``, a projection of the effect stream:
items done out of the total, failures, rate and time left (for a stream: chunks and
their rate). ``tqdm.auto`` draws it in a terminal or as a notebook widget. Importing
this module fills the ``effects.hooks.PROGRESS`` hook; ``progress=True`` loads it.

>>> from combinators import RunnableLambda
>>> RunnableLambda(lambda x: 2 * x).batch([1, 2, 3], progress=True)
[2, 4, 6]
"""

from __future__ import annotations

import sys
import threading
from typing import IO, final

from tqdm.auto import tqdm

from effects.hooks import PROGRESS
from effects.projections.progress import Progress, ProgressFold
from effects.effect_values import Effect

__all__ = ["FAILED_COLOUR", "ProgressBar"]

FAILED_COLOUR = "red"
"""The bar's colour once an item failed (tqdm colours the terminal bar and the widget)."""


@final
class ProgressBar:
    """An observer that draws a run's ``Progress`` with tqdm; ``close`` when the call ends.

    >>> import io
    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted, RunEnded
    >>> out = io.StringIO()
    >>> bar = ProgressBar(1, "job", file=out)
    >>> run = RunInfo(UUID(int=1), (), "job", "chain", (), {})
    >>> bar.emit(RunStarted(run, 1, 0.0)); bar.emit(RunEnded(run, 1, 2, 0.5)); bar.close()
    >>> bar.last
    Progress(total=1, done=1, failed=0, chunks=0, elapsed=0.5)
    >>> "1/1" in out.getvalue()
    True
    """

    __slots__ = ("_fold", "_bar", "_lock", "last")

    def __init__(self, total: int | None, description: str, file: IO[str] | None = None) -> None:
        self._fold = ProgressFold(total)
        unit = "item" if total is not None else "chunk"
        self._bar = tqdm(total=total, desc=description, unit=unit, file=file or sys.stderr, leave=True)
        self._lock = threading.Lock()
        self.last: Progress | None = None
        """The latest progress shown."""

    def emit(self, effect: Effect) -> None:
        with self._lock:
            progress = self._fold.feed(effect)
            if progress is None:
                return
            self.last = progress
            shown = progress.finished if progress.total is not None else progress.chunks
            self._bar.update(shown - self._bar.n)
            if progress.failed:
                if self._bar.colour != FAILED_COLOUR:  # a notebook's finished bar is green otherwise
                    self._bar.colour = FAILED_COLOUR
                self._bar.set_postfix(failed=progress.failed, refresh=False)

    def close(self) -> None:
        with self._lock:
            self._bar.close()


@final
class _Provider:
    """What fills the ``PROGRESS`` hook."""

    def view(self, total: int | None, description: str) -> ProgressBar:
        return ProgressBar(total, description)


PROGRESS.fill(_Provider())
