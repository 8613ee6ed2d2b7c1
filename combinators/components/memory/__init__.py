"""Conversation memory: ``RunnableWithMessageHistory`` and the histories it keeps (in memory,
SQLite): the room where they are written. Import them from ``combinators.chat_history``; an old
import from here warns (``effects.deprecation.reexports_moved_to`` says how)."""

import typing as _typing

from effects.deprecation import reexports_moved_to as _reexports_moved_to

if _typing.TYPE_CHECKING:
    from combinators.chat_history import *  # noqa: F403
else:
    __getattr__ = _reexports_moved_to(__name__, ("combinators.chat_history",))

__all__: list[str] = []
