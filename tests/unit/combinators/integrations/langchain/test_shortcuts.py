"""Shortcuts for LangChain components that are not runnables: a text splitter over our
Documents, a vector store as our retriever (added to through our Documents), LangChain
embeddings as ours."""

import asyncio

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter

from combinators import RunnableLambda
from combinators.documents import Document
from combinators.integrations.langchain import add_documents, embeddings_of, split_with, vector_store_retriever


def test_a_splitter_splits_our_documents_keeping_metadata_and_order() -> None:
    split = split_with(RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0))
    pieces = split.invoke([Document("one two three four", {"source": "a.md"}), Document("five", {"source": "b.md"})])
    assert all(isinstance(piece, Document) for piece in pieces)
    assert [piece.page_content for piece in pieces] == ["one two", "three", "four", "five"]
    assert [piece.metadata["source"] for piece in pieces] == ["a.md", "a.md", "a.md", "b.md"]
    assert split.name == "RecursiveCharacterTextSplitter"


def test_split_documents_feed_a_langchain_store_read_as_our_retriever() -> None:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    split = split_with(RecursiveCharacterTextSplitter(chunk_size=12, chunk_overlap=0))
    ids = add_documents(store, split.invoke([Document("fog over the bay", {"n": 1}, id="doc")]))
    assert len(ids) == 2
    retriever = vector_store_retriever(store, k=1)
    found = (RunnableLambda(str.strip) | retriever).invoke(" bay ")
    assert found == [Document("bay", {"n": 1}, id=ids[1])]


def test_langchain_embeddings_serve_our_vector_store() -> None:
    theirs = DeterministicFakeEmbedding(size=8)
    ours = embeddings_of(theirs)
    assert ours.embed_query("fog") == theirs.embed_query("fog")
    assert asyncio.run(ours.aembed_documents(["a", "b"])) == theirs.embed_documents(["a", "b"])
