"""A recording LangChain callback handler and the tree its calls make, for comparing ours
with langchain-core's own runs: per run (keyed by its path of names from the root) its
calls in order with their names, run types, tags, metadata, inputs, outputs and tokens;
across runs the same parents. Run ids and LangChain's own bookkeeping (``lc_versions``,
the ``ls_integration`` marker, a serialized object's constructor) are left out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.prompt_values import PromptValue

EVENTS = (
    "on_chain_start",
    "on_chain_end",
    "on_chain_error",
    "on_chat_model_start",
    "on_llm_start",
    "on_llm_new_token",
    "on_llm_end",
    "on_llm_error",
    "on_tool_start",
    "on_tool_end",
    "on_tool_error",
    "on_retriever_start",
    "on_retriever_end",
    "on_retriever_error",
    "on_custom_event",
)

Call = tuple[str, tuple[Any, ...], dict[str, Any]]


class Recorder(BaseCallbackHandler):
    """Records every call it gets."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def __getattribute__(self, name: str) -> Any:
        if name in EVENTS:
            calls: list[Call] = object.__getattribute__(self, "calls")

            def record(*args: Any, **kwargs: Any) -> None:
                calls.append((name, args, kwargs))

            return record
        return object.__getattribute__(self, name)


class AsyncRecorder(AsyncCallbackHandler):
    """Records every call it gets, from coroutines."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def __getattribute__(self, name: str) -> Any:
        if name in EVENTS:
            calls: list[Call] = object.__getattribute__(self, "calls")

            async def record(*args: Any, **kwargs: Any) -> None:
                calls.append((name, args, kwargs))

            return record
        return object.__getattribute__(self, name)


def norm(value: object) -> object:
    """A value as compared: messages by type and content, LangChain's wrappers unwrapped."""
    if isinstance(value, LLMResult):
        first = value.generations[0][0]
        return norm(first.message if isinstance(first, ChatGeneration) else first.text)
    if isinstance(value, BaseMessage):
        return (value.type.removesuffix("Chunk"), value.text)
    if isinstance(value, PromptValue):
        return norm(value.to_messages())
    if isinstance(value, Mapping):
        return {key: norm(item) for key, item in value.items()}  # pyright: ignore
    if isinstance(value, list | tuple):
        return [norm(item) for item in value]  # pyright: ignore
    if isinstance(value, BaseException):
        return type(value).__name__
    return value


# LangChain's versions and integration marker; LangGraph's checkpoint namespaces (made of task ids).
_SKIPPED_METADATA = frozenset({"lc_versions", "ls_integration", "checkpoint_ns", "langgraph_checkpoint_ns"})
_KIND = {
    "on_chain_start": "start",
    "on_chat_model_start": "start",
    "on_llm_start": "start",
    "on_tool_start": "start",
    "on_retriever_start": "start",
    "on_chain_end": "end",
    "on_llm_end": "end",
    "on_tool_end": "end",
    "on_retriever_end": "end",
    "on_chain_error": "error",
    "on_llm_error": "error",
    "on_tool_error": "error",
    "on_retriever_error": "error",
    "on_llm_new_token": "token",
    "on_custom_event": "custom",
}


def tree(calls: list[Call], root_parent: UUID | None = None) -> dict[tuple[str, ...], list[tuple[object, ...]]]:
    """The calls as a tree: path of names -> that run's calls, in order.

    A run's input is the one its end reports when its start could not know it (a
    streamed run starts with LangChain's placeholder ``{"input": ""}``)."""
    paths: dict[UUID, tuple[str, ...]] = {}
    runs: dict[tuple[str, ...], list[tuple[object, ...]]] = {}
    for event, args, kwargs in calls:
        run_id: UUID = kwargs["run_id"]
        kind = _KIND[event]
        if kind == "start":
            parent = kwargs.get("parent_run_id")
            parent_path = paths[parent] if parent is not None and parent != root_parent else ()
            serialized: dict[str, Any] = args[0] or {}
            name = str(kwargs.get("name") or serialized.get("name"))
            path = paths[run_id] = (*parent_path, name)
            given_metadata: dict[str, Any] = kwargs.get("metadata") or {}
            metadata = {k: v for k, v in given_metadata.items() if k not in _SKIPPED_METADATA}
            run_type = kwargs.get("run_type") or {"on_chain_start": "chain"}.get(event, event[3:-6])
            given = args[1]
            shown = None if given == {"input": ""} else norm(given)
            runs[path] = [("start", run_type, tuple(sorted(kwargs.get("tags") or [])), metadata, shown)]
        elif kind == "custom":
            runs[paths[run_id]].append(("custom", args[0], norm(args[1])))
        else:
            path = paths[run_id]
            if kind == "token":
                runs[path].append(("token", kwargs["token"] if "token" in kwargs else args[0]))
                continue
            if "inputs" in kwargs and runs[path][0][4] is None:
                start = runs[path][0]
                runs[path][0] = (*start[:4], norm(kwargs["inputs"]))
            runs[path].append((kind, norm(args[0]), tuple(sorted(kwargs.get("tags") or []))))
    return runs


def parents(calls: list[Call]) -> dict[UUID, UUID | None]:
    """Each run's parent, as the calls say."""
    return {kwargs["run_id"]: kwargs.get("parent_run_id") for event, _, kwargs in calls if _KIND[event] == "start"}


def is_handler(value: object) -> bool:
    return isinstance(value, BaseCallbackHandler)
