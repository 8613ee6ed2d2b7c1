"""A user's sync step never holds the event loop (issue 29, item 2).

Every assertion is about structure, not wall time, so they hold on 2 noisy cores: a
heartbeat that must tick while the step waits for it, counters kept by the threads
themselves, which run ended before which event, how many threads exist.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import attrs
import pytest

from combinators import Runnable, RunnableGenerator, RunnableLambda
from combinators.documents import Document
from combinators.language_models import LLM, BaseChatModel, FakeListChatModel, ScriptedChatModel, SimpleChatModel
from combinators.output_parsers import StrOutputParser
from combinators.retrievers import BaseRetriever, Bm25Retriever
from combinators.tools import BaseTool, tool
from combinators.agents import LoopPolicy, TimedOut, agent_loop
from combinators.messages import AIMessage, AIMessageChunk, Message
from combinators import StepTimeout, dispatch_custom_event
from effects._runtime import calls as entry, sync_steps
from effects._runtime.sync_steps import WORKERS, worker_pool
from effects.effect_values import CustomEmitted, Effect, RunEnded, RunFailed, RunStarted
from tests.unit.combinators.components.agents.helpers import calls

T = TypeVar("T")

PATIENCE = 20.0
"""How long a step waits for what the test promises before it gives up (a failure, never a hang)."""


def heartbeat_ticks_while(step_waits_for_ticks: RunnableLambda[Any, bool]) -> bool:
    """Run the step under ``ainvoke`` next to a heartbeat task; the step's result says
    whether it saw the heartbeat tick while it was running."""
    return beside_a_heartbeat(lambda: step_waits_for_ticks.ainvoke(None))


def beside_a_heartbeat(call: Callable[[], Awaitable[T]]) -> T:
    """``call()`` awaited next to a heartbeat task that sets ``HEARD`` once it ticked."""

    async def main() -> T:
        ticks = 0

        async def heartbeat() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                if ticks >= 3:
                    HEARD.set()
                await asyncio.sleep(0.001)

        beating = asyncio.create_task(heartbeat())
        try:
            return await call()
        finally:
            beating.cancel()

    HEARD.clear()
    return asyncio.run(main())


HEARD = threading.Event()


def wait_for_heartbeat(_: object) -> bool:
    return HEARD.wait(PATIENCE)  # True only if the loop ran the heartbeat meanwhile


def test_the_loop_keeps_ticking_while_a_sync_lambda_waits() -> None:
    assert heartbeat_ticks_while(RunnableLambda(wait_for_heartbeat)) is True


def test_the_loop_keeps_ticking_while_a_sync_generator_waits() -> None:
    def transform(chunks: Iterator[object]) -> Iterator[bool]:
        for _ in chunks:
            yield HEARD.wait(PATIENCE)

    assert heartbeat_ticks_while(RunnableGenerator(transform)) is True  # type: ignore[arg-type]


class Overlap:
    """Thread-side counters: how many calls are inside at once, at most."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.inside = 0
        self.most = 0
        self.company = threading.Event()

    def __call__(self, _: object) -> int:
        with self.lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
            if self.inside >= 2:
                self.company.set()
        self.company.wait(PATIENCE)  # a blocked loop never lets a second call in
        with self.lock:
            self.inside -= 1
        return self.most


def test_four_concurrent_sleeping_requests_overlap() -> None:
    overlap = Overlap()
    step = RunnableLambda(overlap)

    async def main() -> list[int]:
        return await asyncio.gather(*(step.ainvoke(i) for i in range(4)))

    asyncio.run(main())
    assert overlap.most >= 2


def test_abatch_of_sync_steps_overlaps() -> None:
    overlap = Overlap()
    asyncio.run(RunnableLambda(overlap).abatch([1, 2, 3, 4]))
    assert overlap.most >= 2


def test_a_sync_tool_runs_on_a_worker_thread() -> None:
    overlap = Overlap()

    @tool
    def waits(n: int) -> int:
        """Wait for company."""
        return overlap(n)

    async def main() -> list[object]:
        return await asyncio.gather(*(waits.ainvoke({"n": i}) for i in range(2)))

    asyncio.run(main())
    assert overlap.most == 2


def test_an_agent_with_a_time_limit_stops_while_a_sync_tool_sleeps() -> None:
    release = threading.Event()
    finished: list[bool] = []

    @tool
    def sleepy(n: int) -> int:
        """Sleep until released."""
        finished.append(release.wait(PATIENCE))
        return n

    model = ScriptedChatModel([calls(("sleepy", {"n": 1}), ("sleepy", {"n": 2})), "never"])
    agent = agent_loop(model, [sleepy], policy=LoopPolicy(timeout=0.5))
    result = asyncio.run(agent.ainvoke("x"))
    assert finished == []  # the agent stopped while both tools were still asleep
    release.set()
    assert result.stop == TimedOut(0.5)
    assert [m.tool_call_id for m in result.messages if m.type == "tool"] == ["call_0", "call_1"]


def test_answers_stay_in_call_order_when_sync_tools_finish_out_of_order() -> None:
    second_done = threading.Event()

    @tool
    def ordered(n: int) -> int:
        """The first call finishes last."""
        if n == 0:
            second_done.wait(PATIENCE)
        else:
            second_done.set()
        return n

    model = ScriptedChatModel([calls(("ordered", {"n": 0}), ("ordered", {"n": 1})), "done"])
    result = asyncio.run(agent_loop(model, [ordered]).ainvoke("x"))
    answers = [m for m in result.messages if m.type == "tool"]
    assert [(m.tool_call_id, m.text) for m in answers] == [("call_0", "0"), ("call_1", "1")]


class Recorder:
    """An observer keeping every effect, and where the root run ended."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []

    def emit(self, effect: Effect) -> None:
        self.effects.append(effect)


def test_nothing_from_an_abandoned_thread_is_emitted_after_its_run_ended() -> None:
    release = threading.Event()
    thread_done = threading.Event()
    inner = RunnableLambda(lambda x: x, name="inner", in_thread=False)

    def late(x: int) -> int:
        release.wait(PATIENCE)
        try:
            dispatch_custom_event("late", x)
            return inner.invoke(x)
        finally:
            thread_done.set()

    recorder = Recorder()

    async def main() -> None:
        chain = RunnableLambda(late, name="late")
        with pytest.raises(StepTimeout):
            async for _ in entry.astream(chain, 1, {"timeout": 0.2}, {}, (recorder,)):
                pass
        assert isinstance(recorder.effects[-1], RunFailed)  # the run ended on time
        release.set()
        assert await asyncio.to_thread(thread_done.wait, PATIENCE)
        for _ in range(20):  # let anything the thread handed to the loop arrive
            await asyncio.sleep(0.005)

    asyncio.run(main())
    names = [(type(e).__name__, e.run.name) for e in recorder.effects]
    assert names == [("RunStarted", "late"), ("RunFailed", "late")]


def test_nested_runs_and_custom_events_of_a_live_thread_arrive_in_order() -> None:
    inner = RunnableLambda(lambda x: x + 1, name="inner", in_thread=False)

    def outer(x: int) -> int:
        dispatch_custom_event("before", x)
        y = inner.invoke(x)
        dispatch_custom_event("after", y)
        return y

    recorder = Recorder()

    async def main() -> None:
        async for _ in entry.astream(RunnableLambda(outer, name="outer"), 1, None, {}, (recorder,)):
            pass

    asyncio.run(main())
    shown = [
        (type(e).__name__, e.name if isinstance(e, CustomEmitted) else e.run.name)
        for e in recorder.effects
        if isinstance(e, RunStarted | RunEnded | CustomEmitted)
    ]
    assert shown == [
        ("RunStarted", "outer"),
        ("CustomEmitted", "before"),
        ("RunStarted", "inner"),
        ("RunEnded", "inner"),
        ("CustomEmitted", "after"),
        ("RunEnded", "outer"),
    ]
    outer_id = recorder.effects[0].run.run_id
    inner_start = next(e for e in recorder.effects if e.run.name == "inner")
    assert inner_start.run.parent_ids == (outer_id,)


def _sync_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("combinators-sync-")]


def test_abandoned_threads_never_grow_the_pool_beyond_its_bound() -> None:
    release = threading.Event()

    def stuck(_: object) -> None:
        release.wait(PATIENCE)

    step = RunnableLambda(stuck)

    async def main() -> list[object]:
        calls = [step.ainvoke(i, {"timeout": 0.05}) for i in range(WORKERS + 10)]
        return await asyncio.gather(*calls, return_exceptions=True)

    try:
        outcomes = asyncio.run(main())
        assert all(isinstance(o, StepTimeout) for o in outcomes)
        assert 0 < len(_sync_threads()) <= WORKERS
    finally:
        release.set()
    assert asyncio.run(step.ainvoke(0)) is None  # the pool still serves once they are done
    assert len(_sync_threads()) <= WORKERS


def test_asyncio_run_returns_on_time_while_an_abandoned_sync_step_still_runs() -> None:
    release = threading.Event()
    still_running: list[bool] = []

    def sleeper(_: object) -> None:
        release.wait(PATIENCE)

    with pytest.raises(StepTimeout):
        asyncio.run(RunnableLambda(sleeper).ainvoke(None, {"timeout": 0.1}))
    still_running.append(not release.is_set())
    release.set()
    assert still_running == [True]  # asyncio.run did not wait for the thread


def test_interpreter_exit_does_not_wait_for_an_abandoned_sync_step() -> None:
    script = (
        "import asyncio, time\n"
        "from combinators import RunnableLambda\n"
        "step = RunnableLambda(lambda x: time.sleep(600))\n"
        "try:\n"
        "    asyncio.run(step.ainvoke(1, {'timeout': 0.2}))\n"
        "except Exception as error:\n"
        "    print(type(error).__name__)\n"
    )
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "StepTimeout", done.stderr
    assert time.monotonic() - started < 300  # far below the step's 600 s: nobody waited for it


@attrs.frozen
class WaitingRetriever(BaseRetriever):
    def _get_relevant_documents(self, query: str) -> list[Document]:
        return [Document(str(HEARD.wait(PATIENCE)))]


@attrs.frozen
class WaitingChatModel(BaseChatModel):
    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage(str(HEARD.wait(PATIENCE)))


@attrs.frozen
class WaitingStreamingModel(BaseChatModel):
    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage(str(HEARD.wait(PATIENCE)))  # unwatched, ainvoke asks for the whole reply

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        yield AIMessageChunk(str(HEARD.wait(PATIENCE)))


@attrs.frozen
class WaitingSimpleModel(SimpleChatModel):
    def _call(self, messages: list[Message], stop: list[str] | None = None) -> str:
        return str(HEARD.wait(PATIENCE))


@attrs.frozen
class WaitingLLM(LLM):
    def _call(self, prompt: str, stop: list[str] | None = None) -> str:
        return str(HEARD.wait(PATIENCE))


class WaitingTool(BaseTool):
    name: str = "waiting"
    description: str = "Waits for the heartbeat."

    def _run(self, x: int) -> str:
        return str(HEARD.wait(PATIENCE))


def _text(output: object) -> str:
    if isinstance(output, list):
        return str(output[0].page_content)
    return output if isinstance(output, str) else str(getattr(output, "text", output))


@pytest.mark.parametrize(
    ("component", "given"),
    [
        (WaitingRetriever(), "q"),
        (WaitingChatModel(), "hi"),
        (WaitingStreamingModel(), "hi"),
        (WaitingSimpleModel(), "hi"),
        (WaitingLLM(), "hi"),
        (WaitingTool(), {"x": 1}),
    ],
    ids=lambda c: type(c).__name__,
)
@pytest.mark.parametrize("call", ["ainvoke", "astream"])
def test_a_users_sync_component_hook_never_holds_the_loop(
    component: Runnable[Any, Any], given: object, call: str
) -> None:
    async def run() -> str:
        if call == "ainvoke":
            return _text(await component.ainvoke(given))
        return "".join([_text(chunk) async for chunk in component.astream(given)])

    assert beside_a_heartbeat(run) == "True"


def test_the_librarys_own_components_keep_their_native_async_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    hops: list[object] = []
    pool = worker_pool()

    class Counting:
        def submit(self, work: Callable[[], None]) -> None:
            hops.append(work)
            pool.submit(work)

    monkeypatch.setattr(sync_steps, "_pool", Counting())
    retriever = Bm25Retriever.from_documents([Document("a b"), Document("c d")])
    chain = FakeListChatModel(responses=["x y"]) | StrOutputParser()

    async def main() -> None:
        await retriever.ainvoke("a")
        await chain.ainvoke("hi")
        [c async for c in chain.astream("hi")]
        await RunnableLambda(str.upper, in_thread=False).ainvoke("a")
        assert hops == []
        await WaitingChatModel().ainvoke("hi")  # a user's hook: one hop
        assert len(hops) == 1

    HEARD.set()
    asyncio.run(main())


def test_a_peer_style_sync_invoke_runs_on_the_librarys_pool_not_the_default_executor() -> None:
    # A Runnable subclass with its own sync invoke and no ainvoke: asyncio.run would wait
    # for an abandoned thread of the loop's default executor.
    release = threading.Event()
    seen: list[str] = []
    finished: list[bool] = []

    class Slow(Runnable[str, str]):
        def invoke(self, input: str, config: Any = None, **kwargs: Any) -> str:
            seen.append(threading.current_thread().name)
            release.wait(PATIENCE)
            finished.append(True)
            return input

    with pytest.raises(StepTimeout):
        asyncio.run(Slow().ainvoke("x", {"timeout": 0.1}))
    finished_before_run_returned = list(finished)
    release.set()
    assert finished_before_run_returned == []  # asyncio.run did not wait for the thread
    assert len(seen) == 1 and seen[0].startswith("combinators-sync-")
