"""Documents, retrievers, BM25, embeddings and the in-memory vector store: the room where they
are written. Import them from ``combinators.retrievers``, ``combinators.documents``,
``combinators.vectorstores``, ``combinators.embeddings``; an old import from here warns
(``effects.deprecation.reexports_moved_to`` says how)."""

import typing as _typing

from effects.deprecation import reexports_moved_to as _reexports_moved_to

if _typing.TYPE_CHECKING:
    from combinators.retrievers import *  # noqa: F403
    from combinators.documents import *  # noqa: F403
    from combinators.vectorstores import *  # noqa: F403
    from combinators.embeddings import *  # noqa: F403
else:
    __getattr__ = _reexports_moved_to(
        __name__,
        ("combinators.retrievers", "combinators.documents", "combinators.vectorstores", "combinators.embeddings"),
    )

__all__: list[str] = []
