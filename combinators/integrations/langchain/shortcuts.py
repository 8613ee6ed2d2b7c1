"""LangChain components that are not runnables, as ours: a text splitter as a runnable
over our Documents, a vector store as our retriever (and ``add_documents`` through our
Document), LangChain embeddings as our ``Embeddings``.

>>> from langchain_text_splitters import CharacterTextSplitter
>>> from combinators.documents import Document
>>> split = split_with(CharacterTextSplitter(separator=" ", chunk_size=4, chunk_overlap=0))
>>> split.invoke([Document("fog over bay", {"n": 1})])
[Document(metadata={'n': 1}, page_content='fog'), Document(metadata={'n': 1}, page_content='over'), Document(metadata={'n': 1}, page_content='bay')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast, final

import attrs

from combinators.integrations.langchain import _extra as _extra  # first: names a missing extra
from combinators import Runnable
from combinators.documents import Document
from combinators.embeddings import Embeddings
from combinators.integrations.langchain.runnable import from_langchain
from combinators.integrations.langchain.values import to_langchain, to_ours
from effects.authoring import Scope

if TYPE_CHECKING:
    from langchain_core.documents import BaseDocumentTransformer
    from langchain_core.embeddings import Embeddings as TheirEmbeddings
    from langchain_core.vectorstores import VectorStore


def _ours(value: object) -> list[Document]:
    return cast(list[Document], to_ours(value))


def _theirs(documents: Sequence[Document]) -> list[Any]:
    return cast(list[Any], to_langchain(list(documents)))


@final
@attrs.frozen(repr=False)
class SplitDocuments(Runnable[list[Document], list[Document]]):
    """A LangChain text splitter (any document transformer) over our Documents (made by `split_with`)."""

    splitter: BaseDocumentTransformer

    @property
    def name(self) -> str:
        """The splitter's class name."""
        return type(self.splitter).__name__

    def __repr__(self) -> str:
        return f"split_with({self.splitter!r})"

    def step_invoke(self, input: list[Document], scope: Scope, kwargs: Mapping[str, object]) -> list[Document]:
        """The splitter's ``transform_documents``, our Documents both ways."""
        return _ours(self.splitter.transform_documents(_theirs(input), **kwargs))


def split_with(splitter: BaseDocumentTransformer) -> Runnable[list[Document], list[Document]]:
    """A LangChain text splitter as a runnable from our Documents to their pieces (each
    keeps its document's metadata, as LangChain's do)."""
    return SplitDocuments(splitter)


def vector_store_retriever(store: VectorStore, **search_kwargs: object) -> Runnable[str, list[Document]]:
    """A LangChain vector store as our retriever (``search_kwargs`` as its ``as_retriever``
    takes them: ``k``, ``filter``...).

    >>> from langchain_core.embeddings import DeterministicFakeEmbedding
    >>> from langchain_core.vectorstores import InMemoryVectorStore
    >>> store = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))
    >>> add_documents(store, [Document("fog", id="d1"), Document("sun", id="d2")])
    ['d1', 'd2']
    >>> vector_store_retriever(store, k=1).invoke("sun")
    [Document(id='d2', metadata={}, page_content='sun')]
    """
    return from_langchain(store.as_retriever(search_kwargs=dict(search_kwargs)))


def add_documents(store: VectorStore, documents: Sequence[Document]) -> list[str]:
    """Add our Documents to a LangChain vector store; their ids, as the store gives them."""
    return store.add_documents(_theirs(documents))


@final
@attrs.frozen
class LangChainEmbeddings(Embeddings):
    """LangChain embeddings as ours (made by `embeddings_of`).

    >>> from langchain_core.embeddings import DeterministicFakeEmbedding
    >>> model = embeddings_of(DeterministicFakeEmbedding(size=4))
    >>> len(model.embed_query("fog")), model.embed_documents(("fog",)) == [model.embed_query("fog")]
    (4, True)
    """

    wrapped: TheirEmbeddings

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """The wrapped model's vectors of ``texts``."""
        return self.wrapped.embed_documents(list(texts))

    def embed_query(self, text: str) -> list[float]:
        """The wrapped model's vector of a query."""
        return self.wrapped.embed_query(text)

    async def aembed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """The wrapped model's async vectors of ``texts``."""
        return await self.wrapped.aembed_documents(list(texts))

    async def aembed_query(self, text: str) -> list[float]:
        """The wrapped model's async vector of a query."""
        return await self.wrapped.aembed_query(text)


def embeddings_of(embeddings: TheirEmbeddings) -> Embeddings:
    """LangChain embeddings as ours (for our vector store)."""
    return LangChainEmbeddings(embeddings)


__all__ = [
    "LangChainEmbeddings",
    "SplitDocuments",
    "add_documents",
    "embeddings_of",
    "split_with",
    "vector_store_retriever",
]
