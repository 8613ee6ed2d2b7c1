"""Scripts run by LangServe's own python (see ``langserve_env``): its client, and its server."""

from __future__ import annotations

from typing import Final

CLIENT: Final = r"""
import asyncio, json, sys
import httpx
from langserve import RemoteRunnable

url = sys.argv[1]
out = {}
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

async def main():
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
    out["log_final_output"] = state.state["final_output"]

asyncio.run(main())
print(json.dumps(out, default=repr))
"""

SERVER: Final = r"""
import asyncio
from fastapi import FastAPI
from langchain_core.runnables import RunnableLambda
from langserve import add_routes

from bench.serving_apps import serve_printing_port

def upper(text: str) -> str:
    return text.upper()

async def letters(text: str):
    # (langchain-core cannot stream a sync generator function asynchronously)
    for letter in text:
        yield letter

def fail(text: str) -> str:
    raise KeyError("server-side secret")

app = FastAPI()
add_routes(app, RunnableLambda(upper), path="/upper")
add_routes(app, RunnableLambda(letters), path="/letters")
add_routes(app, RunnableLambda(fail), path="/fail")
asyncio.run(serve_printing_port(app))
"""
