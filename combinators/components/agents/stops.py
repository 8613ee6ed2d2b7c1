"""Why an agent run stopped: a closed union of values.

A limit is never passed off as an answer: ``MaxIterations`` and ``TimedOut`` say so,
whatever the output (``None``, or the answer of one last call without tools when the
policy asks for it).

>>> MaxIterations(3)
MaxIterations(n=3)
>>> isinstance(Finished(), STOP_TYPES)
True
"""

from __future__ import annotations

from typing import Final, TypeAlias, final

import attrs


@final
@attrs.frozen
class Finished:
    """The model answered without asking for a tool.

    >>> Finished() == Finished()
    True
    """


@final
@attrs.frozen
class MaxIterations:
    """The model was called ``n`` times (the policy's ``max_iterations``) and still asked for tools.

    >>> MaxIterations(15).n
    15
    """

    n: int


@final
@attrs.frozen
class TimedOut:
    """The policy's ``timeout`` (in seconds) ran out; tool calls in flight were cancelled.

    >>> TimedOut(2.5).seconds
    2.5
    """

    seconds: float


@final
@attrs.frozen
class ReturnedDirect:
    """Every call of the last step went to a ``return_direct`` tool: its result is the output.

    >>> ReturnedDirect("search").tool
    'search'
    """

    tool: str


@final
@attrs.frozen(eq=False)
class Halted:
    """The run ended with ``error`` (a tool's error under ``tool_errors="raise"``, the
    model's error, a cancellation): the stop of ``partial_result(error)``.

    Equal when they hold the same error object.

    >>> error = ValueError("boom")
    >>> Halted(error) == Halted(error), Halted(error) == Halted(ValueError("boom"))
    (True, False)
    """

    error: BaseException

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Halted) and other.error is self.error

    def __hash__(self) -> int:
        return id(self.error)


StopReason: TypeAlias = "Finished | MaxIterations | TimedOut | ReturnedDirect | Halted"
"""Why an agent run stopped (a closed union)."""

STOP_TYPES: Final = (Finished, MaxIterations, TimedOut, ReturnedDirect, Halted)
"""The classes of ``StopReason``, for ``isinstance``."""
