"""What a LangChain callback handler is handed as ``serialized`` for a run of ours: a
prompt as LangChain serializes its own prompts (``dumpd``), built from what the prompt's
run says about it (``describe_params``: ``combinators.components.prompts.traced``), so
tracers that read templates there (OpenInference's ``llm.prompt_template.*``) read ours;
a model, tool or retriever in the shape LangChain gives objects it cannot serialize.

>>> serialized_prompt("PromptTemplate", {"template": "Say {x}", "template_format": "f-string", "input_variables": ["x"]})
{'lc': 1, 'type': 'constructor', 'id': ['langchain', 'prompts', 'prompt', 'PromptTemplate'], 'kwargs': {'input_variables': ['x'], 'template': 'Say {x}', 'template_format': 'f-string'}, 'name': 'PromptTemplate'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from effects.guards import is_list, is_str_mapping

__all__ = ["serialized_prompt", "unserializable"]

_MESSAGE_IDS: Final[Mapping[str, str]] = {
    "human": "HumanMessage",
    "ai": "AIMessage",
    "system": "SystemMessage",
    "tool": "ToolMessage",
    "chat": "ChatMessage",
    "function": "FunctionMessage",
}


def _constructor(path: list[str], kwargs: dict[str, object], name: str | None = None) -> dict[str, object]:
    made: dict[str, object] = {"lc": 1, "type": "constructor", "id": path, "kwargs": kwargs}
    if name is not None:
        made["name"] = name
    return made


def _string_prompt(params: Mapping[str, object]) -> dict[str, object] | None:
    template = params.get("template")
    if not isinstance(template, str):
        return None
    kwargs: dict[str, object] = {"input_variables": params.get("input_variables", [])}
    if params.get("partial_variables"):
        kwargs["partial_variables"] = params["partial_variables"]
    kwargs["template"] = template
    kwargs["template_format"] = params.get("template_format", "f-string")
    return _constructor(["langchain", "prompts", "prompt", "PromptTemplate"], kwargs, "PromptTemplate")


def _part(part: Mapping[str, object]) -> dict[str, object]:
    kind = str(part.get("kind"))
    if kind == "MessagesPlaceholder":
        kwargs: dict[str, object] = {"variable_name": part.get("variable_name"), "optional": part.get("optional")}
        return _constructor(["langchain", "prompts", "chat", kind], kwargs)
    if "template_format" in part:  # a message template: its prompt, as LangChain nests it
        inner = _string_prompt(part)
        kwargs = {} if inner is None else {"prompt": inner}
        if "role" in part:
            kwargs["role"] = part["role"]
        return _constructor(["langchain", "prompts", "chat", kind], kwargs)
    message = _MESSAGE_IDS.get(str(part.get("type")), kind)
    return _constructor(["langchain", "schema", "messages", message], {"content": part.get("content")})


def serialized_prompt(name: str, params: object) -> dict[str, object] | None:
    """A prompt's ``serialized`` from its run's params (None when they describe no prompt)."""
    if not is_str_mapping(params):
        return None
    messages = params.get("messages")
    if not is_list(messages):
        return _string_prompt(params)
    kwargs: dict[str, object] = {"input_variables": params.get("input_variables", [])}
    if params.get("partial_variables"):
        kwargs["partial_variables"] = params["partial_variables"]
    kwargs["messages"] = [_part(part) for part in messages if is_str_mapping(part)]
    return _constructor(["langchain", "prompts", "chat", "ChatPromptTemplate"], kwargs, name)


def unserializable(name: str) -> dict[str, object]:
    """The shape LangChain gives a handler for an object it cannot serialize (ours are not
    LangChain-serializable).

    >>> unserializable("FakeListChatModel")["type"]
    'not_implemented'
    """
    return {"lc": 1, "type": "not_implemented", "id": ["combinators", name], "name": name}
