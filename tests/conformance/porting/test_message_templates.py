"""Message prompt templates as LangChain code builds them (issue 26)."""

from __future__ import annotations

import pytest

from combinators.messages import SystemMessage
from combinators.prompts import (
    ChatMessagePromptTemplate,
    HumanMessagePromptTemplate,
    PromptTemplate,
    SystemMessagePromptTemplate,
)


def test_a_message_template_takes_prompt_as_the_peer_does() -> None:
    built = SystemMessagePromptTemplate(
        prompt=PromptTemplate(template="Here's some context: {context}", input_variables=["context"])
    )
    assert built == SystemMessagePromptTemplate("Here's some context: {context}")
    assert built.format(context="x") == SystemMessage("Here's some context: x")
    assert built.prompt == PromptTemplate(template="Here's some context: {context}")


def test_a_chat_message_template_takes_prompt_and_role() -> None:
    built = ChatMessagePromptTemplate(role="critic", prompt=PromptTemplate(template="{x}"))
    assert built.role == "critic"
    assert built.format(x="Too long.").content == "Too long."


def test_prompt_keeps_the_format_and_partials() -> None:
    prompt = PromptTemplate(template="{{a}} {{b}}", template_format="mustache", partial_variables={"b": "!"})
    built = HumanMessagePromptTemplate(prompt=prompt)
    assert built.template_format == "mustache"
    assert built.input_variables == ("a",)
    assert built.prompt.partial_variables == {"b": "!"}


def test_template_and_prompt_together_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="exactly one"):
        HumanMessagePromptTemplate("{a}", prompt=PromptTemplate(template="{a}"))
    with pytest.raises(TypeError, match="exactly one"):
        HumanMessagePromptTemplate()
