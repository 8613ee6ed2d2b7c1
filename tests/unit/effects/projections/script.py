"""A small builder for hand-written effect sequences (what the runtime would emit)."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

import attrs

from effects.effect_values import (
    NOTHING,
    CustomEmitted,
    Effect,
    RunEnded,
    RunFailed,
    RunInfo,
    RunStarted,
    RunStreamed,
)

T0 = 1_764_425_817.195  # 2025-11-29T14:16:57.195+00:00
STEP = 0.001


def uid(n: int) -> UUID:
    return UUID(int=n)


def sid(n: int) -> str:
    return str(UUID(int=n))


class Script:
    """Appends effects with increasing ``at`` (``STEP`` seconds apart, from ``T0``)."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []
        self._now = T0

    def _at(self) -> float:
        at = self._now
        self._now = round(self._now + STEP, 6)
        return at

    def run(
        self,
        n: int,
        name: str,
        run_type: str = "chain",
        parent: RunInfo | None = None,
        tags: tuple[str, ...] = (),
        metadata: Mapping[str, object] | None = None,
    ) -> RunInfo:
        parents = () if parent is None else (*parent.parent_ids, parent.run_id)
        return RunInfo(uid(n), parents, name, run_type, tags, metadata or {})

    def start(self, run: RunInfo, input: object = NOTHING) -> RunStarted:
        effect = RunStarted(run, input, self._at())
        self.effects.append(effect)
        return effect

    def stream(self, run: RunInfo, *chunks: object) -> None:
        for chunk in chunks:
            self.effects.append(RunStreamed(run, chunk, self._at()))

    def end(self, run: RunInfo, input: object, output: object) -> RunEnded:
        effect = RunEnded(run, input, output, self._at())
        self.effects.append(effect)
        return effect

    def fail(self, run: RunInfo, input: object, error: BaseException) -> RunFailed:
        effect = RunFailed(run, input, error, self._at())
        self.effects.append(effect)
        return effect

    def custom(self, run: RunInfo, name: str, data: object) -> None:
        self.effects.append(CustomEmitted(run, name, data, self._at()))


@attrs.frozen
class Piece:
    """A chunk type that adds with ``+`` (like a message chunk)."""

    text: str

    def __add__(self, other: object) -> Piece:
        if isinstance(other, Piece):
            return Piece(self.text + other.text)
        return NotImplemented


@attrs.frozen
class Message:
    """A message-like value with str content (token text comes from ``.content``)."""

    content: str
    id: str | None = None


class Secret:
    """A value that must never appear in any JSON form."""

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"Secret({self._value!r})"  # deliberately leaky: only redaction may save it

    def __str__(self) -> str:
        return self._value
