"""Configurable ids checked at the root of a call, published by `config_schema`, compared and pickled
(the nodes have their own files: `test_configurable_fields.py`, `test_configurable_alternatives.py`)."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

import cloudpickle  # type: ignore[import-untyped]
import pytest

from combinators import (
    ConfigurableError,
    ConfigurableField,
    ConfigurableFieldSpec,
    Runnable,
    RunnableLambda,
    pure,
)
from tests.unit.combinators.nodes.configurables import model_chain, shout, whisper


def test_unknown_ids_and_wrong_types_are_refused_before_anything_runs() -> None:
    ran: list[str] = []

    def record(text: str) -> str:
        ran.append(text)
        return text

    chain = RunnableLambda(record) | model_chain()
    with pytest.raises(ConfigurableError, match=r"has no configurable id 'lmm'; its ids are: 'llm', 'replies'"):
        chain.invoke("a", {"configurable": {"lmm": "other"}})
    with pytest.raises(ConfigurableError, match=r"configurable 'llm' of .* takes one of 'fake', 'other', got 'gpt'"):
        chain.invoke("a", {"configurable": {"llm": "gpt"}})
    with pytest.raises(
        ConfigurableError, match=r"configurable 'replies' of .* takes collections.abc.Sequence\[str\], got \[1\]"
    ):
        chain.invoke("a", {"configurable": {"replies": [1]}})
    with pytest.raises(ConfigurableError, match="lmm"):
        list(chain.stream("a", {"configurable": {"lmm": "other"}}))
    with pytest.raises(ConfigurableError, match="lmm"):
        chain.batch(["a"], {"configurable": {"lmm": "other"}})
    with pytest.raises(ConfigurableError, match="lmm"):
        asyncio.run(chain.ainvoke("a", {"configurable": {"lmm": "other"}}))
    assert ran == []
    with pytest.raises(ConfigurableError, match="lmm"):
        chain.invoke("a", {"lmm": "other"})  # an unknown top-level key is a configurable id, as in the peer
    assert ran == []


def test_a_chain_that_declares_nothing_leaves_configurable_to_its_functions() -> None:
    def greet(name: str, config: Any) -> str:
        return f"{config.configurable['greeting']} {name}"

    assert RunnableLambda(greet).invoke("ann", {"configurable": {"greeting": "hello"}}) == "hello ann"
    declared = RunnableLambda(greet).with_config_specs(ConfigurableFieldSpec(id="greeting", annotation=str))
    assert declared.invoke("ann", {"configurable": {"greeting": "hi"}}) == "hi ann"
    mixed = declared | pure("x").configurable_fields(value=ConfigurableField(id="answer"))
    assert mixed.invoke("ann", {"configurable": {"greeting": "hi", "answer": "y"}}) == "y"
    with pytest.raises(ConfigurableError, match="takes str, got 3"):
        mixed.invoke("ann", {"configurable": {"greeting": 3}})


def test_nested_calls_are_not_checked_again() -> None:
    inner = pure("inner").configurable_fields(value=ConfigurableField(id="inner"))

    def call_inner(text: str, config: Any) -> str:
        return str(inner.invoke(text, config))  # the caller's config carries the outer ids

    outer = RunnableLambda(call_inner) | pure("outer").configurable_fields(value=ConfigurableField(id="outer"))
    assert outer.invoke("x", {"configurable": {"outer": "o"}}) == "o"


def test_config_schema_lists_every_id_with_defaults_descriptions_and_enums() -> None:
    schema = model_chain().config_schema()
    assert schema["title"] == "RunnableSequenceConfig"
    assert schema["properties"]["configurable"]["properties"] == {
        "llm": {"title": "llm", "description": "which model", "default": "fake", "enum": ["fake", "other"]},
        "replies": {
            "title": "Replies",
            "description": "what the fake says",
            "default": ["default says hi"],
            "type": "array",
            "items": {"type": "string"},
        },
    }
    assert [s.id for s in model_chain().config_specs()] == ["llm", "replies"]


def picklable_chain() -> Runnable[str, str]:
    voice = RunnableLambda(shout).configurable_alternatives(
        ConfigurableField(id="voice"), default_key="shout", whisper=RunnableLambda(whisper)
    )
    return voice | pure("!").configurable_fields(value=ConfigurableField(id="end"))


def test_configurable_values_compare_print_and_pickle() -> None:
    chain = model_chain()
    assert chain == model_chain() and hash(chain) == hash(model_chain())
    assert "configurable_alternatives(ConfigurableField(id='llm'" in repr(chain)
    config = {"configurable": {"voice": "whisper", "end": "?"}}
    for dumps in (pickle.dumps, cloudpickle.dumps):
        copy = pickle.loads(dumps(picklable_chain()))
        assert copy == picklable_chain() and copy.invoke("a", config) == "?"
        assert [s.id for s in copy.config_specs()] == ["voice", "end"]


def test_the_declared_ids_are_found_once_per_chain_and_forgotten_with_it() -> None:
    import gc

    from combinators._support import config_specs as module

    chain = picklable_chain()
    first = module.declared(chain)
    assert module.declared(chain) is first  # the walk is not repeated for the same chain
    key = id(chain)
    assert key in module._DECLARED
    del chain
    gc.collect()
    assert key not in module._DECLARED
