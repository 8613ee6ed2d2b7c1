"""The call matrix both clients run (route x method) and how its records are read."""

from __future__ import annotations

from typing import Any

from tests.integration.serving.langserve.chains import INPUTS

METHODS = ("invoke", "batch", "stream", "stream_log", "astream_events")
CALLS = [f"{route}.{method}" for route in INPUTS for method in METHODS]
# LangServe's own client cannot read its own server's tool-calling agent events: reviving a
# ToolAgentAction ({"type": "AgentActionMessageLog", "tool_call_id": ...}) runs ToolMessage's
# validator, which raises KeyError('tool_call_id'). There is no reference for these two.
NO_REFERENCE = {"agent.stream_log", "agent.astream_events"}


def classes(value: Any) -> set[str]:
    """The LangChain classes the client revived anywhere in ``value``."""
    if isinstance(value, dict):
        found = {value["class"]} if "class" in value else set()
        return found.union(*(classes(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(classes(v) for v in value))
    return set()
