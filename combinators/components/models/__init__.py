"""Chat models and completion models: the bases, the offline fakes, a small extractive model,
typed errors: the room where they are written. Import them from
``combinators.language_models``, ``combinators.outputs``; an old import from here warns
(``effects.deprecation.reexports_moved_to`` says how)."""

import typing as _typing

from effects.deprecation import reexports_moved_to as _reexports_moved_to

if _typing.TYPE_CHECKING:
    from combinators.language_models import *  # noqa: F403
    from combinators.outputs import *  # noqa: F403
else:
    __getattr__ = _reexports_moved_to(__name__, ("combinators.language_models", "combinators.outputs"))

__all__: list[str] = []
