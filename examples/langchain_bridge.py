"""LangChain's components inside a chain of ours, offline: the bridge's tour.

langchain-community's ``DirectoryLoader`` (a ``TextLoader`` per file) reads the bundled corpus,
LangChain's recursive splitter cuts it into pieces, and LangChain's ``InMemoryVectorStore``
with its ``DeterministicFakeEmbedding`` holds them; our prompt, model and parser answer
around LangChain's retriever:

    {"context": LangChain retriever | format_documents_as_string, "question": passthrough}
    | our prompt | our chat model | our StrOutputParser

It prints how many documents and pieces it loaded, the answer as it streams, and the
runs our ``astream_events`` (v2) shows, LangChain's inner ones included, indented below
their parents. Then the other direction: the same chain of ours, through
``to_langchain``, is a node of a LangGraph ``StateGraph``; streamed with
``stream_mode="messages"`` the graph shows our model's tokens as LangGraph shows any
LangChain model's, and ``"updates"`` the node's answer. The model is the library's local extractive one (it answers with the
context's best-matching sentences, word by word). The fake embedding makes the retrieval
deterministic, not semantic: some questions find their answer in the pieces it retrieves,
others get "I don't know" (swap in real embeddings for real retrieval).

Run it with ``python examples/langchain_bridge.py "your question"`` (the ``langchain`` extra
and ``langchain-community``, both in the ``dev`` extra).
"""

from __future__ import annotations

import asyncio
import sys
import warnings
from pathlib import Path
from typing import Any, TypedDict

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter

from langgraph.graph import END, START, StateGraph

with warnings.catch_warnings():
    # langchain-community says on import that it is being sunset; its loaders still work.
    warnings.simplefilter("ignore", DeprecationWarning)
    from langchain_community.document_loaders import DirectoryLoader, TextLoader

from combinators import Runnable, RunnableLambda, RunnableParallel, RunnablePassthrough
from combinators.documents import format_documents_as_string
from combinators.integrations.langchain import (
    add_documents,
    load_with,
    split_with,
    to_langchain,
    vector_store_retriever,
)
from combinators.language_models import ExtractiveChatModel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate

CORPUS = Path(__file__).parent / "corpus"
DEFAULT_QUESTION = "How high are the tides?"


def corpus_loader(folder: Path) -> DirectoryLoader:
    """langchain-community's loader of a folder: one LangChain document per Markdown file,
    each read by its ``TextLoader``."""
    return DirectoryLoader(str(folder), glob="*.md", loader_cls=TextLoader, loader_kwargs={"encoding": "utf-8"})


def build_store() -> tuple[InMemoryVectorStore, int, int]:
    """LangChain's store filled with the corpus's pieces: loaded and split by LangChain's
    components, as runnables of ours over our Documents."""
    splitter = RecursiveCharacterTextSplitter(chunk_size=400, chunk_overlap=0)
    load_and_split = load_with(corpus_loader) | split_with(splitter)
    documents = load_with(corpus_loader).invoke(CORPUS)
    pieces = load_and_split.invoke(CORPUS)
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=64))
    add_documents(store, pieces)
    return store, len(documents), len(pieces)


def build_chain(store: InMemoryVectorStore) -> Runnable[str, str]:
    """Our prompt, model and parser around LangChain's retriever."""
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "Answer the question from the context only."),
            ("human", "Context:\n{context}\n\nQuestion: {question}"),
        ]
    )
    context = vector_store_retriever(store, k=4) | format_documents_as_string
    inputs = RunnableParallel(context=context, question=RunnablePassthrough[str]())
    return inputs | prompt | ExtractiveChatModel(max_sentences=2) | StrOutputParser()


async def stream_with_events(chain: Runnable[str, str], question: str) -> tuple[list[str], list[str]]:
    """The answer's tokens and every run's start and end, from one ``astream_events``."""
    tokens: list[str] = []
    runs: list[str] = []
    async for event in chain.astream_events(question, version="v2"):
        kind = event["event"]
        if kind == "on_chain_stream" and not event["parent_ids"]:
            tokens.append(str(event["data"].get("chunk", "")))
        elif kind.endswith(("_start", "_end")):
            runs.append(f"{'  ' * len(event['parent_ids'])}{kind} {event['name']}")
    return tokens, runs


class Turn(TypedDict, total=False):
    """The graph's state: a question in, its answer out."""

    question: str
    answer: str


def build_graph(chain: Runnable[str, str]) -> Any:
    """A LangGraph graph whose one node is our chain, as a LangChain runnable."""
    node = (
        RunnableLambda(lambda turn: turn["question"], name="question")
        | chain
        | RunnableLambda(lambda answer: {"answer": answer}, name="answer")
    )
    graph: Any = StateGraph(Turn)
    graph.add_node("answer", to_langchain(node))
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    return graph.compile()


def stream_graph(graph: Any, question: str) -> tuple[str, list[str]]:
    """The model's tokens as LangGraph streams messages, and the nodes' updates."""
    tokens = [message.text for message, _ in graph.stream({"question": question}, stream_mode="messages")]
    updates = [
        f"{node}: {sorted(update)}"
        for step in graph.stream({"question": question}, stream_mode="updates")
        for node, update in step.items()
    ]
    return "".join(tokens), updates


def main(question: str) -> None:
    store, documents, pieces = build_store()
    print("corpus:")
    print(f"  {documents} documents, {pieces} pieces")
    tokens, runs = asyncio.run(stream_with_events(build_chain(store), question))
    print("answer:")
    print(f"  {''.join(tokens)}")
    print("runs:")
    for line in runs:
        print(f"  {line}")
    streamed, updates = stream_graph(build_graph(build_chain(store)), question)
    print("langgraph messages:")
    print(f"  {streamed}")
    print("langgraph updates:")
    for line in updates:
        print(f"  {line}")


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]) or DEFAULT_QUESTION)
