"""Output parsers: text, JSON (partial values or patches while streaming), and the base of
parsers written as classes: the room where they are written. Import them from
``combinators.output_parsers``; an old import from here warns
(``effects.deprecation.reexports_moved_to`` says how)."""

import typing as _typing

from effects.deprecation import reexports_moved_to as _reexports_moved_to

if _typing.TYPE_CHECKING:
    from combinators.output_parsers import *  # noqa: F403
else:
    __getattr__ = _reexports_moved_to(__name__, ("combinators.output_parsers",))

__all__: list[str] = []
