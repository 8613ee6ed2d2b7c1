"""The small ``run_manager`` a retriever written the LangChain way receives.

LangChain's retrievers override ``_get_relevant_documents(self, query, *, run_manager)``
(and ``_aget_relevant_documents``) and use the manager for a few things: passing
``callbacks=run_manager.get_child()`` to the runnables they call, and reporting text.
Here nested runs find their parent on their own (the runtime's context), so
``get_child()`` gives ``None`` (which every config accepts) and the reports are no-ops;
the run's id, tags and metadata are readable.

>>> manager = RetrieverRunManager(None, ("t",), {})
>>> manager.get_child(), manager.tags
(None, ('t',))
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import final
from uuid import UUID

import attrs


@final
@attrs.frozen
class RetrieverRunManager:
    """What ``run_manager`` offers a sync ``_get_relevant_documents``."""

    run_id: UUID | None
    tags: tuple[str, ...]
    metadata: Mapping[str, object]

    def get_child(self, tag: str | None = None) -> None:
        """Callbacks for nested calls: none are needed (nested runs find their parent)."""
        return None

    def on_text(self, text: str, **kwargs: object) -> None:
        """Accepted and ignored (there are no callback handlers to tell)."""

    def on_retry(self, retry_state: object, **kwargs: object) -> None:
        """Accepted and ignored."""


@final
@attrs.frozen
class AsyncRetrieverRunManager:
    """What ``run_manager`` offers an async ``_aget_relevant_documents``.

    >>> import asyncio
    >>> asyncio.run(AsyncRetrieverRunManager(None, (), {}).on_text("x")) is None
    True
    """

    run_id: UUID | None
    tags: tuple[str, ...]
    metadata: Mapping[str, object]

    def get_child(self, tag: str | None = None) -> None:
        """Callbacks for nested calls: none are needed (nested runs find their parent)."""
        return None

    async def on_text(self, text: str, **kwargs: object) -> None:
        """Accepted and ignored (there are no callback handlers to tell)."""

    async def on_retry(self, retry_state: object, **kwargs: object) -> None:
        """Accepted and ignored."""


@functools.cache
def takes_run_manager(hook: Callable[..., object]) -> bool:
    """Whether a retriever hook (the function on its class) has a ``run_manager`` parameter.

    >>> def written_for_langchain(self, query, *, run_manager): ...
    >>> takes_run_manager(written_for_langchain), takes_run_manager(lambda self, query: None)
    (True, False)
    """
    try:
        return "run_manager" in inspect.signature(hook).parameters
    except (TypeError, ValueError):
        return False
