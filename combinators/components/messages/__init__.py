"""Chat messages as frozen values: coercion from message-likes, and the ``+`` of streamed
chunks: the room where they are written. Import them from ``combinators.messages``; an old
import from here warns (``effects.deprecation.reexports_moved_to`` says how)."""

import typing as _typing

from effects.deprecation import reexports_moved_to as _reexports_moved_to

if _typing.TYPE_CHECKING:
    from combinators.messages import *  # noqa: F403
else:
    __getattr__ = _reexports_moved_to(__name__, ("combinators.messages",))

__all__: list[str] = []
