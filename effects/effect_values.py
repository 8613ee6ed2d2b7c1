"""The effect union: what running a chain emits, as frozen values.

The runtime (``effects._runtime.scope``) is the only place that builds these, and only when
someone observes the run. Every projection (events v1/v2, run log, listeners,
recordings) is a fold over a sequence of them.

>>> from uuid import UUID
>>> run = RunInfo(UUID(int=1), (), "inc", "chain", ("t",), {})
>>> RunEnded(run, 1, 2, 0.5).output
2
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from enum import Enum
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, final, get_args
from uuid import UUID

import attrs

from effects.deprecation import renamed_exports

RunType: TypeAlias = Literal["chain", "prompt", "parser", "chat_model", "llm", "retriever", "tool"]
"""What kind of step a run is: how events name it (``on_<type>_start``) and filters select it."""

RUN_TYPES: Final[tuple[RunType, ...]] = get_args(RunType)
"""Every run type, in the order above."""


def as_run_type(value: str) -> RunType:
    """``value`` as a run type (a ``ValueError`` if it is none).

    >>> as_run_type("tool")
    'tool'
    """
    for run_type in RUN_TYPES:
        if value == run_type:
            return run_type
    raise ValueError(f"unknown run type {value!r}; expected one of {', '.join(RUN_TYPES)}")


class Nothing(Enum):
    """The type of ``NOTHING``, the one "no value" of the library: a run's input while it
    streams in, a stream that gave no chunk, a key that is not there. Compared with
    ``is`` (an enum, so ``x is NOTHING`` narrows ``x``); survives pickling."""

    NOTHING = "NOTHING"

    def __repr__(self) -> str:
        return "NOTHING"


NOTHING: Final = Nothing.NOTHING

if TYPE_CHECKING:
    # The second name of NOTHING (a run's input while it streams in), deprecated: one name
    # for one value. Declared until its removal so that an old import is a warning, not an error.
    NO_INPUT: Final = NOTHING
else:
    __getattr__ = renamed_exports(__name__, {"NO_INPUT": "NOTHING"}, since="2026-12-02", removal="2027-03-01")

NO_PARAMS: Final[Mapping[str, object]] = MappingProxyType({})
"""The params of a run whose step describes none (most steps)."""


@final
@attrs.frozen
class RunInfo:
    """Who a run is: shared by every effect of that run.

    >>> RunInfo(UUID(int=2), (UUID(int=1),), "step", "chain", (), {}).parent_id
    UUID('00000000-0000-0000-0000-000000000001')
    """

    run_id: UUID
    parent_ids: tuple[UUID, ...]
    """Root first, immediate parent last; empty for the root."""
    name: str
    run_type: str
    """A ``RunType`` for the library's steps; a runnable of your own may name another."""
    tags: tuple[str, ...]
    metadata: Mapping[str, object]
    params: Mapping[str, object] = NO_PARAMS
    """What the step says about this call, for traces (``Step.describe_params``): a
    model's ``provider``, ``model``, ``temperature``, ``max_tokens``, ``top_p``,
    ``stop``; a tool's ``description``; empty for most steps."""
    whole_output: bool = False
    """True when this run's ``RunStreamed`` effects are not chunks it streamed while it
    ran but its whole output, computed in one go and given on as the call's output after
    that: the root of a streamed call whose step does not stream by itself (a model
    without a token stream, a prompt). v2 shows no stream events for such a run, as the
    peer's (v1 and the run log show that output as the root's stream). A sub-run made
    here never has it: its whole output shows as no stream at all."""

    @property
    def parent_id(self) -> UUID | None:
        """The immediate parent's id, or None for the root.

        >>> RunInfo(UUID(int=1), (), "root", "chain", (), {}).parent_id is None
        True
        """
        return self.parent_ids[-1] if self.parent_ids else None


@final
@attrs.frozen
class RunStarted:
    """A run began; ``input`` is ``NOTHING`` when it runs in streaming mode.

    >>> RunStarted(RunInfo(UUID(int=1), (), "r", "chain", (), {}), "x", 0.0).input
    'x'
    """

    run: RunInfo
    input: object
    at: float


@final
@attrs.frozen
class RunStreamed:
    """A run produced one output chunk.

    >>> RunStreamed(RunInfo(UUID(int=1), (), "r", "chain", (), {}), "c", 0.0).chunk
    'c'
    """

    run: RunInfo
    chunk: object
    at: float


@final
@attrs.frozen
class RunEnded:
    """A run finished with ``output`` (for a stream: its chunks added with ``+``).

    >>> RunEnded(RunInfo(UUID(int=1), (), "r", "chain", (), {}), 1, 2, 0.0).input
    1
    """

    run: RunInfo
    input: object
    output: object
    at: float


@final
@attrs.frozen
class RunFailed:
    """A run ended with an error (cancellation and early close included).

    ``tool_call_id`` is the id of the tool call a failed tool run was answering
    (``None`` for other runs, and for a tool called without one).

    >>> RunFailed(RunInfo(UUID(int=1), (), "r", "chain", (), {}), 1, ValueError("x"), 0.0).error
    ValueError('x')
    """

    run: RunInfo
    input: object
    error: BaseException
    at: float
    tool_call_id: str | None = attrs.field(default=None, kw_only=True)


@final
@attrs.frozen
class CustomEmitted:
    """A user's custom event, dispatched from inside ``run``.

    >>> CustomEmitted(RunInfo(UUID(int=1), (), "r", "chain", (), {}), "progress", 1, 0.0).name
    'progress'
    """

    run: RunInfo
    name: str
    data: object
    at: float


Effect = RunStarted | RunStreamed | RunEnded | RunFailed | CustomEmitted
"""The closed union the runtime emits."""
