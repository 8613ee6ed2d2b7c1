"""Deadlines: where ``timeout`` (a call's or ``with_timeout``'s) becomes a point in time.

>>> d = earlier(Deadline(5.0, "a", 5.0), Deadline(3.0, "b", 3.0))
>>> d.owner, str(d.error())
('b', 'b timed out after 3 s')
"""

from __future__ import annotations

from typing import final

from effects.errors import StepTimeout


@final
class Deadline:
    __slots__ = ("at", "owner", "seconds")

    def __init__(self, at: float, owner: str, seconds: float) -> None:
        self.at = at
        self.owner = owner
        self.seconds = seconds

    def error(self) -> StepTimeout:
        return StepTimeout(f"{self.owner} timed out after {self.seconds:g} s")


def earlier(a: Deadline | None, b: Deadline) -> Deadline:
    return b if a is None or b.at < a.at else a
