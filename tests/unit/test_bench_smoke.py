"""Smoke test of the benchmark harness (no langchain-core needed, well under a second)."""

from __future__ import annotations

from bench.harness import Stat, compare_async, compare_sync
from bench.record import Budget, Results, Settings
from bench.report import render


def _boom() -> int:
    raise ValueError("broken side")


def test_sides_are_timed_and_failures_reported() -> None:
    out = compare_sync(
        {"ours": lambda: 1, "peer": _boom, "floor": None, "wrong": lambda: 2},
        repeat=2,
        target=0.0,
        expect=1,
    )
    ours = out["ours"]
    assert isinstance(ours, Stat) and len(ours.samples) == 2
    assert out["peer"] == "error: ValueError: broken side"
    assert out["floor"] is None
    assert isinstance(out["wrong"], str) and out["wrong"].startswith("error: wrong result")


def test_async_sides_share_one_loop() -> None:
    async def one() -> int:
        return 1

    out = compare_async({"ours": one}, repeat=2, target=0.001, expect=1)
    assert isinstance(out["ours"], Stat) and out["ours"].loops >= 1


def test_budget_verdicts() -> None:
    assert Budget("W1", "t", 0.01, "<=", 1 / 50).verdict == "PASS"
    assert Budget("W1", "t", 0.05, "<=", 1 / 50).verdict == "MISS"
    assert Budget("W6", "t", 25.0, ">=", 20).verdict == "PASS"
    assert Budget("W6", "t", "error: AttributeError: x", ">=", 20).verdict == "ERROR"
    assert Budget("W6", "t", None, ">=", 20).verdict == "n/a"


def test_report_renders_rows_and_budgets() -> None:
    res = Results(Settings.make(quick=True), ours="not built", peer="not installed", log=lambda _line: None)
    row = res.add("W1", "invoke µs/call", "µs", {"ours": 2.0, "peer": 100.0, "floor": 0.1})
    res.budget("W1", "invoke: ours/peer time", row.ratio("peer"), "<=", 1 / 50)
    meta = {"ours": "n/a", "peer": "n/a", "python": "3", "cpu_count": 2, "quick": True, "loadavg_before": [0.0]}
    text = render(res, meta)
    assert "0.02 = 1/50" in text and "PASS" in text
