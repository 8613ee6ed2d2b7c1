"""Our ``RemoteRunnable`` against a real LangServe 0.3.3 server (``langserve_app.py``):
invoke, batch, stream, astream_log and astream_events give our message, document and
prompt-value objects, not LangServe's dicts."""

from __future__ import annotations

from typing import Any

from combinators.documents import Document
from combinators.integrations.serving import RemoteRunnable
from combinators.agents import ToolAgentAction
from combinators.messages import AIMessage, AIMessageChunk, FunctionMessage, HumanMessage, SystemMessage
from combinators.prompt_values import ChatPromptValue
from tests.integration.serving.langserve.chains import AGENT_ANSWER, ANSWER, CALLS, DOCUMENTS


def remote(url: str, route: str) -> RemoteRunnable[Any, Any]:
    return RemoteRunnable(f"{url}/{route}", timeout=60)


def test_messages_come_back_as_our_messages(langserve_url: str) -> None:
    model = remote(langserve_url, "model")
    reply = model.invoke(CALLS["model"]["input"])
    assert type(reply) is AIMessage and reply.content == ANSWER
    replies = model.batch(CALLS["model"]["batch"])
    assert [type(r) for r in replies] == [AIMessage, AIMessage]
    assert [r.content for r in replies] == [ANSWER, ANSWER]
    chunks = list(model.stream(CALLS["model"]["input"]))
    assert {type(c) for c in chunks} == {AIMessageChunk}
    assert "".join(c.content for c in chunks) == ANSWER


def test_documents_come_back_as_our_documents(langserve_url: str) -> None:
    retriever = remote(langserve_url, "retriever")
    lamp, fog = [DOCUMENTS[0]], [DOCUMENTS[2]]
    assert retriever.invoke("lamp flashes") == lamp
    assert retriever.batch(["lamp", "fog"]) == [lamp, fog]
    assert list(retriever.stream("lamp")) == [lamp]
    assert all(type(d) is Document for d in retriever.invoke("lamp"))


def test_a_prompt_value_comes_back_as_ours(langserve_url: str) -> None:
    value = remote(langserve_url, "prompt").invoke({"question": "q"})
    assert type(value) is ChatPromptValue
    assert [type(m) for m in value.messages] == [SystemMessage, HumanMessage]
    assert [m.content for m in value.messages] == ["Be brief.", "q"]


def test_plain_values_stay_plain(langserve_url: str) -> None:
    chat = remote(langserve_url, "chat")
    assert chat.invoke(CALLS["chat"]["input"]) == ANSWER
    assert list(chat.stream(CALLS["chat"]["input"])) == ["the", " ", "lamp", " ", "flashes", " ", "twice"]
    assert remote(langserve_url, "dict").invoke(CALLS["dict"]["input"]) == {
        "answer": ANSWER,
        "question": "How does the lamp flash?",
        "length": 24,
    }
    agent = remote(langserve_url, "agent_executor")
    assert agent.invoke({"input": "6 x 7?"}) == {"input": "6 x 7?", "output": AGENT_ANSWER}


async def events(url: str, route: str, value: Any) -> list[Any]:
    client = remote(url, route)
    got = [e async for e in client.astream_events(value, version="v2")]
    await client.aclose()
    return got


async def run_log(url: str, route: str, value: Any) -> Any:
    client = remote(url, route)
    state: Any = None
    async for patch in client.astream_log(value):
        state = patch if state is None else state + patch
    await client.aclose()
    return state.state


async def test_events_carry_our_messages_and_documents(langserve_url: str) -> None:
    got = await events(langserve_url, "chat", CALLS["chat"]["input"])
    streamed = [e["data"]["chunk"] for e in got if e["event"] == "on_chat_model_stream"]
    assert {type(c) for c in streamed} == {AIMessageChunk}
    assert "".join(c.content for c in streamed) == ANSWER
    (model_end,) = [e for e in got if e["event"] == "on_chat_model_end"]
    # (LangServe sends the streamed model's output as the sum of its chunks)
    assert type(model_end["data"]["output"]) is AIMessageChunk and model_end["data"]["output"].content == ANSWER
    got = await events(langserve_url, "retriever", "lamp")
    (retriever_end,) = [e for e in got if e["event"] == "on_retriever_end"]
    assert retriever_end["data"]["output"] == [DOCUMENTS[0]]
    assert type(retriever_end["data"]["output"][0]) is Document


async def test_the_run_log_carries_our_messages(langserve_url: str) -> None:
    log = await run_log(langserve_url, "model", CALLS["model"]["input"])
    assert type(log["final_output"]) is AIMessageChunk and log["final_output"].content == ANSWER
    assert {type(c) for c in log["streamed_output"]} == {AIMessageChunk}
    models = [entry for name, entry in log["logs"].items() if name.startswith("GenericFakeChatModel")]
    assert models and all(type(c) is AIMessageChunk for c in models[0]["streamed_output"])


async def test_an_untagged_prompt_value_stays_a_dict_of_our_messages(langserve_url: str, our_url: str) -> None:
    """LangServe tags a prompt value only in invoke/batch; in logs and events it sends
    ``{"messages": [...]}`` without a tag, which could as well be a user's dict (LangGraph's
    state is one): our client reads it as LangServe's own Python client does, a dict of
    (our) messages. From our server, which tags it, it is a ``ChatPromptValue``."""
    got = await events(langserve_url, "chat", CALLS["chat"]["input"])
    (prompt_end,) = [e for e in got if e["event"] == "on_prompt_end"]
    assert prompt_end["data"]["output"] == {
        "messages": [SystemMessage("Be brief."), HumanMessage("How does the lamp flash?")]
    }
    assert [type(m) for m in prompt_end["data"]["output"]["messages"]] == [SystemMessage, HumanMessage]
    log = await run_log(langserve_url, "model", CALLS["model"]["input"])
    prompts = [entry for name, entry in log["logs"].items() if name.startswith("ChatPromptTemplate")]
    assert prompts and prompts[0]["final_output"] == {"messages": [HumanMessage("How does the lamp flash?")]}
    got = await events(our_url, "chat", CALLS["chat"]["input"])
    (prompt_end,) = [e for e in got if e["event"] == "on_prompt_end"]
    assert type(prompt_end["data"]["output"]) is ChatPromptValue


async def test_an_agent_executors_values_from_langserve(langserve_url: str) -> None:
    """What LangServe writes of LangChain's ``AgentExecutor``: a tool agent action comes back
    as our ``ToolAgentAction`` (its ``message_log`` with the base keys LangServe sends); a
    step (untagged) and ``AgentFinish`` have no class here and stay dicts, with the messages
    inside them revived."""
    agent = remote(langserve_url, "agent_executor")
    chunks = list(agent.stream({"input": "6 x 7?"}))
    (action,) = chunks[0]["actions"]
    assert type(action) is ToolAgentAction
    assert (action.tool, action.tool_input, action.tool_call_id) == ("multiply", {"a": 6, "b": 7}, "call-1")
    assert [type(m) for m in action.message_log] == [AIMessageChunk] and chunks[0]["messages"][0].tool_calls
    (step,) = chunks[1]["steps"]
    assert step["observation"] == 42 and step["action"]["type"] == "AgentActionMessageLog"
    assert chunks[1]["messages"] == [FunctionMessage("42", name="multiply")]
    assert chunks[2] == {"output": AGENT_ANSWER, "messages": [AIMessage(AGENT_ANSWER)]}
    log = await run_log(langserve_url, "agent_executor", {"input": "6 x 7?"})
    finishes = [e["final_output"] for e in log["logs"].values() if isinstance(e["final_output"], dict)]
    assert any(f.get("type") == "AgentFinish" and f["return_values"] == {"output": AGENT_ANSWER} for f in finishes)
