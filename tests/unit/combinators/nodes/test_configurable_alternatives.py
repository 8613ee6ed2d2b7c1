"""``RunnableConfigurableAlternatives``: one alternative chosen per call, shown as that alternative's own run."""

from __future__ import annotations

import asyncio

from combinators import ConfigurableField, RunnableLambda, RunnableParallel
from tests.unit.combinators.nodes.configurables import LLM, model_chain, shout, whisper


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


def test_alternatives_declare_the_defaults_types() -> None:
    # As langchain-core 1.8.3: the default's schemas (the runnable that runs unconfigured).
    def size(text: str) -> int:
        return len(text)

    chosen = RunnableLambda(size).configurable_alternatives(ConfigurableField(id="w"), other=RunnableLambda(shout))
    assert chosen.declared_type("input") is str and chosen.declared_type("output") is int
    assert chosen.input_schema() == {"title": "size_input", "type": "string"}
    assert chosen.output_schema() == {"title": "size_output", "type": "integer"}
