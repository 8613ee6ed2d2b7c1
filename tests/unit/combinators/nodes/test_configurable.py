"""Configurable fields and alternatives: chosen per call, checked at the root, shown as the chosen run."""

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
    RunnableParallel,
    pure,
)
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


def test_a_configured_field_takes_effect_and_its_derived_cursor_is_rebuilt() -> None:
    model = FakeListChatModel(["a", "b"]).configurable_fields(responses=ConfigurableField(id="replies"))
    chosen = {"configurable": {"replies": ["x", "y"]}}
    assert [model.invoke("?", chosen).text for _ in range(3)] == ["x", "x", "x"]  # a fresh cursor per call
    assert [model.invoke("?").text for _ in range(3)] == ["a", "b", "a"]  # the default keeps its own
    assert model.batch(["1", "2"], chosen)[0].text == "x"
    assert "".join(c.text for c in model.stream("?", chosen)) == "x"


def test_alternatives_under_invoke_batch_stream_and_async() -> None:
    chain = model_chain()
    assert chain.invoke(" hi ") == "default says hi"
    assert chain.invoke(" hi ", LLM) == "the other one"
    assert chain.batch(["a", "b"], LLM) == ["the other one", "the other one"]
    assert chain.batch(["a", "b"], [LLM, None]) == ["the other one", "default says hi"]
    assert "".join(chain.stream("a", LLM)) == "the other one"
    assert asyncio.run(chain.ainvoke("a", LLM)) == "the other one"
    fields = {"configurable": {"replies": ["configured"]}}
    assert chain.invoke("a", fields) == "configured"
    assert chain.invoke("a", {"configurable": {"replies": ["configured"], "llm": "other"}}) == "the other one"


def test_with_config_inside_a_chain_chooses_too() -> None:
    voice = RunnableLambda(shout).configurable_alternatives(
        ConfigurableField(id="voice"), default_key="shout", whisper=RunnableLambda(whisper)
    )
    chain = RunnableParallel(a=voice, b=voice.with_config(configurable={"voice": "whisper"}))
    assert chain.invoke("Hi") == {"a": "HI", "b": "hi"}
    assert chain.invoke("Hi", {"configurable": {"voice": "whisper"}}) == {"a": "hi", "b": "hi"}


def test_events_and_logs_show_the_chosen_alternatives_own_run() -> None:
    chain = model_chain()

    async def events() -> list[tuple[str, str, list[str]]]:
        return [(e["event"], e["name"], e["tags"]) async for e in chain.astream_events("a", LLM)]

    seen = asyncio.run(events())
    model_events = [e for e in seen if e[0].startswith("on_chat_model")]
    assert model_events[0] == ("on_chat_model_start", "FakeListChatModel", ["seq:step:2"])
    assert model_events[-1] == ("on_chat_model_end", "FakeListChatModel", ["seq:step:2"])
    assert len([e for e in seen if e[0] == "on_chat_model_stream"]) == len("the other one")
    assert not any("Configurable" in name for _, name, _ in seen)
    log = list(chain.stream_log("a", LLM, diff=False))[-1]
    assert "the other one" in str(log.state["logs"]["FakeListChatModel"]["final_output"])
    sync_names = [e["name"] for e in chain.stream_events("a", LLM)]
    assert sync_names.count("FakeListChatModel") >= 2


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


def test_wrong_field_names_fail_when_building() -> None:
    with pytest.raises(ConfigurableError, match=r"FakeListChatModel has no field 'respones'.*'responses'"):
        FakeListChatModel(["a"]).configurable_fields(respones=ConfigurableField(id="r"))
    with pytest.raises(ConfigurableError, match="is the default's key and an alternative's"):
        pure(1).configurable_alternatives(ConfigurableField(id="k"), default_key="a", a=pure(2))


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
