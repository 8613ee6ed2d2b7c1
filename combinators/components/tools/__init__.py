"""Tools that answer tool calls with messages: ``@tool``, ``Tool``, ``StructuredTool``,
``BaseTool``: the room where they are written. Import them from ``combinators.tools``; an old
import from here warns (``effects.deprecation.reexports_moved_to`` says how)."""

import typing as _typing

from effects.deprecation import reexports_moved_to as _reexports_moved_to

if _typing.TYPE_CHECKING:
    from combinators.tools import *  # noqa: F403
else:
    __getattr__ = _reexports_moved_to(__name__, ("combinators.tools",))

__all__: list[str] = []
