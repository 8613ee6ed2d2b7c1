"""LangChain.js's ``RemoteRunnable`` (``@langchain/core`` 0.3.80) against our server and
against LangServe 0.3.3 serving the same chains: invoke, batch, stream, streamLog and
streamEvents v2 give the same revived objects and shapes (ids and times blanked)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.serving.langserve.chains import ANSWER
from tests.integration.serving.langserve.matrix import JS_COMPARED, JS_OURS_ONLY, classes, comparable, failed, known


@pytest.mark.parametrize("call", [known(call) for call in JS_COMPARED])
def test_langchain_js_gets_from_ours_what_it_gets_from_langserve(
    call: str, js_from_ours: dict[str, Any], js_from_langserve: dict[str, Any]
) -> None:
    assert comparable(call, js_from_ours[call]) == comparable(call, js_from_langserve[call])


@pytest.mark.parametrize("call", [known(call) for call in JS_OURS_ONLY])
def test_langchain_js_reads_our_agent_loop(call: str, js_from_ours: dict[str, Any]) -> None:
    """``agent_loop`` has no LangChain counterpart: its documented form (never read as a prompt
    value: no top-level ``text`` or ``messages``), with its messages revived."""
    got = js_from_ours[call]
    assert not failed(got), got
    if call.endswith("invoke"):
        assert got["output"] == "42" and got["kind"] == "agent_result"
        assert "class" not in got and not {"text", "messages"} & set(got)
        assert {"HumanMessage", "AIMessage", "ToolMessage"} <= classes(got["conversation"])
    if call.endswith("streamEvents"):
        kinds = [(e["event"], e["name"]) for e in got]
        assert ("on_tool_start", "multiply") in kinds and ("on_tool_end", "multiply") in kinds
        streamed = [e["data"]["chunk"] for e in got if e["event"] == "on_chat_model_stream"]
        assert streamed and {c["class"] for c in streamed} == {"AIMessageChunk"}


def test_langchain_js_prints_nothing_against_ours(js_from_ours: dict[str, Any]) -> None:
    assert js_from_ours["printed"] == [] and js_from_ours["stderr"] == ""


def test_a_remote_model_pipes_into_langchain_jss_string_parser(
    js_from_ours: dict[str, Any], js_from_langserve: dict[str, Any]
) -> None:
    """``remote.pipe(new StringOutputParser())``: the parser reads real message chunks."""
    for got in (js_from_ours, js_from_langserve):
        assert got["model.pipe.invoke"] == ANSWER
        assert "".join(got["model.pipe.stream"]) == ANSWER and len(got["model.pipe.stream"]) > 1


def test_chunk_content_is_a_string_in_stream_and_events(js_from_ours: dict[str, Any]) -> None:
    assert all(isinstance(c["content"], str) for c in js_from_ours["model.stream"])
    streamed = [e["data"]["chunk"] for e in js_from_ours["model.streamEvents"] if e["event"] == "on_chat_model_stream"]
    assert streamed and all(c["class"] == "AIMessageChunk" and isinstance(c["content"], str) for c in streamed)
    assert all("pageContent" in d for d in js_from_ours["retriever.invoke"])
