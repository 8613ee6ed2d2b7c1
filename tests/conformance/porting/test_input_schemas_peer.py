"""Issues 28 and 33: a chain built on a prompt publishes the same input and output JSON
Schemas as the same chain built with langchain-core 1.8.3 (``get_input_jsonschema``,
``get_output_jsonschema``), titles included."""

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

OUTPUT_ONLY: dict[str, Build] = {
    "string prompt": lambda chat, text, model, parser, par, passthrough: text,
    "parallel of messages": lambda chat, text, model, parser, par, passthrough: par(a=chat | model, b=text | model),
    "parallel of strings": lambda chat, text, model, parser, par, passthrough: par(
        a=chat | model | parser, b_c=text | model | parser
    ),
}

"""Output schemas: the same titles throughout. Messages and prompt values the peer spells as
pydantic models under ``$defs``; only chains that give plain JSON are compared whole."""

OUTPUT_CHAINS: dict[str, Build] = CHAINS | OUTPUT_ONLY


def _ours(build: Build, which: str = "input") -> dict[str, Any]:
    chain = build(
        ChatPromptTemplate.from_messages(MESSAGES),
        PromptTemplate.from_template("{other}"),
        FakeListChatModel(responses=["ok"]),
        StrOutputParser(),
        RunnableParallel,
        RunnablePassthrough,
    )
    schema: dict[str, Any] = getattr(chain, f"get_{which}_jsonschema")()
    return schema


def _peers(build: Build, which: str = "input") -> dict[str, Any]:
    chain = build(
        lc_prompts.ChatPromptTemplate.from_messages(MESSAGES),
        lc_prompts.PromptTemplate.from_template("{other}"),
        lc_models.FakeListChatModel(responses=["ok"]),
        lc_parsers.StrOutputParser(),
        lc_runnables.RunnableParallel,
        lc_runnables.RunnablePassthrough,
    )
    schema: dict[str, Any] = getattr(chain, f"get_{which}_jsonschema")()
    return schema


@pytest.mark.parametrize("name", list(CHAINS))
def test_the_input_schema_is_the_peers(name: str) -> None:
    assert _ours(CHAINS[name]) == _peers(CHAINS[name])


@pytest.mark.parametrize("name", list(OUTPUT_CHAINS))
def test_the_output_schema_is_titled_as_the_peers(name: str) -> None:
    assert _ours(OUTPUT_CHAINS[name], "output")["title"] == _peers(OUTPUT_CHAINS[name], "output")["title"]


@pytest.mark.parametrize("name", ["prompt | model | parser", "string prompt | model", "parallel of strings"])
def test_a_plain_output_schema_is_the_peers(name: str) -> None:
    ours, peers = _ours(OUTPUT_CHAINS[name], "output"), _peers(OUTPUT_CHAINS[name], "output")
    assert "$defs" not in peers
    assert ours == peers
