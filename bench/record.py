"""What a run produces: table rows, budget checks, and the settings that sized them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from bench.harness import Outcome, Stat, describe_error
from bench.libs import Lib

# A table cell: a number, an "error: ..." / "skipped ..." text, or None ("n/a").
Cell = float | str | None
SIDES = ("ours", "peer", "floor")


@dataclass(frozen=True)
class Settings:
    """Sizes and repeat counts; ``--quick`` shrinks them so a run takes under a minute."""

    quick: bool
    repeat: int  # micro benchmarks (µs per call)
    repeat_heavy: int  # batch / streaming (ms per call)
    target: float  # seconds per repeat for calibrated loops
    batch_size: int  # W4
    stream_chunks: int  # W6 main stream length
    events_chunks: int  # W7 v2 / W8 stream length
    v1_chunks: int  # W7 v1 stream length (the peer's v1 is super-linear)
    peer_v1_large: bool  # time the peer's v1 at v1_chunks > 2k (one run; a minute)
    scaling_sizes: tuple[int, ...]  # W6 µs/chunk scaling check
    peer_scaling_max: int  # largest scaling size the peer runs (at 50k: ~20 s per call)
    ttfc_trials: int
    import_runs: int
    peer_memory_large: bool  # peer memory rows at 10k chunks (slow under tracemalloc)
    memory_runs: int  # traced runs per memory figure (median)
    concurrency_levels: tuple[int, ...]  # W5 max_concurrency values

    @classmethod
    def make(cls, quick: bool) -> Settings:
        if quick:
            return cls(
                quick=True,
                repeat=3,
                repeat_heavy=3,
                target=0.02,
                batch_size=300,
                stream_chunks=5_000,
                events_chunks=10_000,
                v1_chunks=300,
                peer_v1_large=False,
                scaling_sizes=(1_000, 50_000),
                peer_scaling_max=1_000,
                ttfc_trials=10,
                import_runs=3,
                peer_memory_large=False,
                memory_runs=1,
                concurrency_levels=(50,),
            )
        return cls(
            quick=False,
            repeat=7,
            repeat_heavy=5,
            target=0.2,
            batch_size=1000,
            stream_chunks=10_000,
            events_chunks=10_000,
            v1_chunks=10_000,
            peer_v1_large=True,
            scaling_sizes=(1_000, 10_000, 50_000),
            peer_scaling_max=10_000,
            ttfc_trials=40,
            import_runs=9,
            peer_memory_large=True,
            memory_runs=3,
            concurrency_levels=(10, 50),
        )


@dataclass
class Row:
    """One line of a workload table; values already scaled to ``unit``."""

    workload: str
    metric: str
    unit: str
    ours: Cell
    peer: Cell
    floor: Cell
    note: str = ""
    stats: dict[str, dict[str, float | int]] = field(default_factory=dict)

    def ratio(self, side: Literal["peer", "floor"]) -> float | None:
        other = self.peer if side == "peer" else self.floor
        if isinstance(self.ours, float) and isinstance(other, float) and other != 0:
            return self.ours / other
        return None


@dataclass
class Budget:
    """One row of the budget table: a measured figure checked against a limit."""

    workload: str
    text: str  # e.g. "invoke: ours/peer time"
    measured: Cell
    op: Literal["<=", ">=", "<"]
    limit: float
    unit: str = "x"
    context: str = ""  # e.g. the floor's own figure, when the limit is absolute

    @property
    def verdict(self) -> str:
        if self.measured is None:
            return "n/a"
        if isinstance(self.measured, str):
            return "ERROR" if self.measured.startswith("error") else "n/a"
        ok = {
            "<=": self.measured <= self.limit,
            ">=": self.measured >= self.limit,
            "<": self.measured < self.limit,
        }[self.op]
        return "PASS" if ok else "MISS"


def cell(outcome: Outcome, scale: float) -> Cell:
    """A timing outcome as a table cell in the row's unit."""
    if isinstance(outcome, Stat):
        return outcome.median * scale
    return outcome


def quotient(a: Cell, b: Cell) -> Cell:
    """a / b for budgets, propagating the first error / n/a."""
    for value in (a, b):
        if not isinstance(value, float | int):
            return value
    assert isinstance(a, float | int) and isinstance(b, float | int)
    return a / b if b else None


def difference(a: Cell, b: Cell) -> Cell:
    """a - b, propagating the first error / n/a."""
    for value in (a, b):
        if not isinstance(value, float | int):
            return value
    assert isinstance(a, float | int) and isinstance(b, float | int)
    return float(a - b)


@dataclass
class Results:
    settings: Settings
    ours: Lib | str
    peer: Lib | str
    rows: list[Row] = field(default_factory=list)
    budgets: list[Budget] = field(default_factory=list)
    log: Callable[[str], None] = print

    def libs(self) -> dict[str, Lib | str]:
        return {"ours": self.ours, "peer": self.peer}

    def add(
        self,
        workload: str,
        metric: str,
        unit: str,
        outcomes: Mapping[str, Outcome | float],
        scale: float = 1.0,
        note: str = "",
    ) -> Row:
        """A row from per-side outcomes (``Stat`` scaled by ``scale``, or plain numbers)."""
        cells: dict[str, Cell] = {}
        stats: dict[str, dict[str, float | int]] = {}
        for side in SIDES:
            value = outcomes.get(side)
            if isinstance(value, Stat):
                stats[side] = value.as_json(scale)
                cells[side] = value.median * scale
            elif isinstance(value, int | float):
                cells[side] = float(value)
            else:
                cells[side] = value
        row = Row(workload, metric, unit, cells["ours"], cells["peer"], cells["floor"], note, stats)
        self.rows.append(row)
        self.log(_log_line(row))
        return row

    def budget(
        self,
        workload: str,
        text: str,
        measured: Cell,
        op: Literal["<=", ">=", "<"],
        limit: float,
        unit: str = "x",
        context: str = "",
    ) -> Budget:
        item = Budget(workload, text, measured, op, limit, unit, context)
        self.budgets.append(item)
        return item


def _fmt(value: Cell) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    return f"{value:.4g}"


def _log_line(row: Row) -> str:
    return (
        f"{row.workload:4s} {row.metric:52.52s} ours={_fmt(row.ours):>10.40s} "
        f"peer={_fmt(row.peer):>10.40s} floor={_fmt(row.floor):>10.40s} {row.unit}"
    )


def guard(fn: Callable[[], Outcome | float]) -> Outcome | float:
    """Run a one-off measurement for one side, turning a failure into an error cell."""
    try:
        return fn()
    except Exception as exc:
        return describe_error(exc)
