"""Issue 26 items that had no test of their own (the audit in tests/conformance/README.md).

- the seed page's agent names and its hub prompt's ``("placeholder", "{agent_scratchpad}")``;
- a chat model's tokens are ``on_chat_model_stream`` events carrying an
  ``AIMessageChunk`` (v1 and v2, root or nested), never ``on_llm_stream``;
- every call that takes a config takes a plain dict;
- message ids on every chat model output, watched or not.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import pytest

from combinators import RunnableLambda
from combinators.agents import AgentExecutor, create_openai_functions_agent, create_openai_tools_agent
from combinators.language_models import (
    FakeListChatModel,
    FakeMessagesListChatModel,
    GenericFakeChatModel,
    ParrotFakeChatModel,
    ScriptedChatModel,
    SimpleChatModel,
)
from combinators.messages import AIMessage, AIMessageChunk, BaseMessage
from combinators.prompts import ChatPromptTemplate
from combinators.tools import tool
from tests.unit.combinators.components.agents.helpers import calls

HUB_PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system", "You are a helpful assistant"),
        ("placeholder", "{chat_history}"),
        ("human", "{input}"),
        ("placeholder", "{agent_scratchpad}"),
    ]
)


@tool
def weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


@pytest.mark.parametrize("create", [create_openai_functions_agent, create_openai_tools_agent])
def test_the_openai_agent_names_run_the_hub_prompt_with_its_placeholder_scratchpad(create: Any) -> None:
    model = ScriptedChatModel([calls(("weather", {"city": "SF"})), "Sunny."])
    agent = create(llm=model, tools=[weather], prompt=HUB_PROMPT)
    result = AgentExecutor(agent=agent, tools=[weather]).invoke({"input": "weather in SF?"})
    assert result == {"input": "weather in SF?", "output": "Sunny."}
    # chat_history was optional (a placeholder); the scratchpad held the call and its result
    second = model.calls[1].messages
    assert [m.type for m in second] == ["system", "human", "ai", "tool"]
    assert second[-1].content == "sunny in SF"


class Echo(SimpleChatModel):
    def _call(self, messages: list[BaseMessage], stop: list[str] | None = None, **kwargs: Any) -> str:
        return "echo " + str(messages[-1].content)


CHAT_MODELS: dict[str, Callable[[], Any]] = {
    "GenericFakeChatModel": lambda: GenericFakeChatModel(messages=iter(["a b c"])),
    "FakeListChatModel": lambda: FakeListChatModel(responses=["abc"]),
    "FakeMessagesListChatModel": lambda: FakeMessagesListChatModel(responses=[AIMessage("a b")]),
    "ParrotFakeChatModel": lambda: ParrotFakeChatModel(),
    "ScriptedChatModel": lambda: ScriptedChatModel(["a b"]),
    "SimpleChatModel subclass": lambda: Echo(),
}


STREAMING_MODELS = ["GenericFakeChatModel", "FakeListChatModel", "ScriptedChatModel"]


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("nested", [False, True], ids=["root", "nested"])
@pytest.mark.parametrize("name", STREAMING_MODELS)
def test_a_chat_model_s_tokens_are_on_chat_model_stream_events_with_ai_message_chunks(
    name: str, nested: bool, version: Any
) -> None:
    model = CHAT_MODELS[name]()
    runnable = (RunnableLambda(str.strip) | model) if nested else model

    async def main() -> list[Any]:
        return [e async for e in runnable.astream_events(" hi ", version=version)]

    events = asyncio.run(main())
    kinds = [e["event"] for e in events]
    assert not [k for k in kinds if k.startswith("on_llm_")]
    streamed = [e for e in events if e["event"] == "on_chat_model_stream"]
    assert streamed and all(type(e["data"]["chunk"]) is AIMessageChunk for e in streamed)
    assert kinds.count("on_chat_model_start") == kinds.count("on_chat_model_end") == 1


def _seen(tags: list[list[str]]) -> Callable[[str, Any], str]:
    def step(x: str, config: Any) -> str:
        tags.append(list(config["tags"]))
        return x

    return step


def test_every_call_that_takes_a_config_takes_a_plain_dict() -> None:
    tags: list[list[str]] = []
    r = RunnableLambda(_seen(tags))
    config: dict[str, Any] = {"tags": ["t"], "metadata": {"m": 1}, "max_concurrency": 2}

    async def main() -> None:
        await r.ainvoke("a", config)
        await r.abatch(["a", "b"], config)
        await r.abatch(["a", "b"], [config, config])
        [_ async for _ in r.abatch_as_completed(["a"], config)]
        [_ async for _ in r.astream("a", config)]
        [_ async for _ in r.astream_log("a", config)]
        [_ async for _ in r.astream_events("a", config, version="v2")]
        [_ async for _ in r.astream_events("a", config, version="v1")]

        async def one() -> Any:
            yield "a"

        [_ async for _ in r.atransform(one(), config)]

    r.invoke("a", config)
    r.batch(["a", "b"], config)
    r.batch(["a", "b"], [config, config])
    list(r.batch_as_completed(["a"], config))
    list(r.stream("a", config))
    list(r.stream_log("a", config))
    list(r.stream_events("a", config))
    list(r.transform(iter(["a"]), config))
    r.with_config(config).invoke("a")
    r.with_config(**config).invoke("a")
    asyncio.run(main())
    assert len(tags) == 23 and all(t[-1] == "t" for t in tags)


RUN_MESSAGE_ID = re.compile(r"lc_run--[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
PEER_FORMED_MODELS = [n for n in CHAT_MODELS if n != "ScriptedChatModel"]  # the scripted one has its own ids


@pytest.mark.parametrize("name", PEER_FORMED_MODELS)
def test_every_chat_model_output_has_a_run_id_watched_or_not(name: str) -> None:
    # Unwatched invoke: a fresh id of the peer's form, "-0" for a message made in one go
    # (or the summed stream's id); batch gives each output its own.
    made = CHAT_MODELS[name]().invoke("hi")
    assert made.id is not None and RUN_MESSAGE_ID.fullmatch(made.id.removesuffix("-0"))
    chunks = list(CHAT_MODELS[name]().stream("hi"))
    # the chunks of one stream share one id ("-0" too for a model that does not stream: the
    # peer's stream then gives its invoke's message)
    assert len({c.id for c in chunks}) == 1 and RUN_MESSAGE_ID.fullmatch(str(chunks[0].id).removesuffix("-0"))
    both = CHAT_MODELS[name]().batch(["hi", "hi"]) if name != "GenericFakeChatModel" else []
    assert len({m.id for m in both}) == len(both)
    # Watched: the run's own id.
    events = list(CHAT_MODELS[name]().stream_events("hi"))
    run_id = events[0]["run_id"]
    output = events[-1]["data"]["output"]
    assert output.id in (f"lc_run--{run_id}", f"lc_run--{run_id}-0")


def test_a_runnable_returning_model_method_on_fallbacks_applies_to_the_primary_and_every_fallback() -> None:
    # with_structured_output (and bind_tools: test_behaviour.py) read through fallbacks
    # give fallbacks of the structured models: the fallback answers in the schema.
    pytest.importorskip("openai")
    from combinators import RunnableWithFallbacks
    from tests.unit.combinators.integrations.openai.fake_server import (
        FakeOpenAIServer,
        JsonReply,
        completion,
        error_body,
    )
    from combinators.integrations.openai import ChatOpenAI

    schema = {"title": "Answer", "type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    with FakeOpenAIServer() as server:
        server.script(
            JsonReply(error_body("The model `badmodel` does not exist", code="model_not_found"), status=404),
            JsonReply(completion('{"a": 2}')),
        )
        primary = ChatOpenAI(model="badmodel", base_url=server.url, api_key="sk-local", max_retries=0)
        fallback = ChatOpenAI(model="good", base_url=server.url, api_key="sk-local", max_retries=0)
        structured = getattr(primary.with_fallbacks([fallback]), "with_structured_output")(schema)
        assert isinstance(structured, RunnableWithFallbacks)
        assert structured.runnable == primary.with_structured_output(schema)
        assert list(structured.fallbacks) == [fallback.with_structured_output(schema)]
        assert structured.invoke("q") == {"a": 2}
        sent = server.bodies
    assert [b["model"] for b in sent] == ["badmodel", "good"]
    assert all(b["response_format"]["type"] == "json_schema" for b in sent)
