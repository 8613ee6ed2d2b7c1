"""Printing the tables and writing the JSON file."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.record import Budget, Cell, Results, Row

CELL = 12  # width of a value column; longer texts (errors) are listed under the table
METRIC = 58


def _num(value: float) -> str:
    return f"{value:.4g}" if abs(value) < 1e6 else f"{value:.3e}"


def _cell(value: Cell, notes: list[str]) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, str):
        if len(value) <= CELL:
            return value
        notes.append(value)
        return f"[{len(notes)}] error" if value.startswith("error") else f"[{len(notes)}]"
    return _num(value)


def _ratio(value: float | None) -> str:
    return "" if value is None else f"{value:.3g}x"


def _workload_table(rows: list[Row]) -> list[str]:
    notes: list[str] = []
    head = (
        f"{'metric':{METRIC}s} {'unit':>7s} {'ours':>{CELL}s} {'peer':>{CELL}s} "
        f"{'floor':>{CELL}s} {'ours/peer':>10s} {'ours/floor':>10s}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.metric[:METRIC]:{METRIC}s} {r.unit:>7s} {_cell(r.ours, notes):>{CELL}s} "
            f"{_cell(r.peer, notes):>{CELL}s} {_cell(r.floor, notes):>{CELL}s} "
            f"{_ratio(r.ratio('peer')):>10s} {_ratio(r.ratio('floor')):>10s}"
        )
        if r.note:
            lines.append(f"    {r.note}")
    lines += [f"  [{i}] {text}" for i, text in enumerate(notes, 1)]
    return lines


def _fraction(value: float) -> str:
    """0.0123 -> "0.0123 = 1/81": budgets of the form "<= 1/50" read best that way."""
    return f"{value:.3g} = 1/{1 / value:.0f}" if 0 < value < 0.5 else f"{value:.3g}"


def _measured(b: Budget) -> str:
    m = b.measured
    if m is None:
        return "n/a"
    if isinstance(m, str):
        return m
    if b.unit == "x":
        return _fraction(m) if b.op == "<=" and b.limit < 1 else f"{m:.3g}x"
    return f"{m:.3g} {b.unit}"


def _limit(b: Budget) -> str:
    if b.unit == "x":
        text = f"1/{1 / b.limit:.0f}" if b.limit < 1 else f"{b.limit:g}x"
    else:
        text = f"{b.limit:g} {b.unit}"
    return f"{b.op} {text}"


def budget_table(budgets: Iterable[Budget]) -> list[str]:
    head = f"{'WL':4s} {'budget':66s} {'measured':>18s} {'limit':>12s}  verdict"
    lines = [head, "-" * len(head)]
    for b in budgets:
        lines.append(
            f"{b.workload:4s} {b.text[:66]:66s} {_measured(b)[:40]:>18s} "
            f"{_limit(b):>12s}  {b.verdict}" + (f"  ({b.context})" if b.context else "")
        )
    return lines


def render(res: Results, meta: dict[str, Any]) -> str:
    lines = [
        f"combinators bench — ours: {meta['ours']}   peer: {meta['peer']}",
        f"python {meta['python']}  cpus={meta['cpu_count']}  quick={meta['quick']}  "
        f"load before/after={meta['loadavg_before']}/{meta.get('loadavg_after')}",
        "Medians of interleaved repeats. Times: lower is better; rows in /s: higher is better.",
        "ours/peer < 1 (times) or > 1 (rates) means ours is faster.",
    ]
    workloads = list(dict.fromkeys(r.workload for r in res.rows))
    for wl in workloads:
        lines += ["", f"== {wl} ==", *_workload_table([r for r in res.rows if r.workload == wl])]
    lines += ["", "== budget (ours vs peer, same run) ==", *budget_table(res.budgets)]
    verdicts = [b.verdict for b in res.budgets]
    lines.append(" ".join(f"{v}: {verdicts.count(v)}" for v in ("PASS", "MISS", "ERROR", "n/a")))
    return "\n".join(lines)


def write_json(res: Results, meta: dict[str, Any], path: Path) -> None:
    rows = [asdict(r) | {"ours_over_peer": r.ratio("peer"), "ours_over_floor": r.ratio("floor")} for r in res.rows]
    budgets = [asdict(b) | {"verdict": b.verdict} for b in res.budgets]
    payload = {"meta": meta, "settings": asdict(res.settings), "rows": rows, "budgets": budgets}
    path.write_text(json.dumps(payload, indent=1, default=str) + "\n")
