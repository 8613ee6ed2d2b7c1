"""LangChain callback handlers on a batch run by Dask: the handlers stay in the caller
(one that cannot be pickled works), and are told about the remote runs as about local ones."""

from __future__ import annotations

import threading
from typing import Any

from distributed import Client

from combinators import RunnableLambda
from combinators.integrations.dask import DaskExecutor
from tests.unit.combinators.integrations.langchain.recording import AsyncRecorder, Recorder, norm, tree


def inc(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


class Unpicklable(Recorder):
    """A handler holding a lock: it could never travel to a worker."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()


def test_handlers_stay_with_the_caller_and_see_the_remote_runs(dask_client: Client) -> None:
    chain = RunnableLambda(inc) | RunnableLambda(double)
    local, remote = Unpicklable(), Unpicklable()
    config: Any = {"callbacks": [local]}
    assert chain.batch([1, 2, 3], config) == [4, 6, 8]
    config = {"callbacks": [remote], "executor": DaskExecutor(dask_client)}
    assert chain.batch([1, 2, 3], config) == [4, 6, 8]
    assert len(remote.calls) == len(local.calls) == 3 * 6
    # Three roots each: the trees (by path of names) hold the same runs and calls.
    assert tree(remote.calls).keys() == tree(local.calls).keys()
    ends = sorted(args[0] for name, args, kw in remote.calls if name == "on_chain_end" and kw["parent_run_id"] is None)
    assert ends == [4, 6, 8]


def _batch(chain: Any, executor: object, outer: Recorder | None) -> list[Any]:
    config: Any = {} if outer is None else {"callbacks": [outer]}
    if executor is not None:
        config["executor"] = executor
    return chain.batch([1, 2, 3], config)


def test_handlers_bound_to_an_inner_step_are_told_about_its_remote_runs(dask_client: Client) -> None:
    # with_config(callbacks=...) on a step inside the shipped chain: the handler (which
    # could never travel) stays here and the driver replays that step's remote runs into it.
    told: dict[str, tuple[Unpicklable, Unpicklable]] = {}
    for where, executor in (("local", None), ("dask", DaskExecutor(dask_client))):
        inner, outer = Unpicklable(), Unpicklable()
        chain = RunnableLambda(inc) | RunnableLambda(double).with_config(callbacks=[inner])
        assert _batch(chain, executor, outer) == [4, 6, 8]
        told[where] = (inner, outer)
    for inner, outer in told.values():
        assert sorted(name for name, _, _ in inner.calls) == ["on_chain_end"] * 3 + ["on_chain_start"] * 3
        assert sorted(args[0] for name, args, _ in inner.calls if name == "on_chain_end") == [4, 6, 8]
        # Each is the child of its item's sequence run, as the outer handler saw it.
        sequences = {
            kw["run_id"] for name, _, kw in outer.calls if name == "on_chain_start" and kw["name"] == "RunnableSequence"
        }
        starts = [kw for name, _, kw in inner.calls if name == "on_chain_start"]
        assert {kw["parent_run_id"] for kw in starts} == sequences and len(sequences) == 3
        assert {kw["name"] for kw in starts} == {"double"}


def test_an_inner_steps_handlers_are_told_when_nothing_else_watches(dask_client: Client) -> None:
    inner = Unpicklable()
    chain = RunnableLambda(inc) | RunnableLambda(double).with_config(callbacks=[inner])
    assert _batch(chain, DaskExecutor(dask_client), None) == [4, 6, 8]
    assert sorted(args[0] for name, args, _ in inner.calls if name == "on_chain_end") == [4, 6, 8]
    assert sorted(args[1] for name, args, _ in inner.calls if name == "on_chain_start") == [2, 3, 4]


def answer(prompt: Any) -> str:
    return prompt.to_string().upper()


def test_a_components_callbacks_field_is_told_about_its_remote_runs(dask_client: Client) -> None:
    from combinators.output_parsers import StrOutputParser
    from combinators.prompts import PromptTemplate

    told: dict[str, Unpicklable] = {}
    for where, executor in (("local", None), ("dask", DaskExecutor(dask_client))):
        handler = Unpicklable()
        prompt = PromptTemplate.from_template("hi {q}", callbacks=[handler])
        chain = prompt | RunnableLambda(answer) | StrOutputParser(callbacks=[handler])
        config: Any = {} if executor is None else {"executor": executor}
        assert chain.batch([{"q": "x"}, {"q": "y"}], config) == ["HI X", "HI Y"]
        told[where] = handler
    for handler in told.values():
        starts = sorted(
            (kw["name"], kw["run_type"], repr(norm(args[1])))
            for name, args, kw in handler.calls
            if name == "on_chain_start"
        )
        assert starts == [
            ("PromptTemplate", "prompt", "{'q': 'x'}"),
            ("PromptTemplate", "prompt", "{'q': 'y'}"),
            ("StrOutputParser", "parser", "'HI X'"),
            ("StrOutputParser", "parser", "'HI Y'"),
        ]
    assert sorted(c[0] for c in told["dask"].calls) == sorted(c[0] for c in told["local"].calls)


async def test_an_inner_steps_async_handlers_are_awaited_in_an_async_batch(dask_client: Client) -> None:
    inner = AsyncRecorder()
    chain = RunnableLambda(inc) | RunnableLambda(double).with_config(callbacks=[inner])
    assert await chain.abatch([1, 2, 3], {"executor": DaskExecutor(dask_client)}) == [4, 6, 8]
    assert sorted(args[0] for name, args, _ in inner.calls if name == "on_chain_end") == [4, 6, 8]
    # In a sync batch, LangChain's rule: the coroutines run to completion on a helper thread.
    inner.calls.clear()
    assert chain.batch([1, 2], {"executor": DaskExecutor(dask_client)}) == [4, 6]
    assert sorted(args[0] for name, args, _ in inner.calls if name == "on_chain_end") == [4, 6]
