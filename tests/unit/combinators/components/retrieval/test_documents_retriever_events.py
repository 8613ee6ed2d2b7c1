"""Retrievers in events: run type retriever, input {"query": q}, output the documents."""

from __future__ import annotations

import asyncio
from typing import Any

from combinators import RunnableLambda
from combinators.documents import Document
from combinators.retrievers import Bm25Index


def test_retriever_events_inside_a_chain() -> None:
    docs = [Document("the ferry sails at nine", id="a"), Document("the lamp is red", id="b")]
    retriever = Bm25Index.from_documents(docs).as_retriever(k=1)
    chain = RunnableLambda(str.strip) | retriever

    async def main() -> list[dict[str, Any]]:
        return [dict(e) async for e in chain.astream_events(" ferry ")]

    events = asyncio.run(main())
    mine = [e for e in events if e["name"] == "Bm25Retriever"]
    assert [e["event"] for e in mine] == ["on_retriever_start", "on_retriever_end"]
    assert mine[0]["data"] == {"input": {"query": "ferry"}}
    assert mine[1]["data"]["output"] == [docs[0]]
    assert mine[1]["data"]["input"] == {"query": "ferry"}


def test_retriever_runs_carry_the_peer_ls_metadata() -> None:
    # As the peer's: ls_retriever_name on every retriever's own run; a vector store's
    # also names the store and the embeddings (issue 26, the seed's stream_log).
    from combinators.embeddings import HashedNgramEmbeddings
    from combinators.vectorstores import InMemoryVectorStore

    store = InMemoryVectorStore.from_texts(["fog", "sun"], HashedNgramEmbeddings())
    bm25 = Bm25Index.from_documents([Document("fog")]).as_retriever(k=1)

    async def start_metadata(runnable: Any) -> dict[str, Any]:
        return [e async for e in runnable.astream_events("fog", version="v2")][0]["metadata"]

    assert asyncio.run(start_metadata(store.as_retriever())) == {
        "ls_retriever_name": "vectorstore",
        "ls_vector_store_provider": "InMemoryVectorStore",
        "ls_embedding_provider": "HashedNgramEmbeddings",
    }
    assert asyncio.run(start_metadata(bm25)) == {"ls_retriever_name": "bm25"}
    assert asyncio.run(start_metadata(bm25.with_config(metadata={"user": 1}))) == {
        "ls_retriever_name": "bm25",
        "user": 1,
    }
