"""The Executor protocol, with an in-process executor: what every executor gets for free (the caller's and
the worker's sides are tested in `tests/unit/effects/_runtime/test_remote_batch.py` and `test_remote_items.py`)."""

from __future__ import annotations

import asyncio
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from combinators import Runnable, RunnableLambda
from combinators.testing import inputs_for, runnables
from effects import RunEnded, RunStarted, merge_configs
from combinators import RunConfig, StepTimeout
from tests.unit.effects.threads_executor import Threads

ROOT = Path(__file__).resolve().parents[3]


def inc(x: int) -> int:
    return x + 1


def same(a: list[Any], b: list[Any]) -> bool:
    return [type(x) if isinstance(x, Exception) else x for x in a] == [
        type(x) if isinstance(x, Exception) else x for x in b
    ]


@settings(max_examples=30, deadline=None)
@given(runnables(int, max_leaves=5), st.data())
def test_a_batch_on_an_executor_equals_the_local_batch(chain: Runnable[int, Any], data: st.DataObject) -> None:
    xs = data.draw(st.lists(inputs_for(chain), max_size=5))
    local = chain.batch(xs, return_exceptions=True)
    assert same(chain.batch(xs, return_exceptions=True, executor=Threads()), local)
    assert same(asyncio.run(chain.abatch(xs, return_exceptions=True, executor=Threads())), local)
    pairs = list(chain.batch_as_completed(xs, return_exceptions=True, executor=Threads()))
    assert sorted(i for i, _ in pairs) == list(range(len(xs)))
    assert same([v for _, v in sorted(pairs, key=lambda p: p[0])], local)


def test_the_config_carries_an_executor_and_children_inherit_it() -> None:
    threads = Threads()
    config = RunConfig.coerce({"executor": threads, "tags": ["t"]})
    assert config.executor is threads and config.to_dict()["executor"] is threads
    assert merge_configs(config, RunConfig(tags=("u",))).executor is threads
    assert merge_configs(RunConfig(executor=Threads()), config).executor is threads
    assert pickle.loads(pickle.dumps(RunConfig(tags=("x",)))) == RunConfig(tags=("x",))
    with pytest.raises(TypeError, match=r"config\['executor'\] must be an Executor"):
        RunConfig.coerce({"executor": "dask"})
    each = RunnableLambda(inc).each()
    assert each.invoke([1, 2], config={"executor": threads}) == [2, 3]
    assert RunnableLambda(inc).each(executor=threads).invoke([5]) == [6]
    assert each.with_config(executor=threads).invoke([7]) == [8]
    assert len(threads.jobs) == 3
    assert RunnableLambda(inc).batch([1], config=[{"executor": threads}]) == [2]
    assert len(threads.jobs) == 4


def test_adopted_runs_say_which_executor_and_where() -> None:
    each = RunnableLambda(inc).each(executor=Threads())
    effects = list(each.stream_effects([1, 2]))
    root = effects[0].run
    items = [e for e in effects if e.run.parent_ids == (root.run_id,)]
    assert {type(e) for e in items} == {RunStarted, RunEnded}
    assert all(dict(e.run.metadata) == {"executor": "threads", "worker": "here"} for e in items)
    assert "executor" not in root.metadata


def test_the_callers_timeout_travels_with_the_items() -> None:
    def nap(x: int) -> int:
        time.sleep(0.1)
        return x

    chain = RunnableLambda(nap) | RunnableLambda(nap)
    got = chain.batch([1, 2], config={"timeout": 0.05}, return_exceptions=True, executor=Threads())
    assert [type(x) for x in got] == [StepTimeout, StepTimeout]


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, timeout=120
    )
    return done.stdout.strip()


def test_the_default_batch_path_never_loads_the_executor_machinery() -> None:
    out = run_python(
        "import asyncio, sys\n"
        "from combinators import RunnableLambda\n"
        "r = RunnableLambda(abs)\n"
        "r.batch([-1]); asyncio.run(r.abatch([-1])); list(r.batch_as_completed([-1])); r.each().invoke([-2])\n"
        "print(sorted(m for m in sys.modules if 'remote' in m or m.startswith(('distributed', 'returns'))))"
    )
    assert out == "[]"


def test_the_core_imports_and_runs_without_distributed() -> None:
    out = run_python(
        "import sys\n"
        "sys.modules['distributed'] = None  # as if the dask extra were not installed\n"
        "import effects, combinators, combinators.integrations\n"
        "from combinators import RunnableLambda\n"
        "print(RunnableLambda(abs).batch([-3]), effects.Executor.__name__)"
    )
    assert out == "[3] Executor"


def test_without_the_extra_the_dask_integration_says_which_extra() -> None:
    out = run_python(
        "import sys\n"
        "sys.modules['distributed'] = None\n"
        "try:\n"
        "    import combinators.integrations.dask\n"
        "except ImportError as error:\n"
        "    print(type(error).__name__, error)"
    )
    assert out.startswith(
        "MissingExtraError DaskExecutor needs the optional extra 'dask': pip install 'lcel-combinators[dask]'"
    )
