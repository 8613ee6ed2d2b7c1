"""The reference the comparisons stand on: LangServe 0.3.3's Python client and LangChain.js's
``RemoteRunnable`` against LangServe 0.3.3 serving the chains (``langserve_app.py``) revive
LangChain objects and warn nothing."""

from __future__ import annotations

from typing import Any

from tests.integration.serving.langserve.chains import AGENT_ANSWER, ANSWER
from tests.integration.serving.langserve.matrix import COMPARED, JS_COMPARED, LANGSERVE_FAILS, classes, failed

WORDS = ["the", " ", "lamp", " ", "flashes", " ", "twice"]


def test_the_reference_langserve_on_langserve(from_langserve: dict[str, Any]) -> None:
    """What the comparison stands on: LangServe's client revives its own server's objects."""
    assert from_langserve["chat.invoke"] == ANSWER
    assert from_langserve["chat.stream"] == WORDS
    assert from_langserve["model.invoke"]["class"] == "AIMessage"
    assert from_langserve["model.invoke"]["content"] == ANSWER
    assert [c["class"] for c in from_langserve["model.stream"]] == ["AIMessageChunk"] * len(WORDS)
    assert [c["content"] for c in from_langserve["model.stream"]] == WORDS
    assert [(d["class"], d["metadata"]["page"]) for d in from_langserve["retriever.invoke"]] == [("Document", 1)]
    assert from_langserve["dict.invoke"] == {"answer": ANSWER, "question": "How does the lamp flash?", "length": 24}
    assert from_langserve["agent_executor.invoke"] == {"input": "6 x 7?", "output": AGENT_ANSWER}
    assert from_langserve["prompt.invoke"]["class"] == "ChatPromptValueConcrete"
    assert "AIMessageChunk" in classes(from_langserve["chat.astream_events"])
    assert [call for call in COMPARED if failed(from_langserve[call])] == []
    for call in LANGSERVE_FAILS:
        assert from_langserve[call] == {"error": "KeyError: 'tool_call_id'"}
    assert from_langserve["warnings"] == [] and from_langserve["logged"] == [] and from_langserve["stderr"] == ""


def test_the_reference_langchain_js_on_langserve(js_from_langserve: dict[str, Any]) -> None:
    """What the comparison stands on: LangChain.js revives LangServe's objects, prints nothing."""
    assert js_from_langserve["chat.invoke"] == ANSWER
    assert js_from_langserve["chat.batch"] == [ANSWER, ANSWER]
    assert js_from_langserve["model.invoke"]["class"] == "AIMessage"
    assert {c["class"] for c in js_from_langserve["model.stream"]} == {"AIMessageChunk"}
    assert [d["class"] for d in js_from_langserve["retriever.invoke"]] == ["Document"]
    assert js_from_langserve["prompt.invoke"]["class"] == "ChatPromptValue"
    streamed = [
        e["data"]["chunk"] for e in js_from_langserve["chat.streamEvents"] if e["event"] == "on_chat_model_stream"
    ]
    assert "".join(c["content"] for c in streamed) == ANSWER
    assert [call for call in JS_COMPARED if failed(js_from_langserve[call])] == []
    assert js_from_langserve["printed"] == [] and js_from_langserve["stderr"] == ""
