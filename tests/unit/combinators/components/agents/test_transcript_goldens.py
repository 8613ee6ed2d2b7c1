"""Golden transcripts of our agent: its events (v1, v2) and its run log, exactly.

The issue's seed-transcript tests check the shape (order, nesting); these pin every
event's content, and its order within its run (under async, plain-function tools run
on worker threads at once, so the events of different runs interleave as the threads
go; the sync goldens, one call at a time, are compared exactly), so that making the
loop faster can never change what its observers see. Each scenario runs under ``astream_events`` v2 and v1 and ``astream_log``
(async and sync); run ids, message ids made from them and times are normalised
(``tests.conformance.transcripts``), and so are the ids ``ScriptedChatModel`` makes.

Regenerate (only for a deliberate change of the events, said in the changelog):

    PYTHONPATH=. python -m tests.unit.combinators.components.agents.test_transcript_goldens
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from combinators import Runnable
from combinators.language_models import BaseChatModel, ScriptedChatModel
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.tools import tool
from combinators.agents import AgentExecutor, LoopPolicy, agent_loop, create_tool_calling_agent
from combinators.messages import AIMessage, AIMessageChunk, InvalidToolCall, ToolCall
from combinators.components.models.chunking import message_chunks
from tests.conformance.transcripts import Json, arecord, record

GOLDEN = Path(__file__).parent / "golden"
PROJECTIONS = ("events_v2", "events_v1", "log")


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@tool
def broken(reason: str) -> str:
    """Always fails."""
    raise ValueError(reason)


def _steps(n: int) -> list[AIMessage | str]:
    asked = [
        AIMessage("", tool_calls=[ToolCall("add", {"a": k, "b": 1}, id=f"c{k}a"), ToolCall("mul", {"a": k, "b": 2}, id=f"c{k}m")])
        for k in range(1, n + 1)
    ]  # fmt: skip
    return [*asked, "The answer is 42."]


def executor() -> Runnable[Any, Any]:
    """The benchmark's shape: a prompt, two tools called together three times, an answer."""
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Use the tools."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    model = ScriptedChatModel(_steps(3))
    agent = create_tool_calling_agent(model, [add, mul], prompt)
    return AgentExecutor(agent=agent, tools=[add, mul]).with_config(run_name="Agent")


def troubles(policy: LoopPolicy = LoopPolicy()) -> Runnable[Any, Any]:
    """Errors that go back to the model: a failing tool, bad arguments, an unknown tool,
    arguments that are not JSON; then a call without an id, then the answer."""
    asked = AIMessage(
        "Let me try.",
        tool_calls=[
            ToolCall("add", {"a": 1, "b": 2}, id="t1"),
            ToolCall("broken", {"reason": "disk full"}, id="t2"),
            ToolCall("add", {"a": "x"}, id="t3"),
            ToolCall("nope", {}, id="t4"),
        ],
        invalid_tool_calls=[InvalidToolCall("mul", '{"a": ', "t5", None)],
    )
    model = ScriptedChatModel([asked, AIMessage("", tool_calls=[ToolCall("mul", {"a": 6, "b": 7})]), "Done."])
    return agent_loop(model, [add, mul, broken], policy=policy)


def one_by_one() -> Runnable[Any, Any]:
    """``troubles`` with the calls of a step run one by one (in sync too: no race)."""
    return troubles(LoopPolicy(max_concurrency=1))


def raising() -> Runnable[Any, Any]:
    """``tool_errors="raise"``: the run fails; one call at a time, so the call after the
    failing one is cancelled as it starts (calls running at once would race the failure)."""
    asked = AIMessage(
        "", tool_calls=[ToolCall("broken", {"reason": "no"}, id="r1"), ToolCall("add", {"a": 1, "b": 1}, id="r2")]
    )
    policy = LoopPolicy(tool_errors="raise", max_concurrency=1)
    return agent_loop(ScriptedChatModel([asked, "never"]), [add, broken], policy=policy)


def limited() -> Runnable[Any, Any]:
    """The iteration limit with a final answer: the last call has no tools."""
    asked = AIMessage("", tool_calls=[ToolCall("add", {"a": 1, "b": 1}, id="l1")])
    policy = LoopPolicy(max_iterations=2, on_limit="final_answer")
    return agent_loop(ScriptedChatModel([asked, asked, "Stopped."]), [add], policy=policy)


@attrs.frozen
class SyncStreaming(BaseChatModel):
    """A model with a sync token stream only (its async one is the default)."""

    script: tuple[AIMessage, ...]
    at: list[int] = attrs.field(factory=lambda: [0], eq=False)

    def _next(self) -> AIMessage:
        self.at[0] += 1
        return self.script[self.at[0] - 1]

    def _generate(self, messages: Any, stop: Any = None, **kwargs: Any) -> AIMessage:
        return self._next()

    def _stream(self, messages: Any, stop: Any = None, **kwargs: Any) -> Iterator[AIMessageChunk]:
        yield from message_chunks(self._next())


def sync_streaming() -> Runnable[Any, Any]:
    """A model that streams with ``_stream`` only, tools called together, an answer."""
    script = tuple(AIMessage(s) if isinstance(s, str) else s for s in _steps(2))
    return agent_loop(SyncStreaming(script), [add, mul])


SCENARIOS: dict[str, tuple[Callable[[], Runnable[Any, Any]], object]] = {
    "executor": (executor, {"input": "go"}),
    "sync_streaming": (sync_streaming, "go"),
    "troubles": (troubles, "What is 1 + 2?"),
    "one_by_one": (one_by_one, "What is 1 + 2?"),
    "raising": (raising, "q"),
    "limited": (limited, [("human", "add")]),
}

_FRESH = re.compile(r"\b(scripted-|call_)[0-9a-f]{24}\b")


def _fresh_ids(value: Json, seen: dict[str, str]) -> Json:
    """The ids ``ScriptedChatModel`` makes (per process and call) -> ``<prefix>N``."""
    if isinstance(value, str):
        return _FRESH.sub(lambda m: seen.setdefault(m.group(0), f"{m.group(1)}{len(seen)}"), value)
    if isinstance(value, list):
        items: list[Json] = value
        return [_fresh_ids(v, seen) for v in items]
    if isinstance(value, dict):
        fields: dict[str, Json] = value
        return {k: _fresh_ids(v, seen) for k, v in fields.items()}
    return value


def _native(value: object) -> object:
    return value  # our own form, as it is


async def _arecord(runnable: Runnable[Any, Any], projection: str, input: object) -> Json:
    return _fresh_ids(await arecord(runnable, projection, input, form=_native), {})


def _record(runnable: Runnable[Any, Any], projection: str, input: object) -> Json:
    return _fresh_ids(record(runnable, projection, input, form=_native), {})


def _golden(scenario: str, projection: str) -> Path:
    return GOLDEN / f"{scenario}.{projection}.json"


def _dump(transcript: Json) -> str:
    lines = ",\n  ".join(json.dumps(item, ensure_ascii=False, sort_keys=False) for item in transcript["items"])
    return f'{{"raised": {json.dumps(transcript["raised"])},\n "items": [\n  {lines}\n ]\n}}\n'


def _by_run(transcript: Json, projection: str) -> Json:
    """Each run's own events (or run log operations) in order, the runs in order of
    their start: under async, plain-function tools run on worker threads at once, so
    their events interleave as the threads go. Starts come in call order (each call's
    task starts its run at once), and so do the ids numbered by first appearance; the
    tree is in each event's ``parent_ids``."""
    runs: dict[str, list[Json]] = {}
    for item in transcript["items"]:
        if projection == "log":
            for op in item:
                parts = op["path"].split("/")
                runs.setdefault(parts[2] if parts[1:2] == ["logs"] else "", []).append(op)
        else:
            runs.setdefault(item["run_id"], []).append(item)
    return {"raised": transcript["raised"], "runs": dict(runs)}


@pytest.mark.parametrize("projection", PROJECTIONS)
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_async_transcript_is_the_golden_one(scenario: str, projection: str) -> None:
    make, given = SCENARIOS[scenario]
    got = asyncio.run(_arecord(make(), projection, given))
    golden = json.loads(_golden(scenario, projection).read_text(encoding="utf-8"))
    assert _by_run(got, projection) == _by_run(golden, projection)
    assert list(_by_run(got, projection)["runs"]) == list(_by_run(golden, projection)["runs"])


@pytest.mark.parametrize("projection", PROJECTIONS)
@pytest.mark.parametrize("scenario", ["limited", "one_by_one"])
def test_sync_transcript_is_the_golden_one(scenario: str, projection: str) -> None:
    # Only scenarios whose steps run one call at a time: in sync, the calls of a step run
    # on the pool at once, so their events interleave as the threads go.
    make, given = SCENARIOS[scenario]
    got = _record(make(), projection, given)
    assert _dump(got) == _golden(scenario, projection).read_text(encoding="utf-8")


def test_the_goldens_hold_what_the_scenarios_promise() -> None:
    v2 = json.loads(_golden("executor", "events_v2").read_text(encoding="utf-8"))
    kinds = [item["event"] for item in v2["items"]]
    assert (kinds[0], kinds[-1]) == ("on_chain_start", "on_chain_end")
    assert kinds.count("on_tool_start") == kinds.count("on_tool_end") == 6
    assert kinds.count("on_chat_model_start") == kinds.count("on_prompt_start") == 4
    troubles = json.loads(_golden("troubles", "events_v2").read_text(encoding="utf-8"))
    assert [i["event"] for i in troubles["items"]].count("on_tool_error") == 2  # broken, and add's bad arguments
    assert json.loads(_golden("raising", "events_v2").read_text(encoding="utf-8"))["raised"]["type"] == "ValueError"


def _write() -> None:  # pragma: no cover - run by hand (see the module docstring)
    GOLDEN.mkdir(exist_ok=True)
    for scenario, (make, given) in SCENARIOS.items():
        for projection in PROJECTIONS:
            _golden(scenario, projection).write_text(
                _dump(asyncio.run(_arecord(make(), projection, given))), encoding="utf-8"
            )
            print("wrote", _golden(scenario, projection), file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    _write()
