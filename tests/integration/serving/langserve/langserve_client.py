"""LangServe 0.3.3's Python client (``langserve.RemoteRunnable``): every script the tests
run with LangServe's own python (``bench/langserve_env.py``; never imported by the tests'
python). ``argv[1]`` names what to run, ``argv[2]`` is the server's URL; each prints one
JSON object on its last line:

- ``matrix URL CALLS``: the chains served at ``URL`` (``CALLS``: by route, a JSON object of
  ``input`` and ``batch``, its two inputs) with invoke, batch, stream, stream_log and
  astream_events v2: per route and method, what came back described by ``describe`` (the
  class of every LangChain object and its fields, ids and times blanked), and every warning;
- ``basics URL``: ``tests/integration/serving/chains.py``'s routes (shout, letters,
  human_like, fails, chat, model), sync and async, as ``test_compat.py`` checks them;
- ``config_hash URL CONFIG``: ``URL/c/<hash>`` with the hash LangServe's own ``LZString``
  makes of ``CONFIG``: invoke, batch and stream, and the hash.
"""

import asyncio
import io
import json
import logging
import re
import sys
import warnings
from typing import Any

from langchain_core.documents import Document
from langchain_core.load.serializable import Serializable
from langchain_core.messages import BaseMessage
from langchain_core.prompt_values import PromptValue
from langserve import RemoteRunnable
from langserve.lzstring import LZString
from pydantic import BaseModel

BLANKED = {"id", "run_id", "parent_ids", "start_time", "end_time", "parent_run_id", "tool_call_id"}
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def describe(value: Any) -> Any:
    """JSON of ``value``: a LangChain object as ``{"class": ..., fields...}``; ids and times blanked."""
    if isinstance(value, (BaseMessage, Document, PromptValue, Serializable, BaseModel)):
        # field by field (not model_dump, which would turn nested messages into dicts)
        fields = {name: getattr(value, name) for name in type(value).model_fields}
        return {"class": type(value).__name__, **describe(fields)}
    if isinstance(value, dict):
        return {str(k): "<blank>" if k in BLANKED and v else describe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [describe(v) for v in value]
    if isinstance(value, str) and UUID.match(value):
        return "<uuid>"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return {"class": type(value).__name__, "repr": repr(value)}


async def stream_log_state(remote: RemoteRunnable, value: Any) -> Any:
    state = None
    async for patch in remote.astream_log(value):
        state = patch if state is None else state + patch
    assert state is not None
    log = state.state
    return {
        "streamed_output": describe(log["streamed_output"]),
        "final_output": describe(log["final_output"]),
        "logs": sorted([name, entry["type"], describe(entry["final_output"])] for name, entry in log["logs"].items()),
    }


async def events(remote: RemoteRunnable, value: Any) -> Any:
    return [
        {"event": e["event"], "name": e["name"], "data": describe(e["data"])}
        async for e in remote.astream_events(value, version="v2")
    ]


def call(remote: RemoteRunnable, method: str, value: Any, batch: list[Any]) -> Any:
    if method == "invoke":
        return describe(remote.invoke(value))
    if method == "batch":
        return describe(remote.batch(batch))
    if method == "stream":
        return describe(list(remote.stream(value)))
    if method == "stream_log":
        return asyncio.run(stream_log_state(remote, value))
    return describe(asyncio.run(events(remote, value)))


def main(url: str, inputs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for route, given in inputs.items():
        remote = RemoteRunnable(f"{url}/{route}")
        for method in ("invoke", "batch", "stream", "stream_log", "astream_events"):
            try:
                out[f"{route}.{method}"] = call(remote, method, given["input"], given["batch"])
            except Exception as error:  # recorded: the test names the call that failed
                out[f"{route}.{method}"] = {"error": f"{type(error).__name__}: {error}"[:500]}
    return out


def basics(url: str) -> dict[str, Any]:
    import httpx

    out: dict[str, Any] = {}
    shout = RemoteRunnable(url + "/shout")
    out["invoke"] = shout.invoke("hi")
    out["batch"] = shout.batch(["a", "b"])
    out["stream"] = list(RemoteRunnable(url + "/letters").stream("abc"))
    plain = RemoteRunnable(url + "/human_like").invoke("hi")
    out["plain"] = [type(plain).__name__, getattr(plain, "content", None)]
    try:
        RemoteRunnable(url + "/fails").invoke("x")
    except httpx.HTTPStatusError as error:
        out["error_status"] = error.response.status_code
    try:
        list(RemoteRunnable(url + "/fails").stream("x"))
    except httpx.HTTPStatusError as error:
        out["stream_error_status"] = error.response.status_code

    async def main() -> None:
        chat = RemoteRunnable(url + "/chat")
        out["ainvoke"] = await chat.ainvoke({"question": "q"})
        out["abatch"] = await shout.abatch(["x", "y"])
        out["astream"] = [c async for c in RemoteRunnable(url + "/letters").astream("xy")]
        events = [e async for e in chat.astream_events({"question": "q"}, version="v2")]
        out["events"] = [[e["event"], e["name"]] for e in events]
        streamed = [e["data"]["chunk"] for e in events if e["event"] == "on_chat_model_stream"]
        out["token_types"] = sorted({type(chunk).__name__ for chunk in streamed})
        out["tokens"] = [chunk.content for chunk in streamed]
        model = RemoteRunnable(url + "/model")
        message = await model.ainvoke({"question": "q"})
        out["message"] = [type(message).__name__, message.content]
        out["message_chunks"] = sorted({type(c).__name__ async for c in model.astream({"question": "q"})})
        state = None
        async for patch in chat.astream_log({"question": "q"}):
            state = patch if state is None else state + patch
        assert state is not None
        out["log_final_output"] = state.state["final_output"]

    asyncio.run(main())
    return out


def config_hash(url: str, config: str) -> dict[str, Any]:
    made = LZString.compressToEncodedURIComponent(config)
    remote = RemoteRunnable(f"{url}/c/{made}")
    return {
        "hash": made,
        "invoke": remote.invoke("x"),
        "batch": remote.batch(["x", "y"]),
        "stream": list(remote.stream("x")),
    }


if __name__ == "__main__" and sys.argv[1] == "basics":
    print(json.dumps(basics(sys.argv[2]), default=repr))
elif __name__ == "__main__" and sys.argv[1] == "config_hash":
    print(json.dumps(config_hash(sys.argv[2], sys.argv[3])))
elif __name__ == "__main__":
    logged = io.StringIO()
    logging.basicConfig(stream=logged, level=logging.WARNING)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = main(sys.argv[2], json.loads(sys.argv[3]))
    result["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
    result["logged"] = logged.getvalue().splitlines()
    print(json.dumps(result, sort_keys=True))
