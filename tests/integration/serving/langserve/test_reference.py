"""The reference the comparisons stand on: LangServe 0.3.3's Python client against LangServe
0.3.3 serving the five chains (``langserve_app.py``) revives LangChain objects, warns nothing."""

from __future__ import annotations

from typing import Any

from tests.integration.serving.langserve.chains import AGENT_ANSWER, ANSWER, GREETING
from tests.integration.serving.langserve.matrix import NO_REFERENCE, classes


def test_the_reference_langserve_on_langserve(from_langserve: dict[str, Any]) -> None:
    """What the comparison stands on: LangServe's client revives its own server's objects."""
    assert from_langserve["chat.invoke"] == ANSWER
    assert from_langserve["chat.stream"] == ["the", " ", "lamp", " ", "flashes", " ", "twice"]
    assert from_langserve["messages.invoke"]["class"] == "AIMessage"
    assert from_langserve["messages.invoke"]["content"] == GREETING
    assert {c["class"] for c in from_langserve["messages.stream"]} == {"AIMessageChunk"}
    assert [d["class"] for d in from_langserve["retriever.invoke"]] == ["Document", "Document"]
    assert from_langserve["agent.invoke"] == {"input": "6 x 7?", "output": AGENT_ANSWER}
    assert "AIMessageChunk" in classes(from_langserve["chat.astream_events"])
    for call in NO_REFERENCE:
        assert from_langserve[call] == {"error": "KeyError: 'tool_call_id'"}
    assert from_langserve["warnings"] == [] and from_langserve["logged"] == []
