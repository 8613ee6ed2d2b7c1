"""The call matrix LangServe's Python client runs (route x method) and how its records are read."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.integration.serving.langserve.chains import AGENT_ANSWER
from tests.integration.serving.langserve.chains import CALLS as INPUTS

METHODS = ("invoke", "batch", "stream", "stream_log", "astream_events")
CALLS = [f"{route}.{method}" for route in INPUTS for method in METHODS]
# LangServe's own client cannot read its own server's tool-calling agent log or events:
# reviving a ToolAgentAction ({"type": "AgentActionMessageLog", "tool_call_id": ...}) runs
# ToolMessage's validator, which raises KeyError('tool_call_id'). No reference for these.
LANGSERVE_FAILS = {"agent_executor.stream_log", "agent_executor.astream_events"}
# ``/agent`` (our agent_loop) has no LangChain counterpart: LangServe does not serve it.
OURS_ONLY = {f"agent.{method}" for method in METHODS}
COMPARED = sorted(set(CALLS) - LANGSERVE_FAILS - OURS_ONLY)
# LangChain.js's names for the same calls; it reads LangServe's AgentExecutor log and events.
JS_METHODS = ("invoke", "batch", "stream", "streamLog", "streamEvents")
JS_PYTHON_NAMES = {"streamLog": "stream_log", "streamEvents": "astream_events"}
JS_COMPARED = [f"{route}.{method}" for route in INPUTS if route != "agent" for method in JS_METHODS]
JS_OURS_ONLY = [f"agent.{method}" for method in JS_METHODS]
# ``AgentExecutor`` runs on ``agent_loop`` here (see combinators.agents): no inner
# RunnableSequence/RunnableAssign/parser runs. Its log and events are compared on what a
# user of them reads: the model's streamed chunks and the tool calls (events), the keys of
# each streamed chunk and the answer (log).
AGENT_EXECUTOR_EVENTS = {"on_chat_model_stream", "on_tool_start", "on_tool_end"}
# A parallel's branches stream concurrently: their chunks and events come in either order.
UNORDERED_ROUTES = {"dict"}


KNOWN_FAILURES: dict[str, str] = {}
"""Calls that fail today, each with why; marked strict xfail (remove the entry once fixed)."""


def known(call: str) -> Any:
    """``call`` as a pytest parameter, an expected failure if ``KNOWN_FAILURES`` lists it."""
    reason = KNOWN_FAILURES.get(call)
    if reason is None:
        return pytest.param(call)
    return pytest.param(call, marks=pytest.mark.xfail(strict=True, reason=reason))


def xfail_known(what: str) -> Any:
    """The strict xfail mark of a ``KNOWN_FAILURES`` entry that is not one call of the matrix."""
    return pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[what])


def failed(record: Any) -> bool:
    """Whether the client script recorded an exception for this call (``{"error": ...}``)."""
    return isinstance(record, dict) and set(record) == {"error"}


def classes(value: Any) -> set[str]:
    """The LangChain classes the client revived anywhere in ``value``."""
    if isinstance(value, dict):
        found = {value["class"]} if "class" in value else set()
        return found.union(*(classes(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(classes(v) for v in value))
    return set()


def _sorted(values: list[Any]) -> list[Any]:
    return sorted(values, key=lambda v: json.dumps(v, sort_keys=True))


def untagged_prompt_values(value: Any) -> Any:
    """``value`` with each chat prompt value as LangServe streams one: ``{"messages": [...]}``.

    LangServe tags a prompt value only in an ``invoke``/``batch`` output (checked against the
    route's output type); in streams, logs and events it sends the bare field dict, so its
    client gets a dict of messages there. Ours sends the tagged form everywhere, so the same
    client gets a ``ChatPromptValueConcrete`` (``test_python_client`` checks that apart).
    """
    if isinstance(value, dict):
        if value.get("class") == "ChatPromptValueConcrete":
            return {"messages": untagged_prompt_values(value["messages"])}
        return {k: untagged_prompt_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [untagged_prompt_values(v) for v in value]
    return value


def comparable(call: str, record: Any) -> Any:
    """``record`` as compared: prompt values untagged in streams, logs and events; the order
    of a parallel's concurrent chunks and events set aside."""
    route, method = call.split(".")
    method = JS_PYTHON_NAMES.get(method, method)
    if not isinstance(record, (list, dict)) or failed(record):
        return record
    if method in ("stream", "stream_log", "astream_events"):
        record = untagged_prompt_values(record)
    if route == "agent_executor" and method == "astream_events":
        return [e for e in record if e["event"] in AGENT_EXECUTOR_EVENTS]
    if route == "agent_executor" and method == "stream_log":
        return {
            "streamed_output": [sorted(chunk) for chunk in record["streamed_output"]],
            # (LangChain.js reads every chunk as a prompt value: it has "messages")
            "answered": AGENT_ANSWER in json.dumps(record["final_output"]),
        }
    if route in UNORDERED_ROUTES and method in ("stream", "astream_events"):
        return _sorted(record)
    if route in UNORDERED_ROUTES and method == "stream_log":
        return {**record, "streamed_output": _sorted(record["streamed_output"])}
    return record
