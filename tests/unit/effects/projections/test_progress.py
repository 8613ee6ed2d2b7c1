"""The progress fold: root-run ends of a batch (done, failed, rate, ETA), a stream's chunks."""

from __future__ import annotations

from uuid import UUID

from hypothesis import given
from hypothesis import strategies as st

from effects.projections.progress import Progress, ProgressFold
from effects.effect_values import Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed
from tests.unit.effects.projections.strategies import effect_trees


def item(i: int, parents: tuple[UUID, ...] = ()) -> RunInfo:
    return RunInfo(UUID(int=i), parents, f"item{i}", "chain", (), {})


def test_only_root_runs_count_and_rate_and_eta_follow_their_times() -> None:
    fold = ProgressFold(total=3)
    a, b, c = item(1), item(2), item(3)
    child = item(10, (a.run_id,))
    shown = [
        fold.feed(effect)
        for effect in (
            RunStarted(a, 0, 100.0),
            RunStarted(b, 1, 100.0),
            RunStarted(child, 0, 100.5),
            RunEnded(child, 0, 0, 101.0),  # a child's end is not an item
            RunEnded(a, 0, 0, 102.0),
            RunStarted(c, 2, 102.0),
            RunFailed(b, 1, ValueError("x"), 104.0),
            RunStreamed(c, "x", 104.5),  # chunks of a batch item are not shown
            RunEnded(c, 2, 2, 106.0),
        )
    ]
    progress = [p for p in shown if p is not None]
    assert progress == [
        Progress(total=3, done=1, failed=0, chunks=0, elapsed=2.0),
        Progress(total=3, done=1, failed=1, chunks=0, elapsed=4.0),
        Progress(total=3, done=2, failed=1, chunks=0, elapsed=6.0),
    ]
    assert [(p.rate, p.eta) for p in progress] == [(0.5, 4.0), (0.5, 2.0), (0.5, 0.0)]


def test_a_stream_shows_its_chunks_and_their_rate() -> None:
    fold = ProgressFold()
    run = item(1)
    fold.feed(RunStarted(run, 0, 10.0))
    shown = [fold.feed(RunStreamed(run, n, 10.0 + n)) for n in (1, 2, 3, 4)]
    assert [(p.chunks, p.chunk_rate, p.eta) for p in shown if p is not None] == [
        (1, 1.0, None), (2, 1.0, None), (3, 1.0, None), (4, 1.0, None)
    ]  # fmt: skip


@given(st.lists(effect_trees(max_depth=2), min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_every_item_finishes_once_whatever_the_interleaving(trees: list[list[Effect]], rng: object) -> None:
    # Items of a batch: each tree's ids made distinct, the trees interleaved in time.
    streams = [[_renumbered(effect, index) for effect in tree] for index, tree in enumerate(trees)]
    merged: list[Effect] = []
    while any(streams):
        pick = rng.choice([s for s in streams if s])  # type: ignore[attr-defined]
        merged.append(pick.pop(0))
    fold = ProgressFold(total=len(trees))
    shown = [p for p in (fold.feed(effect) for effect in merged) if p is not None]
    assert len(shown) == len(trees)
    assert [p.finished for p in shown] == list(range(1, len(trees) + 1))
    failed = sum(isinstance(tree[-1], RunFailed) for tree in trees)
    assert (shown[-1].done, shown[-1].failed, shown[-1].eta in (0.0, None)) == (len(trees) - failed, failed, True)


def _renumbered(effect: Effect, index: int) -> Effect:
    import attrs

    def moved(run_id: UUID) -> UUID:
        return UUID(int=run_id.int + 1000 * (index + 1))

    run = attrs.evolve(
        effect.run, run_id=moved(effect.run.run_id), parent_ids=tuple(moved(p) for p in effect.run.parent_ids)
    )
    return attrs.evolve(effect, run=run)  # type: ignore[return-value]
