"""Run trees for listeners, the calls they make due, and the listener observer."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import pickle

import pytest
from hypothesis import given

from effects.config import RunConfig
from effects.projections import ListenerCall, ListenerSpec, Run, RunTree
from effects.effect_values import NOTHING, Effect, RunEnded, RunFailed
from tests.unit.effects.projections.script import T0, Script, uid
from tests.unit.effects.projections.strategies import effect_trees


def sequence_effects(fail: bool = False) -> list[Effect]:
    s = Script()
    root = s.run(1, "RunnableSequence", tags=("t",), metadata={"m": 1})
    first = s.run(2, "I", parent=root, tags=("seq:step:1", "t"))
    second = s.run(3, "D", parent=root, tags=("seq:step:2", "t"))
    tool = s.run(4, "tool", "tool", parent=second)
    docs = s.run(5, "docs", "retriever", parent=root)
    s.start(root, "q")
    s.start(first)
    s.stream(first, "q")
    s.end(first, "q", "q")
    s.start(second, "q")
    s.start(tool, {"x": 1})
    s.end(tool, {"x": 1}, {"y": 2})
    s.start(docs, {"query": "q"})
    s.end(docs, {"query": "q"}, ["d1"])
    if fail:
        s.fail(second, "q", ValueError("boom"))
        s.fail(root, "q", ValueError("boom"))
    else:
        s.end(second, "q", {"k": "q"})
        s.end(root, "q", {"k": "q"})
    return s.effects


def calls(effects: list[Effect], tree: RunTree | None = None) -> list[ListenerCall]:
    tree = tree or RunTree()
    return [call for effect in effects for call in tree.feed(effect)]


def test_start_then_end_with_the_whole_tree_in_start_order() -> None:
    start, end = calls(sequence_effects())
    assert start.kind == "on_start" and end.kind == "on_end"
    assert start.run.child_runs == () and start.run.end_time is None and start.run.outputs is None
    assert start.run.inputs == {"input": "q"}
    run = end.run
    assert (run.id, run.name, run.run_type, run.tags, run.metadata) == (
        uid(1),
        "RunnableSequence",
        "chain",
        ("t",),
        {"m": 1},
    )
    assert run.outputs == {"k": "q"}  # a dict output is kept as is
    assert run.start_time == dt.datetime.fromtimestamp(T0, tz=dt.UTC)
    assert run.end_time is not None and run.end_time > run.start_time
    assert [child.name for child in run.child_runs] == ["I", "D", "docs"]
    first, second, docs = run.child_runs
    assert first.inputs == {"input": "q"} and first.outputs == {"output": "q"}  # NOTHING at start, known at end
    assert second.child_runs[0].outputs == {"output": {"y": 2}}  # tools always wrap
    assert second.child_runs[0].inputs == {"x": 1}
    assert docs.outputs == {"documents": ["d1"]} and docs.inputs == {"query": "q"}
    assert all(child.parent_run_id == uid(1) for child in run.child_runs)


def test_error_call_has_the_exception_and_no_outputs() -> None:
    start, error = calls(sequence_effects(fail=True))
    assert error.kind == "on_error"
    assert isinstance(error.run.error, ValueError) and error.run.outputs is None
    failed = error.run.child_runs[1]
    assert isinstance(failed.error, ValueError) and failed.outputs is None
    assert failed.child_runs[0].outputs == {"output": {"y": 2}}


def test_streaming_input_placeholder_until_known() -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, NOTHING)
    start = RunTree().feed(s.effects[0])[0]
    assert start.run.inputs == {"input": ""}  # the peer's placeholder


def test_root_id_limits_the_tree_to_that_subtree() -> None:
    effects = sequence_effects()
    only_second = calls(effects, RunTree(uid(3)))
    assert [(c.kind, c.run.name) for c in only_second] == [("on_start", "D"), ("on_end", "D")]
    assert [child.name for child in only_second[1].run.child_runs] == ["tool"]
    with pytest.raises(TypeError, match="RunTree root_id must be a UUID or None, got str"):
        RunTree("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="RunTree.feed expects an effect value"):
        RunTree().feed(None)  # type: ignore[arg-type]


def test_each_unrelated_root_gets_its_own_calls() -> None:
    effects = sequence_effects() + [e for e in sequence_effects() if e.run.run_id == uid(2)]
    # run 2 again, now without its parent: a root of its own
    assert [(c.kind, c.run.name) for c in calls(effects)] == [
        ("on_start", "RunnableSequence"),
        ("on_end", "RunnableSequence"),
        ("on_start", "I"),
        ("on_end", "I"),
    ]


def test_chat_model_outputs_are_the_llm_result() -> None:
    s = Script()
    model = s.run(1, "Model", "chat_model")
    s.start(model, {"messages": [["hi"]]})
    s.stream(model, "a ", "b")
    s.end(model, {"messages": [["hi"]]}, "a b")
    end = calls(s.effects)[-1].run
    assert end.inputs == {"messages": [["hi"]]}
    assert end.outputs == {
        "generations": [[{"text": "a b", "generation_info": None, "type": "ChatGenerationChunk", "message": "a b"}]],
        "llm_output": None,
        "run": None,
        "type": "LLMResult",
    }


def _run() -> Run:
    return Run(uid(1), "r", "chain", {}, None, None, dt.datetime.now(dt.UTC), None, (), {})


def test_dispatch_passes_the_config_as_the_peer_does() -> None:
    config = RunConfig(tags=("x",))
    got: list[object] = []

    def keyword(run: Run, *, config: RunConfig = RunConfig()) -> None:
        got.append(("keyword", config))

    def positional(run: Run, cfg: RunConfig) -> None:
        got.append(("positional", cfg))

    def plain(run: Run, extra: int = 0) -> None:
        got.append(("plain", extra))

    ListenerSpec(on_start=keyword, on_end=positional, on_error=plain).dispatch(ListenerCall("on_start", _run()), config)
    ListenerSpec(on_start=keyword, on_end=positional, on_error=plain).dispatch(ListenerCall("on_end", _run()), config)
    ListenerSpec(on_start=keyword, on_end=positional, on_error=plain).dispatch(ListenerCall("on_error", _run()), config)
    assert got == [("keyword", config), ("positional", config), ("plain", 0)]
    assert ListenerSpec().dispatch(ListenerCall("on_end", _run())) is None


def test_spec_is_a_checked_picklable_value() -> None:
    with pytest.raises(TypeError, match="with_listeners on_end must be callable or None, got int"):
        ListenerSpec(on_end=3)  # type: ignore[arg-type]
    assert ListenerSpec(on_start=print) == ListenerSpec(on_start=print)
    assert pickle.loads(pickle.dumps(ListenerSpec(on_start=print))) == ListenerSpec(on_start=print)


def test_observer_calls_sync_listeners_and_keeps_async_ones_pending() -> None:
    seen: list[str] = []

    async def on_end(run: Run) -> None:
        seen.append(f"async end {run.name}")

    observer = ListenerSpec(on_start=lambda run: seen.append(f"start {run.name}"), on_end=on_end).make_observer()
    for effect in sequence_effects():
        observer.emit(effect)
    assert seen == ["start RunnableSequence"]
    pending = observer.take_pending()
    assert len(pending) == 1 and observer.take_pending() == []

    async def settle() -> None:
        for awaitable in pending:
            await awaitable

    asyncio.run(settle())
    assert seen == ["start RunnableSequence", "async end RunnableSequence"]


def test_a_failing_listener_is_logged_and_the_run_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    def broken(run: Run) -> None:
        raise RuntimeError("listener boom")

    ended: list[str] = []
    observer = ListenerSpec(on_start=broken, on_end=lambda run: ended.append(run.name)).make_observer(RunConfig())
    with caplog.at_level(logging.WARNING):
        for effect in sequence_effects():
            observer.emit(effect)
    assert ended == ["RunnableSequence"]
    assert "Error in on_start listener for run RunnableSequence" in caplog.text


@given(effect_trees())
def test_the_tree_matches_the_effects(effects: list[Effect]) -> None:
    tree = RunTree()
    due = [call for effect in effects for call in tree.feed(effect)]
    assert [call.kind for call in due][0] == "on_start"
    last = effects[-1]
    assert due[-1].kind == ("on_end" if isinstance(last, RunEnded) else "on_error")
    assert len(due) == 2

    def walk(run: Run) -> list[Run]:
        return [run, *(r for child in run.child_runs for r in walk(child))]

    runs = walk(due[-1].run)
    started = [e.run.run_id for e in effects if e.__class__.__name__ == "RunStarted"]
    assert sorted(r.id.int for r in runs) == sorted(i.int for i in started)
    for run in runs:
        assert all(child.parent_run_id == run.id for child in run.child_runs)
        assert run.end_time is not None and run.end_time >= run.start_time
        failed = next(e for e in effects if isinstance(e, RunEnded | RunFailed) and e.run.run_id == run.id)
        assert (run.error is not None) == isinstance(failed, RunFailed)
    assert tree._nodes == {}  # pyright: ignore[reportPrivateUsage]  # nothing kept after the root ends
