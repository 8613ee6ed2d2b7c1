"""The rooms where the domain components are written, on the public core only.

Import components from their domain roots, named as LangChain's modules
(``combinators.prompts``, ``combinators.messages``, ``combinators.language_models``,
``combinators.output_parsers``, ``combinators.tools``, ``combinators.documents``,
``combinators.retrievers``, ``combinators.embeddings``, ``combinators.vectorstores``,
``combinators.chat_history``, ``combinators.prompt_values``, ``combinators.outputs``,
``combinators.agents``, ``combinators.load``, ``combinators.secrets``), and providers from
their integration (``combinators.integrations.openai``, ``combinators.integrations.aws``).

This package's flat namespace of every component is deprecated: each name still works
until the removal date, with a warning naming its new path.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     from combinators.components import GenericFakeChatModel
>>> print(caught[0].message)  # doctest: +ELLIPSIS
combinators.components.GenericFakeChatModel is deprecated: import it from combinators.language_models instead ...
"""

import importlib as _importlib
import sys as _sys
import typing as _typing

from effects.deprecation import ROOTS_REMOVAL as _ROOTS_REMOVAL
from effects.deprecation import ROOTS_SINCE as _ROOTS_SINCE
from effects.deprecation import Moved as _Moved
from effects.deprecation import moved_modules as _moved_modules
from effects.deprecation import note_deprecation as _note_deprecation

if _typing.TYPE_CHECKING:
    # Every name the flat namespace had, declared to the checkers (an old import is a
    # warning at run time, not a type error); composed from the new roots' ``__all__``.
    from combinators.chat_history import *  # noqa: F403
    from combinators.documents import *  # noqa: F403
    from combinators.embeddings import *  # noqa: F403
    from combinators.integrations.aws import *  # noqa: F403
    from combinators.integrations.openai import *  # noqa: F403
    from combinators.language_models import *  # noqa: F403
    from combinators.load import *  # noqa: F403
    from combinators.messages import *  # noqa: F403
    from combinators.output_parsers import *  # noqa: F403
    from combinators.outputs import *  # noqa: F403
    from combinators.prompt_values import *  # noqa: F403
    from combinators.prompts import *  # noqa: F403
    from combinators.retrievers import *  # noqa: F403
    from combinators.secrets import *  # noqa: F403
    from combinators.tools import *  # noqa: F403
    from combinators.vectorstores import *  # noqa: F403

_NEW_ROOTS = (
    "combinators.chat_history",
    "combinators.documents",
    "combinators.embeddings",
    "combinators.language_models",
    "combinators.load",
    "combinators.messages",
    "combinators.output_parsers",
    "combinators.outputs",
    "combinators.prompt_values",
    "combinators.prompts",
    "combinators.retrievers",
    "combinators.secrets",
    "combinators.tools",
    "combinators.vectorstores",
)
"""Where the old flat namespace's names live now (the root whose ``__all__`` has it)."""

_INTEGRATIONS = ("combinators.integrations.openai", "combinators.integrations.aws")
"""Where its provider names live now; imported only when such a name is asked for."""

_HOMES: dict[str, str] = {}
"""Name -> its new root, filled on the first use of an old name (later uses import nothing)."""


def _new_root(name: str) -> str | None:
    if not _HOMES:
        for root in _NEW_ROOTS:
            _HOMES.update(dict.fromkeys(_importlib.import_module(root).__all__, root))
    if name in _HOMES:
        return _HOMES[name]
    for root in _INTEGRATIONS:
        try:
            if name in _importlib.import_module(root).__all__:
                return root
        except ImportError:  # its extra is not installed: the name is not one of its
            continue
    return None


# The old module paths under this package, kept importable (with a dated warning naming the
# new path) by one finder instead of a file each: the modules merged into their concept's.
_moved_modules(
    {
        # the README's paths before the rooms
        "combinators.components.fake_models": _Moved("combinators.language_models"),
        "combinators.components.json_parser": _Moved("combinators.output_parsers"),
        # merged or renamed modules (issue 25 item 3)
        "combinators.components.messages.values": _Moved(
            "combinators.messages", source="combinators.components.messages.message_classes"
        ),
        "combinators.components.prompts.templates": _Moved(
            "combinators.prompts",
            also=("combinators.components.prompts.inputs", "combinators.components.prompts.message_likes"),
        ),
    }
)


if not _typing.TYPE_CHECKING:
    # Hidden from the checkers, so that a misspelled import from this package is an error.
    def __getattr__(name: str) -> object:
        root = None if name.startswith("_") else _new_root(name)
        if root is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        _note_deprecation(
            f"{__name__}.{name} is deprecated: import it from {root} instead",
            since=_ROOTS_SINCE,
            removal=_ROOTS_REMOVAL,
            stacklevel=2,
        )
        return getattr(_sys.modules[root], name)


__all__: list[str] = []
"""Nothing new is exported here: the names live in the domain roots listed above."""
