"""The progress bar: asked for per call or by a config flag, off (and free) by default."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest

from combinators import RunnableLambda
from tests.unit.effects._runtime.test_building_nothing_materialised import built  # noqa: F401 - a fixture


def halve(x: int) -> float:
    if x == 3:
        raise ValueError("three")
    return x / 2


def test_a_batch_with_progress_shows_items_done_and_failed(capsys: pytest.CaptureFixture[str]) -> None:
    results = RunnableLambda(halve).batch(list(range(6)), progress=True, return_exceptions=True)
    assert results[:3] == [0.0, 0.5, 1.0] and isinstance(results[3], ValueError)
    shown = capsys.readouterr().err
    assert shown.lstrip("\r").startswith("halve:")
    assert "6/6" in shown and "failed=1" in shown
    assert "\x1b[31m" in shown  # the bar turned red with the failure
    assert re.search(r"item/s", shown)


def test_abatch_and_the_config_flag_show_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert asyncio.run(RunnableLambda(halve).abatch([0, 2], progress=True)) == [0.0, 1.0]
    first = capsys.readouterr().err
    assert "2/2" in first and "\x1b[" not in first  # no failure: no colour
    assert RunnableLambda(halve).batch([0, 2, 4], {"progress": True}) == [0.0, 1.0, 2.0]
    assert "3/3" in capsys.readouterr().err
    assert sorted(RunnableLambda(halve).batch_as_completed([0, 2], progress=True)) == [(0, 0.0), (1, 1.0)]
    assert "2/2" in capsys.readouterr().err


def test_a_stream_with_the_flag_counts_its_chunks(capsys: pytest.CaptureFixture[str]) -> None:
    def words(text: str) -> Iterator[str]:
        yield from text.split()

    assert list(RunnableLambda(words).stream("a b c d", {"progress": True})) == ["a", "b", "c", "d"]
    shown = capsys.readouterr().err
    assert "4chunk" in shown.replace(" ", "")


def test_off_by_default_nothing_is_shown_or_built(
    capsys: pytest.CaptureFixture[str],
    built: list[str],  # noqa: F811 - the fixture imported above
) -> None:
    assert RunnableLambda(halve).batch([0, 2]) == [0.0, 1.0]
    assert RunnableLambda(halve).batch([0, 2], progress=False) == [0.0, 1.0]
    assert asyncio.run(RunnableLambda(halve).abatch([0])) == [0.0]
    assert capsys.readouterr().err == ""
    assert built == []
