"""LangChain callback handlers on a batch run by Dask: the handlers stay in the caller
(one that cannot be pickled works), and are told about the remote runs as about local ones."""

from __future__ import annotations

import threading
from typing import Any

from distributed import Client

from combinators import RunnableLambda
from combinators.integrations.dask import DaskExecutor
from tests.unit.combinators.integrations.langchain.recording import Recorder, tree


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
