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
