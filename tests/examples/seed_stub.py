"""The network stand-ins of the seed pages' examples, shared by our ports and the recorder.

An OpenAI-compatible responder for :class:`FakeOpenAIServer` (127.0.0.1): chat completions
(streamed or not), embeddings, a 404 for the model ``badmodel`` (OpenAI's body), and a
call of the search tool when tools are offered, in either of OpenAI's forms (``tools``,
as our tool-calling agent sends, or ``functions``, as LangChain's functions agent sends).
"""

from __future__ import annotations

import json
from typing import Any

from tests.unit.combinators.integrations.openai.fake_server import (
    JsonReply,
    Recorded,
    SseReply,
    chunk,
    completion,
    embedding_response,
    error_body,
    text_stream,
    tool_call,
)

JOKE = ["Why", " don't", " bears", " wear", " shoes", "?\n\n", "Because", " they", " have", " bear", " feet", "!"]
CATS = ["Why", " don't", " cats", " play", " poker", "?"]
ANSWER = ["The", " powerhouse", " of", " the", " cell", " is", " the", " mitochond", "ria", "."]
WEATHER = ["The", " weather", " in", " San", " Francisco", " is", " sunny", "."]
SEARCH_TOOL = "tavily_search_results_json"
SEARCH_ARGS = json.dumps({"input": "weather in SF"})
SEARCH_RESULT = json.dumps([{"url": "https://weather.example", "content": "San Francisco: sunny, 18C"}])


def _tool_call_reply(body: dict[str, Any]) -> JsonReply | SseReply:
    if body.get("functions"):  # the legacy form: one function call
        call = {"name": SEARCH_TOOL, "arguments": SEARCH_ARGS}
        if body.get("stream"):
            delta = {"role": "assistant", "content": None, "function_call": call}
            return SseReply([chunk(delta), chunk({}, finish_reason="function_call")])
        reply = completion(None, finish_reason="function_call")
        reply["choices"][0]["message"]["function_call"] = call
        return JsonReply(reply)
    tool = tool_call(SEARCH_TOOL, SEARCH_ARGS, "call_1")
    if body.get("stream"):
        delta = {"role": "assistant", "content": None, "tool_calls": [{"index": 0, **tool}]}
        return SseReply([chunk(delta), chunk({}, finish_reason="tool_calls")])
    return JsonReply(completion(None, tool_calls=[tool], finish_reason="tool_calls"))


def stub_reply(request: Recorded) -> JsonReply | SseReply:
    """The stub's answer to one request (the responder of a ``FakeOpenAIServer``)."""
    body = request.body
    if request.path.endswith("/embeddings"):
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        return JsonReply(embedding_response([[float("cell" in t), float("lipid" in t), 1.0] for t in texts]))
    if body.get("model") == "badmodel":
        return JsonReply(error_body("The model `badmodel` does not exist", code="model_not_found"), status=404)
    messages = body["messages"]
    offered = body.get("tools") or body.get("functions")
    if offered and not any(m["role"] in ("tool", "function") for m in messages):
        return _tool_call_reply(body)
    last = str(messages[-1]["content"])
    tokens = WEATHER if offered else ANSWER if "powerhouse" in last else CATS if "cats" in last else JOKE
    if body.get("stream"):
        return SseReply(text_stream(tokens))
    return JsonReply(completion("".join(tokens)))
