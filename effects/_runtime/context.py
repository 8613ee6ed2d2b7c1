"""The scope of the step running here: how nested calls and custom events find their run.

>>> current_scope() is None
True
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import TYPE_CHECKING

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
