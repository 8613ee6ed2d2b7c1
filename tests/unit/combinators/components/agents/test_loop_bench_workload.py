"""The agent workload of the benchmark (W13) runs our side and reports the peer as n/a
when langchain-classic is not there (the peer side is covered by ``make bench``)."""

from __future__ import annotations

import dataclasses

from bench.libs import load_ours
from bench.record import Results, Settings
from bench.workloads_agents import ANSWER, _floor, _ours, w13_agent


def test_our_side_answers_and_its_parts_run_alone() -> None:
    parts = _ours()
    assert parts.executor.invoke({"input": "go"})["output"] == ANSWER
    parts.alone()
    parts.alone(streamed=True)
    assert _floor()() == ANSWER


def test_w13_rows_and_budgets_with_the_peer_missing() -> None:
    settings = dataclasses.replace(Settings.make(quick=True), repeat=1, repeat_heavy=1, target=0.0)
    res = Results(settings, ours=load_ours(), peer="not installed", log=lambda _line: None)
    w13_agent(res)
    assert [row.workload for row in res.rows] == ["W13"] * 4
    assert all(isinstance(row.ours, float) and row.ours > 0 for row in res.rows)
    assert all(row.peer is None for row in res.rows)
    assert [b.verdict for b in res.budgets] == ["n/a", "n/a"]
