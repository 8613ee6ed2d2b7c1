"""Consumers of astream_events and astream_log."""

from combinators import StreamEvent
from combinators.messages import AIMessageChunk

from tests.typesafety.app.rag import rag_chain


async def tokens(question: str) -> list[str]:
    found: list[str] = []
    async for event in rag_chain.astream_events(question, include_types=["chat_model"]):
        if event["event"] == "on_chat_model_stream":
            chunk: AIMessageChunk = event["data"]["chunk"]
            found.append(chunk.text)
    return found


def names(events: list[StreamEvent]) -> list[str]:
    return [event["name"] for event in events if event["event"] == "on_chain_start"]


async def changed_paths(question: str) -> list[str]:
    paths: list[str] = []
    async for patch in rag_chain.astream_log(question, include_names=["StrOutputParser"]):
        paths.extend(op["path"] for op in patch.ops if op["op"] == "add")
    return paths
