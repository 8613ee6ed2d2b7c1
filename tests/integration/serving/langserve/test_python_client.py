"""LangServe 0.3.3's Python client (``langserve.RemoteRunnable``) against our server and
against LangServe's own, serving the same chains: the same revived objects (AIMessage,
AIMessageChunk, Document, ChatPromptValue), the same shapes once ids and times are blanked,
no warning."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.serving.langserve.chains import AGENT_ANSWER, ANSWER
from tests.integration.serving.langserve.matrix import (
    COMPARED,
    LANGSERVE_FAILS,
    OURS_ONLY,
    classes,
    comparable,
    failed,
    known,
)


@pytest.mark.parametrize("call", [known(call) for call in COMPARED])
def test_langserves_client_gets_from_ours_what_it_gets_from_langserve(
    call: str, from_ours: dict[str, Any], from_langserve: dict[str, Any]
) -> None:
    assert comparable(call, from_ours[call]) == comparable(call, from_langserve[call])


@pytest.mark.parametrize("call", sorted(LANGSERVE_FAILS))
def test_langserves_client_reads_our_agent_executors_log_and_events(call: str, from_ours: dict[str, Any]) -> None:
    """Where LangServe's client fails on LangServe, it must still read ours, with real objects."""
    got = from_ours[call]
    assert not failed(got), got
    assert {"AIMessage", "ToolMessage"} <= classes(got)
    assert AGENT_ANSWER in str(got)
    if call.endswith("astream_events"):
        kinds = [(e["event"], e["name"]) for e in got]
        assert ("on_tool_start", "multiply") in kinds and ("on_tool_end", "multiply") in kinds
        assert kinds[0] == ("on_chain_start", "/agent_executor") and kinds[-1] == ("on_chain_end", "/agent_executor")
        streamed = [e["data"]["chunk"] for e in got if e["event"] == "on_chat_model_stream"]
        assert streamed and {c["class"] for c in streamed} == {"AIMessageChunk"}


@pytest.mark.parametrize("call", sorted(OURS_ONLY))
def test_langserves_client_reads_our_agent_loop(call: str, from_ours: dict[str, Any]) -> None:
    """``agent_loop`` has no LangChain counterpart: its documented form, messages revived."""
    got = from_ours[call]
    assert not failed(got), got
    assert "42" in str(got)
    if call.endswith("astream_events"):
        kinds = [(e["event"], e["name"]) for e in got]
        assert ("on_tool_start", "multiply") in kinds and ("on_tool_end", "multiply") in kinds
        assert {"AIMessageChunk", "ToolMessage"} <= classes(got)


def test_langserves_client_revives_our_messages_documents_and_prompt_values(from_ours: dict[str, Any]) -> None:
    assert from_ours["model.invoke"]["class"] == "AIMessage"
    assert [c["class"] for c in from_ours["model.batch"]] == ["AIMessage", "AIMessage"]
    assert {c["class"] for c in from_ours["model.stream"]} == {"AIMessageChunk"}
    assert [d["class"] for d in from_ours["retriever.invoke"]] == ["Document"]
    assert from_ours["prompt.invoke"]["class"] == "ChatPromptValueConcrete"
    # where LangServe streams a prompt value untagged (its client gets a dict), ours is revived
    (prompt_end,) = [e for e in from_ours["chat.astream_events"] if e["event"] == "on_prompt_end"]
    assert prompt_end["data"]["output"]["class"] == "ChatPromptValueConcrete"
    streamed = [e["data"]["chunk"] for e in from_ours["chat.astream_events"] if e["event"] == "on_chat_model_stream"]
    assert {c["class"] for c in streamed} == {"AIMessageChunk"}
    assert "".join(c["content"] for c in streamed) == ANSWER


def test_langserves_client_warns_nothing_against_ours(from_ours: dict[str, Any]) -> None:
    """In particular not "unsupported event type: 'metadata'" under astream_events."""
    assert from_ours["warnings"] == []
    assert from_ours["logged"] == []
    assert from_ours["stderr"] == ""
