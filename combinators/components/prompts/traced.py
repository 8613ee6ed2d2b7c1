"""What traces show of a prompt's run (its ``describe_params``): the template, its format,
its variables and, for a chat prompt, each part's, so a tracer can show the template a run
filled (OpenInference's ``llm.prompt_template.*``, read through LangChain's callback
handlers from the serialized prompt they are handed).

Worked out once per prompt (a prompt is a value) and only when a run of it is watched.

>>> from combinators.prompts import ChatPromptTemplate, PromptTemplate
>>> dict(string_prompt_params(PromptTemplate.from_template("Say {x}")))
{'template': 'Say {x}', 'template_format': 'f-string', 'input_variables': ['x']}
>>> chat = ChatPromptTemplate.from_messages([("system", "Be {style}."), ("placeholder", "{history}")])
>>> [part["kind"] for part in chat_prompt_params(chat)["messages"]]
['SystemMessagePromptTemplate', 'MessagesPlaceholder']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from combinators.components.messages.message_classes import BaseMessage
from combinators.components.prompts.chat_parts import BaseMessagePromptTemplate, ChatMessagePromptTemplate

if TYPE_CHECKING:
    from combinators.components.prompts.chat_prompt import ChatPromptTemplate
    from combinators.components.prompts.message_likes import ChatPromptPart
    from combinators.components.prompts.string_prompt import PromptTemplate

__all__ = ["chat_prompt_params", "string_prompt_params"]


def _partials(partial_variables: Mapping[str, object]) -> dict[str, object]:
    # Only the values a trace can show (a partial may be a function, called at each format).
    shown = {key: value for key, value in partial_variables.items() if type(value) is str}
    return {"partial_variables": shown} if shown else {}


def string_prompt_params(prompt: PromptTemplate) -> Mapping[str, object]:
    """A text prompt's template, format, variables (and its text partial values)."""
    return {
        "template": prompt.template,
        "template_format": prompt.template_format,
        "input_variables": list(prompt.input_variables),
        **_partials(prompt.partial_variables),
    }


def _part(part: ChatPromptPart) -> dict[str, object]:
    kind = type(part).__name__
    if isinstance(part, BaseMessagePromptTemplate):
        described: dict[str, object] = {"kind": kind, "template_format": part.template_format}
        if isinstance(part.template, str):  # content parts (images) have no one template text
            described["template"] = part.template
        described["input_variables"] = list(part.input_variables)
        described.update(_partials(part.partial_variables))
        if isinstance(part, ChatMessagePromptTemplate):
            described["role"] = part.role
        return described
    if isinstance(part, BaseMessage):
        return {"kind": kind, "type": part.type, "content": part.content}
    return {"kind": kind, "variable_name": part.variable_name, "optional": part.optional}


def chat_prompt_params(prompt: ChatPromptTemplate) -> Mapping[str, object]:
    """A chat prompt's parts (each a template, a placeholder or a fixed message), its
    variables (and its text partial values)."""
    return {
        "messages": [_part(part) for part in prompt.messages],
        "input_variables": list(prompt.input_variables),
        **_partials(prompt.partial_variables),
    }
