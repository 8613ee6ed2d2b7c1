"""Progress of a long call, as a fold over its effects: done, failed, rate, ETA.

The items of a batch are its root runs (the runs at the depth of the first one seen);
``ProgressFold.feed`` returns a new ``Progress`` each time one of them ends or fails,
and, for a single streamed root (no ``total``), each time it streams a chunk. Times are
the effects' own, so a replay gives the same figures.

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted, RunEnded, RunFailed
>>> fold = ProgressFold(total=4)
>>> runs = [RunInfo(UUID(int=i), (), "item", "chain", (), {}) for i in range(1, 5)]
>>> [fold.feed(RunStarted(run, i, 10.0)) for i, run in enumerate(runs)]
[None, None, None, None]
>>> fold.feed(RunEnded(runs[0], 0, "a", 11.0))
Progress(total=4, done=1, failed=0, chunks=0, elapsed=1.0)
>>> progress = fold.feed(RunFailed(runs[1], 1, ValueError("x"), 12.0))
>>> progress.finished, progress.rate, progress.eta
(2, 1.0, 2.0)
"""

from __future__ import annotations

from typing import final

import attrs

from effects.projections.filters import expect_effect
from effects.effect_values import Effect, RunEnded, RunFailed, RunStarted, RunStreamed


@final
@attrs.frozen
class Progress:
    """Where a long call stands; ``elapsed`` is seconds from its first start to now.

    >>> Progress(total=None, done=0, failed=0, chunks=5, elapsed=2.0).chunk_rate
    2.5
    """

    total: int | None
    done: int
    failed: int
    chunks: int
    elapsed: float

    @property
    def finished(self) -> int:
        """Items that ended, either way."""
        return self.done + self.failed

    @property
    def rate(self) -> float | None:
        """Items finished per second (None before the first or without elapsed time)."""
        return self.finished / self.elapsed if self.finished and self.elapsed > 0 else None

    @property
    def chunk_rate(self) -> float | None:
        """Chunks streamed per second (None before the first)."""
        return self.chunks / self.elapsed if self.chunks and self.elapsed > 0 else None

    @property
    def eta(self) -> float | None:
        """Seconds until every item has finished, at the rate so far (None if unknown)."""
        rate = self.rate
        if self.total is None or rate is None:
            return None
        return max(self.total - self.finished, 0) / rate


@final
class ProgressFold:
    """Folds effects into ``Progress`` values (see the module docstring).

    >>> ProgressFold().feed("x")
    Traceback (most recent call last):
    ...
    TypeError: ProgressFold.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got str
    """

    __slots__ = ("total", "_depth", "_first", "_done", "_failed", "_chunks")

    def __init__(self, total: int | None = None) -> None:
        self.total = total
        self._depth: int | None = None
        self._first = 0.0
        self._done = 0
        self._failed = 0
        self._chunks = 0

    def feed(self, effect: Effect) -> Progress | None:
        """The progress this effect makes (None when it changes nothing shown)."""
        expect_effect("ProgressFold.feed", effect)
        depth = len(effect.run.parent_ids)
        if self._depth is None:
            if not isinstance(effect, RunStarted):
                return None
            self._depth, self._first = depth, effect.at
        if depth != self._depth:
            return None
        if isinstance(effect, RunEnded):
            self._done += 1
        elif isinstance(effect, RunFailed):
            self._failed += 1
        elif isinstance(effect, RunStreamed) and self.total is None:
            self._chunks += 1
        else:
            return None
        return Progress(self.total, self._done, self._failed, self._chunks, effect.at - self._first)
