"""Chains shared by the tests of ``configurable``, ``configurable_fields`` and ``configurable_alternatives``."""

from __future__ import annotations

from combinators import ConfigurableField, Runnable, RunnableLambda
from combinators.language_models import FakeListChatModel
from combinators.output_parsers import StrOutputParser

LLM = {"configurable": {"llm": "other"}}


def shout(text: str) -> str:
    return text.upper()


def whisper(text: str) -> str:
    return text.lower()


def model_chain() -> Runnable[str, str]:
    model = FakeListChatModel(["default says hi"]).configurable_fields(
        responses=ConfigurableField(id="replies", name="Replies", description="what the fake says")
    )
    choice = model.configurable_alternatives(
        ConfigurableField(id="llm", description="which model"),
        default_key="fake",
        other=FakeListChatModel(["the other one"]),
    )
    return RunnableLambda(str.strip) | choice | StrOutputParser()
