"""LangChain components that are not runnables, as ours: a text splitter as a runnable
over our Documents, a document loader as a runnable giving them, a vector store as our
retriever (and ``add_documents`` through our Document), LangChain embeddings as our
``Embeddings``, a LangChain tool as our tool.

>>> from langchain_text_splitters import CharacterTextSplitter
>>> from combinators.documents import Document
>>> split = split_with(CharacterTextSplitter(separator=" ", chunk_size=4, chunk_overlap=0))
>>> split.invoke([Document("fog over bay", {"n": 1})])
[Document(metadata={'n': 1}, page_content='fog'), Document(metadata={'n': 1}, page_content='over'), Document(metadata={'n': 1}, page_content='bay')]
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, Never, TypeVar, final, overload

import attrs

from combinators import Runnable
from combinators.documents import Document
from combinators.embeddings import Embeddings
from combinators.integrations.langchain.runnable import from_langchain
from combinators.integrations.langchain.conversion import to_langchain, to_ours
from combinators import RunnableTool
from combinators.components.messages.message_classes import ToolMessage
from combinators.components.run_fields import NamedRunFields
from combinators.components.tools.message_tools import tool_message
from effects.authoring import Scope, arun_on_total, is_list_of, is_str_mapping, run_on_total

if TYPE_CHECKING:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import BaseDocumentTransformer
    from langchain_core.documents import Document as TheirDocument
    from langchain_core.tools import BaseTool as TheirTool
    from langchain_core.embeddings import Embeddings as TheirEmbeddings
    from langchain_core.vectorstores import VectorStore


def _ours(value: object) -> list[Document]:
    converted = to_ours(value)
    if not is_list_of(converted, Document):
        raise TypeError(f"expected LangChain documents, got {type(value).__name__}")
    return list(converted)


def _theirs(documents: Sequence[Document]) -> list[TheirDocument]:
    from langchain_core.documents import Document as TheirDocument

    converted = to_langchain(list(documents))
    if not is_list_of(converted, TheirDocument):
        raise TypeError(f"expected our Documents, got {documents!r}")
    return list(converted)


@final
@attrs.frozen(repr=False)
class SplitDocuments(NamedRunFields, Runnable[list[Document], list[Document]]):
    """A LangChain text splitter (any document transformer) over our Documents (made by `split_with`)."""

    splitter: BaseDocumentTransformer

    @property
    def name(self) -> str:
        """The given ``name``, else the splitter's class name."""
        return self.run_name or type(self.splitter).__name__

    def __repr__(self) -> str:
        return f"split_with({self.splitter!r})"

    def step_invoke(self, input: list[Document], scope: Scope, kwargs: Mapping[str, object]) -> list[Document]:
        """The splitter's ``transform_documents``, our Documents both ways."""
        return _ours(self.splitter.transform_documents(_theirs(input), **kwargs))


def split_with(splitter: BaseDocumentTransformer) -> Runnable[list[Document], list[Document]]:
    """A LangChain text splitter as a runnable from our Documents to their pieces (each
    keeps its document's metadata, as LangChain's do)."""
    return SplitDocuments(splitter)


In = TypeVar("In")


@final
@attrs.frozen(repr=False)
class LoadDocuments(NamedRunFields, Runnable[In, list[Document]], Generic[In]):
    """A LangChain document loader as a runnable giving our Documents (made by `load_with`)."""

    make: Callable[[In], BaseLoader]
    shown: str

    @property
    def name(self) -> str:
        """The given ``name``, else the loader's class name."""
        return self.run_name or self.shown

    def __repr__(self) -> str:
        return f"load_with({self.shown})"

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> list[Document]:
        """The loader's documents, all of them."""
        return _ours(list(self.make(input).lazy_load()))

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> list[Document]:
        """The loader's documents, loaded by its async path."""
        return _ours([document async for document in self.make(input).alazy_load()])

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[list[Document]]:
        """One document at a time, as the loader's ``lazy_load`` gives them (each a list
        of one: the chunks add up to the whole list)."""

        def loaded(input: In) -> Iterator[list[Document]]:
            for document in self.make(input).lazy_load():
                yield _ours([document])

        return run_on_total(inputs, loaded)

    def step_astream(
        self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[list[Document]]:
        """One document at a time, from the loader's ``alazy_load``."""

        async def loaded(input: In) -> AsyncIterator[list[Document]]:
            async for document in self.make(input).alazy_load():
                yield _ours([document])

        return arun_on_total(inputs, loaded)


@overload
def load_with(loader: BaseLoader) -> Runnable[object, list[Document]]: ...
@overload
def load_with(loader: Callable[[In], BaseLoader]) -> Runnable[In, list[Document]]: ...
def load_with(loader: BaseLoader | Callable[[Never], BaseLoader]) -> Runnable[Never, list[Document]]:
    """A LangChain document loader (any ``BaseLoader``, langchain-community's included) as a
    runnable giving our Documents: a loader made once (its input is ignored), or a function
    making one from the input (a path, a URL). Streamed, the documents come one at a time.

    >>> from langchain_core.document_loaders import BaseLoader
    >>> from langchain_core.documents import Document as TheirDocument
    >>> class Lines(BaseLoader):
    ...     def __init__(self, text): self.text = text
    ...     def lazy_load(self):
    ...         for n, line in enumerate(self.text.split(";")):
    ...             yield TheirDocument(line, metadata={"line": n})
    >>> load_with(Lines).invoke("fog;sun")
    [Document(metadata={'line': 0}, page_content='fog'), Document(metadata={'line': 1}, page_content='sun')]
    >>> list(load_with(Lines("a;b")).stream(None))
    [[Document(metadata={'line': 0}, page_content='a')], [Document(metadata={'line': 1}, page_content='b')]]
    """
    from langchain_core.document_loaders import BaseLoader as TheirLoader

    if isinstance(loader, TheirLoader):
        made: BaseLoader = loader
        return LoadDocuments[object](lambda _: made, type(loader).__name__)
    if not callable(loader):
        raise TypeError(
            f"load_with expects a LangChain BaseLoader or a function making one, got {type(loader).__name__}"
        )
    shown = getattr(loader, "__name__", type(loader).__name__)
    return LoadDocuments[Never](loader, str(shown))


def tool_of(tool: TheirTool) -> RunnableTool[object | ToolMessage]:
    """A LangChain tool (any ``BaseTool``) as our tool: its name and description, and its
    arguments' JSON Schema (LangChain's ``tool_call_schema``, what a model is shown) as the
    schema our agent loop checks a call against. Given a tool call, it answers with our
    ``ToolMessage``; the tool itself runs as a wrapped LangChain object (its run inside ours).

    >>> from langchain_core.tools import tool as their_tool
    >>> @their_tool
    ... def add(a: int, b: int = 1) -> int:
    ...     "Add two numbers."
    ...     return a + b
    >>> ours = tool_of(add)
    >>> ours.name, ours.args_schema["required"], ours.invoke({"a": 2, "b": 3})
    ('add', ['a'], 5)
    >>> ours.invoke({"name": "add", "args": {"a": 2}, "id": "call_1", "type": "tool_call"})
    ToolMessage('3', name='add', tool_call_id='call_1')
    >>> ours.invoke({"a": "two"})
    Traceback (most recent call last):
    ...
    combinators.nodes.tool.ToolArgumentsError: tool 'add' got invalid arguments:
      $.a: 'two' is not of type 'integer'
    """
    from langchain_core.utils.function_calling import convert_to_openai_tool

    schema: object = convert_to_openai_tool(tool)["function"].get("parameters", {"type": "object"})
    if not is_str_mapping(schema):
        raise TypeError(f"the tool {tool.name!r} has no JSON Schema of its arguments: {schema!r}")
    properties = schema.get("properties", {})
    # LangChain's single-input tools (``Tool``) take the one string, not a dict.
    single = "__arg1" if is_str_mapping(properties) and list(properties) == ["__arg1"] else None
    wrapped = from_langchain(tool, object, object)
    built = RunnableTool.from_runnable(
        wrapped, name=tool.name, description=tool.description, args_schema=schema, single_arg=single
    )
    return built.with_reply(tool_message)


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
    "LoadDocuments",
    "SplitDocuments",
    "add_documents",
    "embeddings_of",
    "load_with",
    "split_with",
    "tool_of",
    "vector_store_retriever",
]
