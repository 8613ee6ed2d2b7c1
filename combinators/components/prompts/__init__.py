"""Prompt templates (string and chat), their message parts, prompt values and template formats:
the room where they are written. Import them from ``combinators.prompts``,
``combinators.prompt_values``; an old import from here warns
(``effects.deprecation.reexports_moved_to`` says how)."""

import typing as _typing

from effects.deprecation import reexports_moved_to as _reexports_moved_to

if _typing.TYPE_CHECKING:
    from combinators.prompts import *  # noqa: F403
    from combinators.prompt_values import *  # noqa: F403
else:
    __getattr__ = _reexports_moved_to(__name__, ("combinators.prompts", "combinators.prompt_values"))

__all__: list[str] = []
