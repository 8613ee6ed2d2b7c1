"""W13: a tool-calling agent, ours (``AgentExecutor`` on ``agent_loop``) against the
peer's ``AgentExecutor`` (``langchain-classic``), same script, same prompt, same run.

The scripted model asks for two tools three times (``add`` and ``mul``), then answers:
four model calls, six tool calls per run. Rows: ms per ``invoke`` and per
``astream_events`` (v2) run, and the time the same four model calls and six tool calls
take when made on their own in each library ("parts"). The loop's overhead is the run
minus its parts; the budget compares the two libraries' overheads.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from bench.harness import AsyncFn, Outcome, Side, Stat, SyncFn, compare_async, compare_sync, describe_error
from bench.record import Results, difference, quotient

MS = 1e3
ANSWER = "The answer is 42."
STEPS = 3


def _calls(k: int) -> list[tuple[str, dict[str, int], str]]:
    return [("add", {"a": k, "b": 1}, f"c{k}a"), ("mul", {"a": k, "b": 2}, f"c{k}m")]


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


class _Parts:
    """The model and tools of one library, and a function making the same calls alone."""

    def __init__(self, executor: Any, model: Any, tools: list[Any], model_input: Any) -> None:
        self.executor = executor
        self.bound = model.bind_tools(tools)
        self.tools = tools
        self.model_input = model_input

    def alone(self, streamed: bool = False) -> None:
        """The run's model and tool calls made on their own (the model streamed, as it
        is in a run someone watches, when ``streamed``)."""
        for _ in range(STEPS + 1):
            if streamed:
                for _chunk in self.bound.stream(self.model_input):
                    pass
            else:
                self.bound.invoke(self.model_input)
        for k in range(1, STEPS + 1):
            for (name, args, _), t in zip(_calls(k), self.tools, strict=True):
                assert t.name == name
                t.invoke(args)


def _ours() -> _Parts:
    import itertools

    import attrs

    from combinators.language_models import BaseChatModel
    from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
    from combinators.tools import tool
    from combinators.agents import AgentExecutor, create_tool_calling_agent
    from combinators.messages import AIMessage, ToolCall
    from combinators.components.models.chunking import message_chunks

    @attrs.frozen
    class Scripted(BaseChatModel):
        """The same fake as the peer's: the script's messages in a cycle, streamed token by token."""

        script: tuple[AIMessage, ...]
        position: Iterator[int] = attrs.field(factory=itertools.count, eq=False)

        def _next(self) -> AIMessage:
            return self.script[next(self.position) % len(self.script)]

        def _generate(self, messages: Any, stop: Any = None, **kwargs: Any) -> AIMessage:
            return self._next()

        def _stream(self, messages: Any, stop: Any = None, **kwargs: Any) -> Any:
            yield from message_chunks(self._next())

    script = (
        *(AIMessage("", tool_calls=[ToolCall(n, a, id=i) for n, a, i in _calls(k)]) for k in range(1, STEPS + 1)),
        AIMessage(ANSWER),
    )
    model = Scripted(script)
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Use the tools."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    tools = [tool(add), tool(mul)]
    executor = AgentExecutor(agent=create_tool_calling_agent(model, tools, prompt), tools=tools)
    return _Parts(executor, model, tools, "go")


def _peer() -> _Parts:
    from langchain_classic.agents import AgentExecutor, create_tool_calling_agent
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import AIMessage, AIMessageChunk
    from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
    from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
    from langchain_core.tools import tool

    class Scripted(BaseChatModel):
        """The reference's probe fake: scripted messages, streamed token by token."""

        script: list[Any]
        i: int = 0

        @property
        def _llm_type(self) -> str:
            return "scripted"

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

        def _next(self) -> Any:
            message = self.script[self.i % len(self.script)]
            self.i += 1
            return message.model_copy(deep=True)  # a fresh object each call, as the reference's fake

        def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
            return ChatResult(generations=[ChatGeneration(message=self._next())])

        def _stream(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
            message = self._next()
            for token in [t for t in re.split(r"(\s)", message.content) if t]:
                chunk = ChatGenerationChunk(message=AIMessageChunk(content=token))
                if run_manager:
                    run_manager.on_llm_new_token(token, chunk=chunk)
                yield chunk
            for index, call in enumerate(message.tool_calls):
                piece = {"name": call["name"], "args": json.dumps(call["args"]), "id": call["id"],
                         "index": index, "type": "tool_call_chunk"}  # fmt: skip
                chunk = ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=[piece]))
                if run_manager:
                    run_manager.on_llm_new_token("", chunk=chunk)
                yield chunk

    script = [
        *(
            AIMessage("", tool_calls=[{"name": n, "args": a, "id": i} for n, a, i in _calls(k)])
            for k in range(1, STEPS + 1)
        ),
        AIMessage(ANSWER),
    ]
    model = Scripted(script=script)
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Use the tools."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    tools = [tool(add), tool(mul)]
    executor = AgentExecutor(agent=create_tool_calling_agent(model, tools, prompt), tools=tools)
    return _Parts(executor, model, tools, "go")


def _floor() -> SyncFn:
    """The same calls in plain Python: a loop over the script calling two functions."""

    functions = {"add": add, "mul": mul}

    def run() -> str:
        transcript: list[object] = ["go"]
        for k in range(1, STEPS + 1):
            calls = _calls(k)
            transcript.append(calls)
            transcript.extend(functions[name](**args) for name, args, _ in calls)
        return ANSWER

    return run


def _built(res: Results) -> dict[str, Side[_Parts]]:
    built: dict[str, Side[_Parts]] = {}
    for side, make, lib in (("ours", _ours, res.ours), ("peer", _peer, res.peer)):
        if isinstance(lib, str):
            built[side] = None
            continue
        try:
            built[side] = make()
        except Exception as exc:  # langchain-classic missing, or a failure on our side
            built[side] = describe_error(exc)
    return built


def _sides(built: dict[str, Side[_Parts]], make: Callable[[_Parts], Any]) -> dict[str, Any]:
    return {side: p if p is None or isinstance(p, str) else make(p) for side, p in built.items()}


def _output(result: dict[str, Any]) -> str:
    return str(result["output"])


def _events(parts: _Parts, counts: dict[str, int], side: str) -> AsyncFn:
    async def run() -> str:
        n = 0
        last: Any = None
        async for event in parts.executor.astream_events({"input": "go"}, version="v2"):
            n += 1
            if event["event"] == "on_chain_end" and not event["parent_ids"]:
                last = event  # (the peer sends one more stream event after its root's end)
        counts[side] = n
        return str(last["data"]["output"]["output"])

    return run


def _overhead(out: dict[str, Outcome], parts: dict[str, Outcome]) -> dict[str, float | str | None]:
    found: dict[str, float | str | None] = {}
    for side in ("ours", "peer"):
        total, alone = out.get(side), parts.get(side)
        found[side] = difference(
            total.median if isinstance(total, Stat) else total, alone.median if isinstance(alone, Stat) else alone
        )
    return found


def w13_agent(res: Results) -> None:
    s = res.settings
    built = _built(res)
    parts = compare_sync(_sides(built, lambda p: p.alone), repeat=s.repeat, target=s.target)
    res.add("W13", f"the {STEPS + 1} model and {2 * STEPS} tool calls alone, ms", "ms", parts, MS,
            note="each library's own model.invoke and tool.invoke, outside any agent")  # fmt: skip
    invoked = compare_sync(
        _sides(built, lambda p: lambda: _output(p.executor.invoke({"input": "go"}))) | {"floor": _floor()},
        repeat=s.repeat, target=s.target, expect=ANSWER,
    )  # fmt: skip
    row = res.add("W13", f"AgentExecutor invoke, {STEPS} steps x 2 tool calls, ms/run", "ms", invoked, MS)
    overhead = _overhead(invoked, parts)
    res.budget("W13", "agent invoke: loop overhead (run minus its model and tool calls), ours/peer",
               quotient(overhead["ours"], overhead["peer"]), "<=", 1 / 20,
               context=f"run ours/peer {row.ratio('peer')}")  # fmt: skip
    streamed_parts = compare_sync(
        _sides(built, lambda p: lambda: p.alone(streamed=True)), repeat=s.repeat, target=s.target
    )
    res.add("W13", "the same calls alone, the model streamed, ms", "ms", streamed_parts, MS,
            note="a watched model streams: these are the parts of the events run")  # fmt: skip
    counts: dict[str, int] = {}
    streamed = compare_async(
        {side: p if p is None or isinstance(p, str) else _events(p, counts, side) for side, p in built.items()},
        repeat=s.repeat_heavy, target=s.target, expect=ANSWER,
    )  # fmt: skip
    res.add("W13", "AgentExecutor astream_events v2, ms/run", "ms", streamed, MS,
            note=f"events per run: ours {counts.get('ours', 'n/a')}, peer {counts.get('peer', 'n/a')}")  # fmt: skip
    overhead = _overhead(streamed, streamed_parts)
    # Under async the sync tools and the sync-streaming model hop to worker threads (in
    # both libraries: the peer runs them in its executor, chunk by chunk for a stream).
    res.budget("W13", "agent astream_events: loop overhead (run minus its model and tool calls), ours/peer",
               quotient(overhead["ours"], overhead["peer"]), "<=", 1 / 5)  # fmt: skip


def _check() -> None:  # pragma: no cover - a quick look by hand: python -m bench.workloads_agents
    for make in (_ours, _peer):
        p = make()
        print(make.__name__, p.executor.invoke({"input": "go"}))
        print(asyncio.run(_events(p, {}, "x")()))
