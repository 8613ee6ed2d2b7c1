"""Issues 28 and 33: a chain built on a prompt publishes the same input JSON Schema as the
same chain built with langchain-core 1.8.3 (``get_input_jsonschema``), title included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain_core import language_models as lc_models
from langchain_core import output_parsers as lc_parsers
from langchain_core import prompts as lc_prompts
from langchain_core import runnables as lc_runnables

from combinators import RunnableParallel, RunnablePassthrough
from combinators.language_models import FakeListChatModel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, PromptTemplate

MESSAGES = [("system", "Be {tone}."), ("human", "{question}")]


def _kind(_: object) -> str:
    return "kind"


Build = Callable[[Any, Any, Any, Any, Any, Any], Any]
"""From (chat prompt, string prompt, model, parser, parallel, passthrough) to a chain."""

CHAINS: dict[str, Build] = {
    "prompt": lambda chat, text, model, parser, par, passthrough: chat,
    "prompt | model | parser": lambda chat, text, model, parser, par, passthrough: chat | model | parser,
    "with_retry": lambda chat, text, model, parser, par, passthrough: (chat | model).with_retry(),
    "with_fallbacks": lambda chat, text, model, parser, par, passthrough: (chat | model).with_fallbacks([chat | model]),
    "bind": lambda chat, text, model, parser, par, passthrough: chat.bind(stop=["x"]),
    "with_config": lambda chat, text, model, parser, par, passthrough: (chat | model).with_config(tags=["x"]),
    "parallel of prompts": lambda chat, text, model, parser, par, passthrough: par(a=chat, b=text),
    "assign | prompt": lambda chat, text, model, parser, par, passthrough: passthrough.assign(tone=_kind) | chat,
    "string prompt | model": lambda chat, text, model, parser, par, passthrough: text | model | parser,
}


def _ours(build: Build) -> dict[str, Any]:
    chain = build(
        ChatPromptTemplate.from_messages(MESSAGES),
        PromptTemplate.from_template("{other}"),
        FakeListChatModel(responses=["ok"]),
        StrOutputParser(),
        RunnableParallel,
        RunnablePassthrough,
    )
    schema: dict[str, Any] = chain.get_input_jsonschema()
    return schema


def _peers(build: Build) -> dict[str, Any]:
    chain = build(
        lc_prompts.ChatPromptTemplate.from_messages(MESSAGES),
        lc_prompts.PromptTemplate.from_template("{other}"),
        lc_models.FakeListChatModel(responses=["ok"]),
        lc_parsers.StrOutputParser(),
        lc_runnables.RunnableParallel,
        lc_runnables.RunnablePassthrough,
    )
    schema: dict[str, Any] = chain.get_input_jsonschema()
    return schema


@pytest.mark.parametrize("name", list(CHAINS))
def test_the_input_schema_is_the_peers(name: str) -> None:
    assert _ours(CHAINS[name]) == _peers(CHAINS[name])
