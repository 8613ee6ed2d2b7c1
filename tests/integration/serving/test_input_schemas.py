"""What a served chain publishes as its input schema, and the 422 naming the field that a
request missing it gets before anything runs (issue 28): a sequence publishes its first
step's, ``AgentExecutor`` ``{"input": str}``, ``agent_loop`` the union it accepts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from combinators import RunnableLambda, RunnableParallel
from combinators.agents import AgentExecutor, agent_loop, create_tool_calling_agent
from combinators.language_models import GenericFakeChatModel, Script, ScriptedChatModel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.tools import tool
from combinators.integrations.serving import serve
from tests.integration.serving.live import LiveServer, live

RAN: list[object] = []


def model_saw(value: Any) -> Any:
    RAN.append(value)
    return value


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def _chat() -> Any:
    prompt = ChatPromptTemplate.from_messages([("system", "Be {tone}."), ("human", "{question}")])
    return prompt | RunnableLambda(model_saw) | GenericFakeChatModel(Script(["ok"], cycle=True)) | StrOutputParser()


def _executor() -> AgentExecutor:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You multiply."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    model = ScriptedChatModel(["done"] * 100)
    return AgentExecutor(agent=create_tool_calling_agent(model, [multiply], prompt), tools=[multiply])


def _length(value: dict[str, Any]) -> int:
    return len(str(value))


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    routes: dict[str, Any] = {
        "/chat": _chat(),
        "/configured": _chat().with_config(tags=["x"]),
        "/parallel": RunnableParallel(answer=_chat(), length=RunnableLambda(_length)),
        "/executor": _executor(),
        "/loop": agent_loop(ScriptedChatModel(["done"] * 100), [multiply]),
    }
    server: LiveServer
    with live(serve(routes)) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        yield http


@pytest.mark.parametrize("path", ["/chat", "/configured", "/parallel"])
def test_a_chain_publishes_its_prompts_variables_required(client: httpx.Client, path: str) -> None:
    schema = client.get(f"{path}/input_schema").json()
    assert schema["type"] == "object"
    assert set(schema["properties"]) == {"tone", "question"} and sorted(schema["required"]) == ["question", "tone"]
    openapi = client.get("/openapi.json").json()["components"]["schemas"]
    assert schema in openapi.values()


@pytest.mark.parametrize("route", ["invoke", "stream", "stream_events", "batch"])
def test_a_missing_prompt_variable_is_a_422_naming_it_and_nothing_runs(client: httpx.Client, route: str) -> None:
    RAN.clear()
    value = {"question": "why?"}
    body = {"inputs": [value]} if route == "batch" else {"input": value}
    response = client.post(f"/chat/{route}", json=body)
    assert response.status_code == 422, response.text
    answer = response.json()
    assert answer["type"] == "RequestValidationError"
    assert any("'tone' is a required property" in item["msg"] for item in answer["detail"])
    assert RAN == []
    ok = client.post("/chat/invoke", json={"input": {"question": "why?", "tone": "brief"}})
    assert ok.status_code == 200 and ok.json()["output"] == "ok"


def test_agent_executor_publishes_input_required(client: httpx.Client) -> None:
    schema = client.get("/executor/input_schema").json()
    assert schema["required"] == ["input"] and schema["properties"]["input"]["type"] == "string"
    missing = client.post("/executor/invoke", json={"input": {"question": "6 x 7?"}})
    assert missing.status_code == 422
    assert [item["msg"] for item in missing.json()["detail"]] == ["'input' is a required property"]
    ok = client.post("/executor/invoke", json={"input": {"input": "6 x 7?", "chat_history": []}})
    assert ok.status_code == 200 and ok.json()["output"]["output"] == "done"


@pytest.mark.parametrize(
    ("value", "status"),
    [
        ("6 x 7?", 200),
        ([{"type": "human", "content": "6 x 7?"}], 200),
        ({"input": "6 x 7?"}, 200),
        ({"messages": [{"type": "human", "content": "6 x 7?"}]}, 200),
        ({"question": "6 x 7?"}, 422),
        ({"input": 5}, 422),
        (5, 422),
    ],
)
def test_agent_loop_publishes_the_union_it_accepts(client: httpx.Client, value: object, status: int) -> None:
    schema = client.get("/loop/input_schema").json()
    assert [arm.get("type") for arm in schema["anyOf"]] == ["string", "array", "object", "object"]
    response = client.post("/loop/invoke", json={"input": value})
    assert response.status_code == status, response.text
    if status == 200:
        assert response.json()["output"]["output"] == "done"


@pytest.mark.parametrize(
    ("value", "named"),
    [
        ({"question": "6 x 7?"}, {"'input' is a required property", "'messages' is a required property"}),
        ({"input": 5}, {"5 is not of type 'string'"}),
        ({"messages": "6 x 7?"}, {"'6 x 7?' is not of type 'array'"}),
        (5, {"5 is not valid under any of the given schemas"}),
    ],
)
def test_agent_loop_422_names_what_is_missing_or_mistyped(client: httpx.Client, value: object, named: set[str]) -> None:
    # A union's failure is told by the arms whose type fits the value (the field named),
    # or, when none fits, by the union itself.
    response = client.post("/loop/invoke", json={"input": value})
    assert response.status_code == 422
    messages = {item["msg"] for item in response.json()["detail"]}
    assert named <= messages, messages
