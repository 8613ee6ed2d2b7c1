"""LangServe 0.3.3's Python client (``langserve.RemoteRunnable``) calling the chains
served at ``argv[1]`` (``argv[2]``: by route, a JSON object of ``input`` and ``batch``, its two inputs) with invoke, batch, stream, stream_log and astream_events v2; prints
one JSON object: per route and method, what came back described by ``describe`` (the class
of every LangChain object and its fields, ids and times blanked), and every warning.

Run by LangServe's own python (``bench/langserve_env.py``), never imported by the tests'.
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


if __name__ == "__main__":
    logged = io.StringIO()
    logging.basicConfig(stream=logged, level=logging.WARNING)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = main(sys.argv[1], json.loads(sys.argv[2]))
    result["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
    result["logged"] = logged.getvalue().splitlines()
    print(json.dumps(result, sort_keys=True))
