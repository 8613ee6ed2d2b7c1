"""The scope of the step running here: how nested calls and custom events find their run
(``current_scope``, and ``dispatch_custom_event`` from inside any running step).

>>> current_scope() is None
True
>>> dispatch_custom_event("progress", 1)
Traceback (most recent call last):
...
RuntimeError: dispatch_custom_event('progress') must be called from inside a running step
"""

from __future__ import annotations

import inspect
from contextvars import ContextVar
from types import CodeType, FrameType
from typing import TYPE_CHECKING, Final

from effects.config import ConfigLike

if TYPE_CHECKING:
    from effects._runtime.scope import RunScope
    from effects.scope import Scope

CURRENT_SCOPE: ContextVar[RunScope | None] = ContextVar("combinators_scope", default=None)


def current_scope() -> Scope | None:
    """The scope of the step running here, if any (nested calls become its children).

    Only steps run with a config or under an observer set it: an unobserved call with no
    config carries no context (that is what keeps it fast), and then this is ``None``
    inside it too.
    """
    return CURRENT_SCOPE.get()


RUN_FRAMES: Final[set[CodeType]] = set()
"""Code objects of the runtime's entry points (filled by ``effects._runtime.calls``)."""


def _inside_a_run() -> bool:
    # Unobserved calls and streams carry no context of their own (that is what keeps
    # them fast), so only on this rare path do we look up the stack for one of the
    # runtime's entry frames.
    frame: FrameType | None = inspect.currentframe()
    while frame is not None:
        if frame.f_code in RUN_FRAMES:
            return True
        frame = frame.f_back
    return False


def dispatch_custom_event(name: str, data: object, *, config: ConfigLike = None) -> None:
    """Emit a custom event from inside a running step (no config needed).

    Inside an unobserved run it does nothing; outside any run it is a misuse and
    raises (see the module's example). ``config`` is accepted for code written for the
    peer, which needs it on older Pythons, and ignored: the running step is found by
    its context.
    """
    scope = CURRENT_SCOPE.get()
    if scope is None:
        if _inside_a_run():
            return  # an unobserved run: nobody to tell
        raise RuntimeError(f"dispatch_custom_event({name!r}) must be called from inside a running step")
    scope.emit_custom(name, data)


async def adispatch_custom_event(name: str, data: object, *, config: ConfigLike = None) -> None:
    """Async ``dispatch_custom_event``.

    >>> import asyncio
    >>> from combinators import RunnableLambda
    >>> async def step(x):
    ...     await adispatch_custom_event("progress", {"at": x})
    ...     return x
    >>> async def main():
    ...     return [e["data"] async for e in RunnableLambda(step).astream_events(1)
    ...             if e["event"] == "on_custom_event"]
    >>> asyncio.run(main())
    [{'at': 1}]
    """
    dispatch_custom_event(name, data)
