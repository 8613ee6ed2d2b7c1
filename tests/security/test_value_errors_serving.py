"""An exception that is part of a served chain's OUTPUT VALUE (a ``returns`` ``Failure``, an
agent's tool outcome, an ``@impure_safe`` ``IOFailure``, a parallel branch or a ``batch(return_exceptions=True)`` that gave
back an exception, an exception anywhere in a dict, list, set or dataclass) reaches the
client as the error map answers it: its type's name and the message the server allows,
never ``str(exc)``. Checked on every route (``/invoke``, ``/batch``, ``/stream``,
``/stream_log``, ``/stream_events``) with a real HTTP client against uvicorn.

Before the fix, ``to_wire`` wrote such an exception as ``{"type": "error", "error_type",
"message": str(exc)}``: the upstream URL, its ``sk-live`` key and the upstream body went
out on all five routes.

One channel the server cannot scrub: the text of an error ``ToolMessage`` (what the
agent's model was told) and an ``AgentExecutor``'s observation string are plain strings.
The tests below pin that this is the only place the text shows, and that a tool written
as the serving docs say (it turns its upstream failure into a fixed message) leaks
nothing anywhere.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any, cast

import attrs
import pytest
from returns.io import impure_safe
from returns.result import Failure

pytest.importorskip("uvicorn")

import httpx

from combinators import Runnable, RunnableLambda, RunnableParallel
from combinators.agents import AgentExecutor, LoopPolicy, agent_loop, create_tool_calling_agent
from combinators.integrations.serving import ErrorInfo, serve
from combinators.language_models import ModelRateLimitError, ScriptedChatModel
from combinators.messages import AIMessage, ToolCall
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.tools import tool
from effects.projections import SseFrameParser
from tests.integration.serving.live import LiveServer, live

SECRET = "sk-live-5f3c9a0b1d2e4f6a7b8c"
URL = f"https://internal.example/v1/lookup?key={SECRET}"
BODY = '{"error": {"message": "quota for org-INTERNAL-42 exhausted", "request_id": "req_internal_77"}}'
FORBIDDEN = (SECRET, "sk-live", URL, "internal.example", "org-INTERNAL-42", "req_internal_77", "quota for")
ROUTES = ("invoke", "batch", "stream", "stream_log", "stream_events")
SAFE_TOOL_MESSAGE = "the lookup service failed"


class UpstreamFailure(Exception):
    """What a client library raises with the upstream's URL and body in its message."""


def upstream_error() -> UpstreamFailure:
    return UpstreamFailure(f"POST {URL} answered 500: {BODY}")


@dataclasses.dataclass(frozen=True)
class Holder:
    error: Exception


@attrs.define
class UpstreamRecord(Exception):
    """An attrs exception: its fields (the upstream's URL and body) are its text too."""

    url: str
    body: str


def fails(_: object) -> Failure[UpstreamFailure]:
    return Failure(upstream_error())


def holds(_: object) -> dict[object, object]:
    error = upstream_error()
    return {
        "bare": error,
        "in_list": [error],
        "in_tuple": (1, error),
        "in_set": {error},
        "int_keys": {1: error},
        "dataclass": Holder(error),
        "attrs_exception": UpstreamRecord(URL, BODY),
    }


def raises(_: object) -> str:
    raise upstream_error()


def gives_an_exception(_: object) -> Exception:
    return upstream_error()


def batch_with_exceptions(_: object) -> list[str | Exception]:
    return RunnableLambda(raises).batch([1, 2], return_exceptions=True)


@impure_safe
def impure(_: object) -> str:
    raise upstream_error()


def rate_limited(_: object) -> Failure[ModelRateLimitError]:
    return Failure(ModelRateLimitError(f"429 from {URL}: {BODY}", status=429, service="openai"))


@tool
def lookup(query: str) -> str:
    """Look the query up upstream."""
    raise upstream_error()


@tool
def safe_lookup(query: str) -> str:
    """Look the query up upstream; a failure is told in a fixed message."""
    try:
        raise upstream_error()
    except UpstreamFailure:
        raise RuntimeError(SAFE_TOOL_MESSAGE) from None


def _asks(tool_name: str) -> AIMessage:
    return AIMessage("", tool_calls=[ToolCall(tool_name, {"query": "q"}, id="call-1")])


def agent(tool_name: str) -> Runnable[Any, Any]:
    chosen = {"lookup": lookup, "safe_lookup": safe_lookup}[tool_name]
    model = ScriptedChatModel([_asks(tool_name), "The lookup failed."] * 20)
    return agent_loop(model, [chosen], policy=LoopPolicy(max_iterations=3))


def executor(tool_name: str) -> Runnable[Any, Any]:
    chosen = {"lookup": lookup, "safe_lookup": safe_lookup}[tool_name]
    model = ScriptedChatModel([_asks(tool_name), "The lookup failed."] * 20)
    prompt = ChatPromptTemplate.from_messages([("human", "{input}"), MessagesPlaceholder("agent_scratchpad")])
    made = create_tool_calling_agent(model, [chosen], prompt)
    return AgentExecutor(agent=made, tools=[chosen], return_intermediate_steps=True)


CHAINS: dict[str, Runnable[Any, Any]] = {
    "/failure": RunnableLambda(fails),
    "/holder": RunnableLambda(holds),
    "/parallel": RunnableParallel(ok=RunnableLambda(lambda _: "fine"), bad=RunnableLambda(gives_an_exception)),
    "/each": RunnableLambda(batch_with_exceptions),
    "/service": RunnableLambda(rate_limited),
    "/io_failure": RunnableLambda(impure),
    "/agent": agent("lookup"),
    "/safe_agent": agent("safe_lookup"),
    "/safe_executor": executor("safe_lookup"),
}
ERROR_VALUES = {"/failure": 1, "/holder": 7, "/parallel": 1, "/each": 2, "/service": 1, "/io_failure": 1}
"""How many exceptions each chain's output holds."""
EXPECTED_TYPES = {"/service": {"ModelRateLimitError"}, "/holder": {"UpstreamFailure", "UpstreamRecord"}}
EXPECTED_MESSAGE = {"/service": "openai rate-limited the request (429)"}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live(serve(CHAINS)) as running:
        yield running


def call(server: LiveServer, path: str, route: str, value: object = "q") -> httpx.Response:
    body: dict[str, Any] = {"inputs": [value, value]} if route == "batch" else {"input": value}
    if route == "batch":
        body["return_exceptions"] = True
    response = httpx.post(f"{server.url}{path}/{route}", json=body, timeout=30)
    assert response.status_code == 200, response.text
    return response


def payloads(route: str, response: httpx.Response) -> list[Any]:
    """The JSON the client got: the body, or every data frame of a stream."""
    if route in ("invoke", "batch"):
        return [response.json()]
    parser = SseFrameParser()
    frames = parser.feed(response.content)
    assert frames[-1].event == "end", [f.event for f in frames]
    return [json.loads(f.data or "null") for f in frames if f.event == "data"]


def error_forms(value: object) -> list[dict[str, Any]]:
    """Every exception's form inside ``value`` (the wire writes ``{"type": "error", ...}``)."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            form = cast("dict[str, Any]", item)
            if form.get("type") == "error" and "error_type" in form:
                found.append(form)
            stack.extend(form.values())
        elif isinstance(item, list):
            stack.extend(cast("list[Any]", item))
    return found


def assert_clean(text: str) -> None:
    for forbidden in FORBIDDEN:
        assert forbidden not in text, f"{forbidden!r} leaked in {text[:2000]!r}"


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("path", list(ERROR_VALUES))
def test_an_exception_in_an_output_value_is_scrubbed_on_every_route(server: LiveServer, path: str, route: str) -> None:
    response = call(server, path, route)
    assert_clean(response.text)
    sent = payloads(route, response)
    forms = error_forms(sent)
    outputs = 2 if route == "batch" else 1
    if route in ("invoke", "batch"):  # the output itself: exactly its exceptions
        assert len(forms) == ERROR_VALUES[path] * outputs, forms
    else:  # streams show the value in chunks, patches and events: at least once each
        assert len(forms) >= ERROR_VALUES[path], forms
    assert {form["error_type"] for form in forms} == EXPECTED_TYPES.get(path, {"UpstreamFailure"})
    for form in forms:
        assert form == {
            "type": "error",
            "error_type": form["error_type"],
            "message": EXPECTED_MESSAGE.get(path, "Internal Server Error"),
        }


def test_the_servers_error_map_gives_the_message_a_value_shows() -> None:
    def error_map(error: BaseException) -> ErrorInfo | None:
        if isinstance(error, UpstreamFailure):
            return ErrorInfo(502, "UpstreamFailed", "the lookup service failed")
        return None

    with live(serve({"/failure": RunnableLambda(fails)}, error_map=error_map)) as running:
        for route in ROUTES:
            response = call(running, "/failure", route)
            assert_clean(response.text)
            forms = error_forms(payloads(route, response))
            assert forms and {form["message"] for form in forms} == {"the lookup service failed"}
            assert {form["error_type"] for form in forms} == {"UpstreamFailure"}


def test_a_batch_that_raises_with_return_exceptions_stays_scrubbed() -> None:
    with live(serve({"/raises": RunnableLambda(raises)})) as running:
        response = call(running, "/raises", "batch")
    assert_clean(response.text)
    answer = response.json()
    assert answer["output"] == [None, None]
    assert [error["message"] for error in answer["errors"]] == ["Internal Server Error"] * 2


def _without_tool_message_text(value: Any) -> Any:
    """``value`` with the content of every tool message blanked (the one unscrubbed channel)."""
    if isinstance(value, dict):
        fields = cast("dict[str, Any]", value)
        blank = fields.get("type") == "tool"
        return {key: "" if blank and key == "content" else _without_tool_message_text(v) for key, v in fields.items()}
    if isinstance(value, list):
        items = cast("list[Any]", value)
        return [_without_tool_message_text(item) for item in items]
    return value


@pytest.mark.parametrize("route", ROUTES)
def test_an_agents_tool_outcome_is_scrubbed_and_only_the_tool_message_carries_its_text(
    server: LiveServer, route: str
) -> None:
    response = call(server, "/agent", route)
    sent = payloads(route, response)
    assert_clean(json.dumps(_without_tool_message_text(sent)))
    forms = error_forms(sent)
    assert forms and all(
        form == {"type": "error", "error_type": "UpstreamFailure", "message": "Internal Server Error"} for form in forms
    )
    # The model was told the tool's error: that text is a ToolMessage's content, a plain
    # string on the wire (see the serving docs, "What the server scrubs").
    assert SECRET in response.text


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("path", ["/safe_agent", "/safe_executor"])
def test_a_tool_that_fixes_its_error_message_leaks_nothing(server: LiveServer, path: str, route: str) -> None:
    response = call(server, path, route, {"input": "q"} if path == "/safe_executor" else "q")
    assert_clean(response.text)
    assert SAFE_TOOL_MESSAGE in response.text  # what the model was told is there, fixed
