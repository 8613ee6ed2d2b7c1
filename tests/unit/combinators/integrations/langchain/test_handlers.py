"""config={"callbacks": ...} on our runnables: LangChain's callback handlers told about our
runs exactly as langchain-core's own chain tells them (a tree of runs, each run's calls in
order), sync and async, failures and cancellation; LangChain's handler rules (ignore_*,
raise_error, async handlers, a manager's parent run); secrets redacted; no handler, no cost."""

from __future__ import annotations

import asyncio
import pickle
import uuid
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler, CallbackManager
from langchain_core.language_models import FakeListChatModel as TheirFakeModel
from langchain_core.output_parsers import StrOutputParser as TheirStrParser
from langchain_core.prompts import ChatPromptTemplate as TheirChatPrompt
from langchain_core.runnables import Runnable as TheirRunnable
from langchain_core.runnables import RunnableLambda as TheirLambda

from combinators import Runnable, RunnableLambda, RunConfig
from combinators.integrations.langchain.handlers import LangChainCallbacks, callback_error_count
from combinators.language_models import FakeListChatModel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from combinators.secrets import Secret
from effects.hooks import callbacks_observer_factory
from tests.unit.combinators.integrations.langchain.recording import AsyncRecorder, Recorder, norm, tree


def _bang(text: str) -> str:
    return text + "!"


def _boom(text: str) -> str:
    raise ValueError("boom")


def ours(last: Any = _bang) -> Runnable[dict[str, str], str]:
    return (
        ChatPromptTemplate.from_messages([("human", "{q}")])
        | FakeListChatModel(responses=["ab"])
        | StrOutputParser()
        | RunnableLambda(last, name="last")
    )


def theirs(last: Any = _bang) -> TheirRunnable[dict[str, str], str]:
    return (
        TheirChatPrompt.from_messages([("human", "{q}")])
        | TheirFakeModel(responses=["ab"])
        | TheirStrParser()
        | TheirLambda(last, name="last")
    )


def config(handler: object) -> Any:  # one config for both libraries' typed dicts
    return {"tags": ["T"], "metadata": {"m": 1}, "callbacks": [handler]}


def test_invoke_tells_a_handler_what_langchain_tells_it() -> None:
    mine, peer = Recorder(), Recorder()
    assert ours().invoke({"q": "hi"}, config(mine)) == "ab!"
    assert theirs().invoke({"q": "hi"}, config(peer)) == "ab!"
    assert tree(mine.calls) == tree(peer.calls)
    assert [name for name, _, _ in mine.calls][:2] == ["on_chain_start", "on_chain_start"]
    assert len(tree(mine.calls)) == 5


def test_stream_tells_tokens_and_streamed_inputs_as_langchain_does() -> None:
    mine, peer = Recorder(), Recorder()
    assert list(ours().stream({"q": "hi"}, {"callbacks": [mine]})) == ["ab!"]
    assert list(theirs().stream({"q": "hi"}, {"callbacks": [peer]})) == ["ab!"]
    got = tree(mine.calls)
    assert got == tree(peer.calls)
    assert [c for c in got[("RunnableSequence", "FakeListChatModel")] if c[0] == "token"] == [
        ("token", "a"),
        ("token", "b"),
    ]


async def test_async_calls_tell_a_handler_what_langchain_tells_it() -> None:
    mine, peer = Recorder(), Recorder()
    assert await ours().ainvoke({"q": "hi"}, config(mine)) == "ab!"
    assert await theirs().ainvoke({"q": "hi"}, config(peer)) == "ab!"
    assert tree(mine.calls) == tree(peer.calls)
    mine, peer = Recorder(), Recorder()
    assert [c async for c in ours().astream({"q": "hi"}, {"callbacks": [mine]})] == ["ab!"]
    assert [c async for c in theirs().astream({"q": "hi"}, {"callbacks": [peer]})] == ["ab!"]
    assert tree(mine.calls) == tree(peer.calls)


async def test_async_handlers_are_awaited_in_async_calls_and_run_in_sync_ones() -> None:
    mine, peer = AsyncRecorder(), AsyncRecorder()
    await ours().ainvoke({"q": "hi"}, {"callbacks": [mine]})
    await theirs().ainvoke({"q": "hi"}, {"callbacks": [peer]})
    assert tree(mine.calls) == tree(peer.calls)
    mine, peer = AsyncRecorder(), AsyncRecorder()
    # A sync call from inside a running loop: the coroutines run on a helper thread.
    ours().invoke({"q": "hi"}, {"callbacks": [mine]})
    theirs().invoke({"q": "hi"}, {"callbacks": [peer]})
    assert tree(mine.calls) == tree(peer.calls)


def test_async_handlers_run_in_a_sync_call_without_a_loop() -> None:
    mine, peer = AsyncRecorder(), AsyncRecorder()
    ours().invoke({"q": "hi"}, {"callbacks": [mine]})
    theirs().invoke({"q": "hi"}, {"callbacks": [peer]})
    assert tree(mine.calls) == tree(peer.calls)


def test_a_failure_is_told_as_langchain_tells_it() -> None:
    mine, peer = Recorder(), Recorder()
    with pytest.raises(ValueError, match="boom"):
        ours(_boom).invoke({"q": "hi"}, {"callbacks": [mine]})
    with pytest.raises(ValueError, match="boom"):
        theirs(_boom).invoke({"q": "hi"}, {"callbacks": [peer]})
    got = tree(mine.calls)
    assert got == tree(peer.calls)
    assert got[("RunnableSequence",)][-1][:2] == ("error", "ValueError")


async def test_a_failure_under_async_streaming_is_told_as_langchain_tells_it() -> None:
    mine, peer = Recorder(), Recorder()
    with pytest.raises(ValueError, match="boom"):
        [c async for c in ours(_boom).astream({"q": "hi"}, {"callbacks": [mine]})]
    with pytest.raises(ValueError, match="boom"):
        [c async for c in theirs(_boom).astream({"q": "hi"}, {"callbacks": [peer]})]
    got, expected = tree(mine.calls), tree(peer.calls)
    # The one known difference: the failed streamed lambda's input. Ours reports the
    # whole input it read ("ab"); LangChain's reports the chunks its input tee had
    # passed on when the error surfaced ("a").
    assert got[("RunnableSequence", "last")][0][4] == "ab"
    for runs in (got, expected):
        start = runs[("RunnableSequence", "last")][0]
        runs[("RunnableSequence", "last")][0] = (*start[:4], None)
    assert got == expected


async def test_cancellation_is_told_as_an_error_of_each_open_run() -> None:
    started = asyncio.Event()

    async def forever(text: str) -> str:
        started.set()
        await asyncio.sleep(3600)
        return text

    async def cancelled(chain: Any, handler: Recorder) -> None:
        started.clear()
        task = asyncio.ensure_future(chain.ainvoke({"q": "hi"}, {"callbacks": [handler]}))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    mine, peer = Recorder(), Recorder()
    await cancelled(ours(forever), mine)
    await cancelled(theirs(forever), peer)
    got = tree(mine.calls)
    assert got == tree(peer.calls)
    assert got[("RunnableSequence", "last")][-1][:2] == ("error", "CancelledError")
    assert got[("RunnableSequence",)][-1][:2] == ("error", "CancelledError")


def test_a_managers_parent_run_parents_our_runs() -> None:
    parent = uuid.uuid4()
    recorder = Recorder()
    manager = CallbackManager(handlers=[recorder], inheritable_handlers=[recorder], parent_run_id=parent)
    manager.add_tags(["outer"])
    ours().invoke({"q": "hi"}, {"callbacks": manager})
    roots = [kw for name, _, kw in recorder.calls if name == "on_chain_start" and kw["name"] == "RunnableSequence"]
    assert [kw["parent_run_id"] for kw in roots] == [parent]
    assert all("outer" in kw["tags"] for _, _, kw in recorder.calls if "tags" in kw)
    assert len(tree(recorder.calls, root_parent=parent)) == 5


def test_ignore_flags_skip_a_handler_as_langchain_skips_it() -> None:
    class NoChains(Recorder):
        @property
        def ignore_chain(self) -> bool:
            return True

    mine, peer = NoChains(), NoChains()
    ours().invoke({"q": "hi"}, {"callbacks": [mine]})
    theirs().invoke({"q": "hi"}, {"callbacks": [peer]})
    assert [name for name, _, _ in mine.calls] == [name for name, _, _ in peer.calls]
    assert [name for name, _, _ in mine.calls] == ["on_chat_model_start", "on_llm_end"]


class Raising(BaseCallbackHandler):
    def on_chain_start(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("handler broke")


def test_a_raising_handler_is_logged_and_counted_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    before = callback_error_count()
    assert ours().invoke({"q": "hi"}, {"callbacks": [Raising()]}) == "ab!"
    assert callback_error_count() - before == 4  # the sequence, the prompt, the parser, the lambda
    assert "Error in Raising.on_chain_start callback: RuntimeError('handler broke')" in caplog.text


def test_raise_error_raises_the_handlers_error() -> None:
    class Strict(Raising):
        raise_error = True

    with pytest.raises(RuntimeError, match="handler broke"):
        ours().invoke({"q": "hi"}, {"callbacks": [Strict()]})
    with pytest.raises(RuntimeError, match="handler broke"):
        theirs().invoke({"q": "hi"}, {"callbacks": [Strict()]})


def test_any_object_with_the_handler_methods_is_driven() -> None:
    class Duck:
        def __init__(self) -> None:
            self.names: list[str] = []

        def on_chain_start(self, serialized: object, inputs: object, **kwargs: Any) -> None:
            self.names.append(kwargs["name"])

    duck = Duck()
    ours().invoke({"q": "hi"}, {"callbacks": [duck]})
    assert duck.names == ["RunnableSequence", "ChatPromptTemplate", "StrOutputParser", "last"]


def test_secrets_reach_a_handler_redacted() -> None:
    recorder = Recorder()

    def echo(given: dict[str, object]) -> dict[str, object]:
        return {"echo": given["key"]}

    chain = RunnableLambda(echo)
    chain.invoke({"key": Secret("sk-live")}, {"callbacks": [recorder], "metadata": {"token": Secret("sk-meta")}})
    shown = repr(recorder.calls)
    assert "sk-live" not in shown and "sk-meta" not in shown
    start, end = recorder.calls
    assert start[1][1] == {"key": "**********"}
    assert end[1][0] == {"echo": "**********"}
    assert start[2]["metadata"] == {"token": "**********"}


def test_with_config_callbacks_and_a_batch() -> None:
    recorder = Recorder()
    bound = RunnableLambda(str.upper).with_config(callbacks=[recorder])
    assert bound.batch(["a", "b"]) == ["A", "B"]
    assert sorted(args[0] for name, args, _ in recorder.calls if name == "on_chain_end") == ["A", "B"]
    assert {kw["parent_run_id"] for _, _, kw in recorder.calls} == {None}


def test_handlers_never_travel_with_a_pickled_config_or_chain() -> None:
    recorder = Recorder()
    config = RunConfig.coerce({"callbacks": [recorder], "tags": ["t"]})
    assert pickle.loads(pickle.dumps(config)).callbacks is None
    assert config.for_children().callbacks is None
    bound = RunnableLambda(str.upper).with_config(callbacks=[recorder])
    shipped = pickle.loads(pickle.dumps(bound))
    assert shipped.invoke("a") == "A"
    assert recorder.calls == []


def test_without_handlers_nothing_is_built() -> None:
    assert callbacks_observer_factory(None, "invoke") is None
    assert callbacks_observer_factory([], "invoke") is None
    assert LangChainCallbacks([]).make_observer() is None
    assert RunConfig.coerce({"callbacks": None}) == RunConfig()
    assert RunnableLambda(str.upper).invoke("a", {"callbacks": []}) == "A"


def test_a_wrong_callbacks_entry_is_refused_at_the_call() -> None:
    with pytest.raises(TypeError, match=r"config\['callbacks'\] must"):
        RunnableLambda(str.upper).invoke("a", {"callbacks": "nope"})


def test_callbacks_bound_to_an_inner_step_see_its_parent_when_the_parent_is_a_run() -> None:
    inner, outer = Recorder(), Recorder()
    chain = RunnableLambda(_bang, name="outer") | RunnableLambda(str.upper).with_config(callbacks=[inner])
    assert chain.invoke("a", {"callbacks": [outer]}) == "A!"
    [(_, _, kwargs)] = [call for call in inner.calls if call[0] == "on_chain_start"]
    sequence = outer.calls[0][2]["run_id"]
    assert kwargs["name"] == "upper" and kwargs["parent_run_id"] == sequence


def _parents_seen(chain: Any, inputs: list[Any], batch: bool = False) -> list[tuple[str, Any]]:
    recorder = Recorder()
    bound = chain(recorder)
    if batch:
        bound.batch(inputs)
    else:
        for given in inputs:
            bound.invoke(given)
    return [
        (kw.get("name") or (args[0] or {}).get("name"), kw["parent_run_id"])
        for name, args, kw in recorder.calls
        if name.endswith("_start")
    ]


def _same_parents(seen: list[tuple[str, Any]]) -> list[tuple[str, int | None]]:
    # The parents as LangChain's and ours both have them: which starts share a parent (ids differ).
    order: dict[Any, int] = {}
    return [(name, None if parent is None else order.setdefault(parent, len(order))) for name, parent in seen]


@pytest.mark.parametrize("batch", [False, True])
def test_an_inner_steps_handlers_see_its_parent_run_when_nothing_else_watches(batch: bool) -> None:
    # LangChain makes every run (and its id) whether watched or not: a handler bound to an
    # inner step sees that step's parent run, siblings share it, each call has its own.
    def mine(h: Recorder) -> Any:
        return (
            RunnableLambda(_bang, name="bang")
            | RunnableLambda(str.upper, name="up").with_config(callbacks=[h])
            | RunnableLambda(str.lower, name="low").with_config(callbacks=[h])
        )

    def peer(h: Recorder) -> Any:
        return (
            TheirLambda(_bang, name="bang")
            | TheirLambda(str.upper, name="up").with_config(callbacks=[h])
            | TheirLambda(str.lower, name="low").with_config(callbacks=[h])
        )

    ours_seen = _parents_seen(mine, ["a", "b"], batch)
    theirs_seen = _parents_seen(peer, ["a", "b"], batch)
    assert all(parent is not None for _, parent in ours_seen)
    if batch:  # items run on threads: compare as sets of (name, parent group) per item
        assert sorted(_same_parents(sorted(ours_seen, key=lambda s: str(s[1])))) == sorted(
            _same_parents(sorted(theirs_seen, key=lambda s: str(s[1])))
        )
    else:
        assert _same_parents(ours_seen) == _same_parents(theirs_seen) == [("up", 0), ("low", 0), ("up", 1), ("low", 1)]


def test_an_inner_steps_handlers_see_a_parallels_run_and_a_components_its_chain() -> None:
    from combinators import RunnableParallel
    from langchain_core.runnables import RunnableParallel as TheirParallel

    def mine(h: Recorder) -> Any:
        both = RunnableParallel(
            a=RunnableLambda(str.upper, name="A").with_config(callbacks=[h]),
            b=FakeListChatModel(responses=["ok"], callbacks=[h]),
        )
        return RunnableLambda(_bang, name="bang") | both

    def peer(h: Recorder) -> Any:
        both = TheirParallel(
            a=TheirLambda(str.upper, name="A").with_config(callbacks=[h]),
            b=TheirFakeModel(responses=["ok"], callbacks=[h]),
        )
        return TheirLambda(_bang, name="bang") | both

    assert sorted(_same_parents(_parents_seen(mine, ["x"]))) == sorted(_same_parents(_parents_seen(peer, ["x"])))
    assert {parent for _, parent in _same_parents(_parents_seen(mine, ["x"]))} == {0}
    # Bound to the root, the handler sees a root run, as LangChain's does.
    assert _parents_seen(lambda h: RunnableLambda(str.upper).with_config(callbacks=[h]), ["x"]) == [("upper", None)]


def test_a_parallel_with_a_tool_and_a_retriever_is_told_as_langchain_tells_it() -> None:
    from langchain_core.documents import Document as TheirDocument
    from langchain_core.retrievers import BaseRetriever as TheirRetriever
    from langchain_core.runnables import RunnableParallel as TheirParallel
    from langchain_core.tools import tool as their_tool

    from combinators import RunnableParallel
    from combinators.documents import Document
    from combinators.retrievers import BaseRetriever
    from combinators.tools import tool

    @tool
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    @their_tool("shout")
    def their_shout(text: str) -> str:
        """Shout."""
        return text.upper()

    class Echo(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
            return [Document(page_content=query, id="1")]

    class TheirEcho(TheirRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[TheirDocument]:
            return [TheirDocument(page_content=query, id="1")]

    TheirEcho.__name__ = "Echo"

    def text(given: str) -> dict[str, str]:
        return {"text": given}

    mine, peer = Recorder(), Recorder()
    ours = RunnableParallel(a=RunnableLambda(text) | shout, b=Echo())
    theirs = TheirParallel(a=TheirLambda(text) | their_shout, b=TheirEcho())
    assert ours.invoke("hi", {"callbacks": [mine]})["a"] == theirs.invoke("hi", {"callbacks": [peer]})["a"] == "HI"
    got, expected = tree(mine.calls), tree(peer.calls)
    # Both retrievers add their own ls_retriever_name (issue 26).
    assert got[("RunnableParallel<a,b>", "Echo")][0][3] == {"ls_retriever_name": "echo"}
    assert got == expected
    assert got[("RunnableParallel<a,b>", "RunnableSequence", "shout")][0][:2] == ("start", "tool")


def test_a_model_called_alone_is_told_as_langchain_tells_it() -> None:
    # A root model run's input is the caller's raw value: handlers still get the messages
    # (or prompts) LangChain hands them, and a text model's end is its text.
    from langchain_core.language_models import FakeListLLM as TheirLLM

    from combinators.language_models import FakeListLLM

    for mine, peer in (
        (FakeListChatModel(responses=["ok"]), TheirFakeModel(responses=["ok"])),
        (FakeListLLM(responses=["ok"]), TheirLLM(responses=["ok"])),
    ):
        told: list[list[Any]] = []
        for model in (mine, peer):
            recorder = Recorder()
            model.invoke("hi", {"callbacks": [recorder]})
            told.append(
                [(name, norm(args[1] if name.endswith("_start") else args[0])) for name, args, _ in recorder.calls]
            )
        assert told[0] == told[1]
        assert told[0][0][1] in ([[("human", "hi")]], ["hi"])
        assert told[0][-1] in (("on_llm_end", ("ai", "ok")), ("on_llm_end", "ok"))


async def test_run_inline_async_handlers_are_awaited_first_as_langchain_does() -> None:
    from langchain_core.callbacks import AsyncCallbackHandler

    class Noting(AsyncCallbackHandler):
        def __init__(self, label: str, order: list[str], inline: bool, pause: float) -> None:
            self.label, self.order, self.run_inline, self.pause = label, order, inline, pause

        async def on_chain_start(self, serialized: Any, inputs: Any, **kwargs: Any) -> None:
            await asyncio.sleep(self.pause)
            self.order.append(f"{self.label} {kwargs['name']}")

    seen: dict[str, list[str]] = {}
    for which, chain in (("ours", RunnableLambda(_bang, name="one")), ("theirs", TheirLambda(_bang, name="one"))):
        order: list[str] = []
        # Listed first but not inline (and quick): LangChain awaits the inline one (slow) first.
        handlers = [Noting("other", order, False, 0.0), Noting("inline", order, True, 0.02)]
        assert await chain.ainvoke("a", {"callbacks": handlers}) == "a!"
        seen[which] = order
    assert seen["ours"] == seen["theirs"] == ["inline one", "other one"]


@pytest.mark.parametrize("call", ["invoke", "stream"])
async def test_a_step_a_function_returns_sees_the_functions_run_as_its_parent(call: str) -> None:
    # Made while the chain runs, the step is not walked beforehand: the function's run gets
    # an id when the runnable it returns has a watched step, as LangChain's has one anyway.
    def mine(h: Recorder) -> Any:
        return RunnableLambda(_bang, name="bang") | RunnableLambda(
            lambda text: RunnableLambda(str.upper, name="dyn").with_config(callbacks=[h]), name="maker"
        )

    def peer(h: Recorder) -> Any:
        return TheirLambda(_bang, name="bang") | TheirLambda(
            lambda text: TheirLambda(str.upper, name="dyn").with_config(callbacks=[h]), name="maker"
        )

    seen: list[list[tuple[str, Any]]] = []
    for chain in (mine, peer):
        recorder = Recorder()
        bound = chain(recorder)
        for given in ("a", "b"):
            assert (bound.invoke(given) if call == "invoke" else "".join(bound.stream(given))) == given.upper() + "!"
            assert (
                await bound.ainvoke(given) if call == "invoke" else "".join([c async for c in bound.astream(given)])
            ) == given.upper() + "!"
        seen.append([(kw["name"], kw["parent_run_id"]) for name, _, kw in recorder.calls if name == "on_chain_start"])
    ours_seen, theirs_seen = seen
    assert _same_parents(ours_seen) == _same_parents(theirs_seen) == [("dyn", 0), ("dyn", 1), ("dyn", 2), ("dyn", 3)]


@pytest.mark.parametrize("call", ["stream", "astream"])
def test_a_model_without_a_token_stream_streamed_alone_tells_no_token(call: str) -> None:
    # Issue 26: its whole output comes after its run ended, as one chunk; langchain-core's
    # handlers hear no on_llm_new_token for it (they do for a model with a token stream).
    from langchain_core.language_models import FakeListLLM as TheirLLM
    from langchain_core.language_models.fake_chat_models import ParrotFakeChatModel as TheirParrot

    from combinators.language_models import FakeListLLM, ParrotFakeChatModel

    def told(model: Any, pieces: int) -> list[str]:
        recorder = Recorder()
        if call == "stream":
            chunks = list(model.stream("hi", {"callbacks": [recorder]}))
        else:

            async def main() -> list[Any]:
                return [c async for c in model.astream("hi", {"callbacks": [recorder]})]

            chunks = asyncio.run(main())
        assert len(chunks) == pieces
        return [name for name, _, _ in recorder.calls]

    for mine, peer in (
        (ParrotFakeChatModel(), TheirParrot()),
        (FakeListLLM(responses=["ok"]), TheirLLM(responses=["ok"])),
        (FakeListChatModel(responses=["ok"]), TheirFakeModel(responses=["ok"])),
    ):
        streams = isinstance(mine, FakeListChatModel)
        ours_told, theirs_told = told(mine, 2 if streams else 1), told(peer, 2 if streams else 1)
        assert ours_told == theirs_told
        assert ("on_llm_new_token" in ours_told) == streams


def test_a_prompts_serialized_form_keeps_its_secrets_out() -> None:
    from combinators.prompts import PromptTemplate

    recorder = Recorder()
    prompt = PromptTemplate.from_template("key {key} q {q}", partial_variables={"key": Secret("sk-live-123")})
    prompt.invoke({"q": "x"}, {"callbacks": [recorder]})
    serialized = recorder.calls[0][1][0]
    assert serialized["kwargs"]["template"] == "key {key} q {q}" and serialized["kwargs"]["input_variables"] == ["q"]
    assert "sk-live-123" not in repr(recorder.calls)
