"""Tool-calling agents: ``agent_loop`` and its values, and LangChain's ``AgentExecutor`` shape:
the room where they are written.

Import them from ``combinators.agents``. The names this package re-exported before still
work until the removal date, with a dated warning naming their home (as
``combinators.components``).
"""

import typing as _typing

from effects.deprecation import reexports_moved_to as _reexports_moved_to

if _typing.TYPE_CHECKING:
    # The names this package re-exported, declared to the checkers (an old import is a
    # warning at run time, not a type error); composed from their homes' ``__all__``.
    from combinators.agents import *  # noqa: F403

if not _typing.TYPE_CHECKING:
    # Hidden from the checkers, so that a misspelled import from this package is an error.
    __getattr__ = _reexports_moved_to(__name__, ("combinators.agents",))

__all__: list[str] = []
"""Nothing is exported here: the names live in their homes, above."""
