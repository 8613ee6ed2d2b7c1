"""Documents, the unit that retrievers return and prompts format, and `BaseRetriever`.

A `Document` is a frozen value: text, a metadata mapping and an optional id. It reads
like LangChain's (same field names, same repr) so retrieved documents look familiar in
events and logs. A retriever is a `Runnable[str, list[Document]]`.

>>> docs = [Document("Tides turn twice a day.", {"source": "tides.md"}), Document("Fog.")]
>>> print(format_documents_as_string(docs))
Tides turn twice a day.
<BLANKLINE>
Fog.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, final
from uuid import UUID

import attrs

from combinators.components.run_fields import NamedRunFields
from combinators import Runnable
from combinators.authoring import DeclaredFields, is_library_code
from combinators.components.retrieval.run_manager import (
    AsyncRetrieverRunManager,
    RetrieverRunManager,
    takes_run_manager,
)
from effects.errors import InputError
from effects.authoring import Scope
from effects.authoring import in_worker, is_a

if TYPE_CHECKING:
    from combinators.authoring import InputDraw

__all__ = ["BaseRetriever", "Document", "format_documents_as_string", "load_text_documents"]


def _describe(value: object) -> str:
    return f"{type(value).__name__}: {value!r}"


def _require_str(name: str, value: object) -> None:
    if not isinstance(value, str):
        raise TypeError(f"Document {name} must be a str, got {_describe(value)}")


def _check_page_content(_instance: object, _attribute: object, value: str) -> None:
    _require_str("page_content", value)


def _copy_metadata(value: Mapping[str, object]) -> dict[str, object]:
    # A private copy: a caller mutating their dict afterwards must not change a frozen
    # value (and a plain dict keeps pickling and LangChain's repr).
    if not is_a(value, Mapping):
        raise TypeError(f"Document metadata must be a mapping of str to values, got {_describe(value)}")
    copied: dict[str, object] = {}
    for key, item in value.items():
        if not is_a(key, str):
            raise TypeError(f"Document metadata keys must be str, got {_describe(key)}")
        copied[key] = item
    return copied


def _require_optional_str(name: str, value: object) -> None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"Document {name} must be a str or None, got {_describe(value)}")


def _check_id(_instance: object, _attribute: object, value: str | None) -> None:
    _require_optional_str("id", value)


@final
@attrs.frozen(repr=False)
class Document:
    """A piece of text with metadata and an optional id.

    >>> Document("q-0", metadata={"i": 0}, id="0")
    Document(id='0', metadata={'i': 0}, page_content='q-0')
    >>> Document("q-0").metadata
    {}
    """

    page_content: str = attrs.field(validator=_check_page_content)
    # Excluded from the hash (dicts are unhashable); equal documents still hash equal
    # because equality compares the metadata as well.
    metadata: Mapping[str, object] = attrs.field(factory=dict[str, object], converter=_copy_metadata, hash=False)
    id: str | None = attrs.field(default=None, validator=_check_id)

    def __repr__(self) -> str:
        # LangChain's field order; the id only when set, so the repr stays a valid
        # expression that builds an equal value.
        id_part = "" if self.id is None else f"id={self.id!r}, "
        return f"Document({id_part}metadata={self.metadata!r}, page_content={self.page_content!r})"


def format_documents_as_string(documents: Iterable[Document]) -> str:
    """Join the page contents with a blank line, the usual way to put docs in a prompt.

    >>> format_documents_as_string([Document("a"), Document("b")])
    'a\\n\\nb'
    """
    return "\n\n".join(document.page_content for document in checked_documents(documents, "format_documents_as_string"))


def checked_documents(documents: Iterable[Document], taker: str) -> tuple[Document, ...]:
    """``documents`` as a tuple, each one checked to be a ``Document`` (``taker`` names
    what refuses anything else: the retrievers, stores and helpers that take documents).

    >>> checked_documents([Document("a"), "b"], "add_documents")
    Traceback (most recent call last):
    ...
    TypeError: add_documents expects Documents, got str at index 1
    """
    checked = tuple(documents)
    for index, document in enumerate(checked):
        if not is_a(document, Document):
            raise TypeError(f"{taker} expects Documents, got {type(document).__name__} at index {index}")
    return checked


def load_text_documents(folder: str | Path, pattern: str = "*.md") -> list[Document]:
    """One Document per matching UTF-8 file, sorted by file name (so ids are stable).

    The id is the file name without its suffix; the metadata holds the file name as
    ``source`` and the first line's text (without a leading ``#``) as ``title``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "fog.md").write_text("# Fog\\n\\nIt rolls in.\\n", encoding="utf-8")
    ...     load_text_documents(folder)
    [Document(id='fog', metadata={'source': 'fog.md', 'title': 'Fog'}, page_content='# Fog\\n\\nIt rolls in.')]
    """
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"load_text_documents expects a folder, got {str(root)!r}")
    documents: list[Document] = []
    for path in sorted(root.glob(pattern), key=lambda found: found.name):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8").strip()
        title = text.splitlines()[0].lstrip("#").strip() if text else ""
        documents.append(Document(text, {"source": path.name, "title": title}, id=path.stem))
    return documents


def _run_facts(scope: Scope) -> tuple[UUID | None, tuple[str, ...], Mapping[str, object]]:
    run = scope.run
    return (None if run is None else run.run_id), scope.config.tags, scope.config.metadata


class BaseRetriever(NamedRunFields, Runnable[str, list[Document]], DeclaredFields, fields=False):
    """A query in, the relevant Documents out; runs as a ``retriever`` run.

    Subclass it as a frozen attrs class and implement `_get_relevant_documents`.
    A hook written the LangChain way, ``_get_relevant_documents(self, query, *,
    run_manager)``, gets a small ``RetrieverRunManager`` (``get_child()``, ``on_text``).
    Override `_aget_relevant_documents` too when there is a native async way; without
    one, an async call runs your sync hook on a worker thread of the library's pool, so
    it never holds the event loop (the library's own in-memory retrievers run theirs
    inline). Events show the input of a nested retriever run as ``{"query": q}``, like
    LangChain's.

    >>> @attrs.frozen
    ... class Echo(BaseRetriever):
    ...     def _get_relevant_documents(self, query: str) -> list[Document]:
    ...         return [Document(query)]
    >>> Echo().invoke("fog")
    [Document(metadata={}, page_content='fog')]
    """

    __slots__ = ()
    run_type = "retriever"

    def _get_relevant_documents(self, query: str) -> list[Document]:
        """Hook: the documents relevant to the query, best first."""
        raise NotImplementedError(f"{type(self).__name__} must implement _get_relevant_documents")

    async def _aget_relevant_documents(self, query: str) -> list[Document]:
        """Hook: async `_get_relevant_documents` (by default the sync one: on a worker
        thread when it is a user's, inline when it is the library's own)."""
        if is_library_code(type(self)._get_relevant_documents):
            return self._get_relevant_documents(query)
        return await in_worker(None, self._get_relevant_documents, query)

    def _query(self, input: object, kwargs: Mapping[str, object]) -> str:
        if kwargs:
            # LangChain forwards invoke(**kwargs) to the hook; ours take the query only,
            # so an argument that would be silently dropped is an error instead.
            raise InputError(f"{self.name} takes no keyword arguments at run time, got {sorted(kwargs)}")
        if not isinstance(input, str):
            raise InputError(f"{self.name} expects a str query, got {type(input).__name__}: {input!r}")
        return input

    def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, object]) -> list[Document]:
        """Run the sync hook on the query (with a ``run_manager`` if the hook takes one)."""
        query = self._query(input, kwargs)
        hook: Callable[..., list[Document]] = getattr(self, "_get_relevant_documents")  # any signature
        if takes_run_manager(type(self)._get_relevant_documents):
            return hook(query, run_manager=RetrieverRunManager(*_run_facts(scope)))
        return hook(query)

    async def step_ainvoke(self, input: str, scope: Scope, kwargs: Mapping[str, object]) -> list[Document]:
        """Run the async hook on the query (with a ``run_manager`` if the hook takes one;
        a user's sync hook, when there is no async one, on a worker thread of this run)."""
        query = self._query(input, kwargs)
        hooks = type(self)
        if hooks._aget_relevant_documents is BaseRetriever._aget_relevant_documents:
            if not is_library_code(hooks._get_relevant_documents):
                return await in_worker(scope, self.step_invoke, query, scope, {})
            return self.step_invoke(query, scope, {})
        hook: Callable[..., Awaitable[list[Document]]] = getattr(self, "_aget_relevant_documents")  # any signature
        if takes_run_manager(hooks._aget_relevant_documents):
            return await hook(query, run_manager=AsyncRetrieverRunManager(*_run_facts(scope)))
        return await hook(query)

    def run_metadata(self, params: Mapping[str, object]) -> Mapping[str, object]:
        """The metadata this retriever adds to its own runs, as the peer's:
        ``ls_retriever_name``, its name without ``Retriever``, lower-cased.

        >>> @attrs.frozen
        ... class WikiRetriever(BaseRetriever):
        ...     def _get_relevant_documents(self, query: str) -> list[Document]:
        ...         return []
        >>> WikiRetriever().run_metadata({})
        {'ls_retriever_name': 'wiki'}
        """
        name = self.name
        name = name[len("Retriever") :] if name.startswith("Retriever") else name.removesuffix("Retriever")
        return {"ls_retriever_name": name.lower()}

    def input_draw(self) -> InputDraw:
        """Short natural-language queries (``combinators.testing.inputs_for`` asks)."""
        from combinators.authoring import DrawText  # loaded when asked

        return DrawText()

    def describe_input(self, input: str) -> object:
        """Events show a nested retriever's input as ``{"query": q}``.

        >>> @attrs.frozen
        ... class Nothing(BaseRetriever):
        ...     def _get_relevant_documents(self, query: str) -> list[Document]:
        ...         return []
        >>> Nothing().describe_input("fog")
        {'query': 'fog'}
        """
        return {"query": input}
