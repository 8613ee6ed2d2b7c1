"""Retrievers written the LangChain way: hooks taking ``run_manager`` (issue 26)."""

from __future__ import annotations

import asyncio

from combinators import RunnableLambda
from combinators.documents import Document
from combinators.retrievers import BaseRetriever


class HardCoded(BaseRetriever):
    documents: list[Document]

    def _get_relevant_documents(self, query: str, *, run_manager: object) -> list[Document]:
        # As LangChain code does: hand the children the manager's callbacks.
        child = RunnableLambda(lambda q: f"<{q}>").invoke(query, {"callbacks": run_manager.get_child()})  # type: ignore[attr-defined]
        return [*self.documents, Document(child)]


class AsyncToo(BaseRetriever):
    def _get_relevant_documents(self, query: str, *, run_manager: object) -> list[Document]:
        return [Document("sync " + query)]

    async def _aget_relevant_documents(self, query: str, *, run_manager: object) -> list[Document]:
        await run_manager.on_text("searching")  # type: ignore[attr-defined]
        return [Document("async " + query)]


def test_a_hook_taking_run_manager_runs_sync_and_async() -> None:
    retriever = HardCoded(documents=[Document("hello world!")])
    assert retriever.invoke("q") == [Document("hello world!"), Document("<q>")]
    assert asyncio.run(retriever.ainvoke("q")) == [Document("hello world!"), Document("<q>")]


def test_an_async_hook_taking_run_manager_gets_the_async_manager() -> None:
    assert asyncio.run(AsyncToo().ainvoke("q")) == [Document("async q")]
    assert AsyncToo().invoke("q") == [Document("sync q")]


def test_the_nested_run_is_the_retriever_s_child() -> None:
    retriever = HardCoded(documents=[])

    async def events() -> list[tuple[str, int]]:
        return [(e["event"], len(e["parent_ids"])) async for e in retriever.astream_events("q", version="v2")]

    assert ("on_chain_start", 1) in asyncio.run(events())
