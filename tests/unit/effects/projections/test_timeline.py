"""The timeline SVG: a pure fold over effects, the same live and replayed; errors red, chunks as ticks."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path

import pytest

from combinators import RunnableLambda, RunnableParallel
from effects.clock import FakeClock, use_clock
from effects.projections.recording import record, replay
from effects.projections.timeline import Timeline, timeline_svg
from effects.effect_values import RunStreamed
from tests.run_effects import effects_of

SVG = "{http://www.w3.org/2000/svg}"


def words(text: str) -> Iterator[str]:
    for word in text.split():
        yield word + " "


def shout(text: str) -> str:
    return text.upper()


def broken(text: str) -> str:
    raise LookupError(f"nothing for {text!r}")


def rows(svg: str) -> list[tuple[str, str | None]]:
    root = ElementTree.fromstring(svg)
    labels = [t for t in root.iter(f"{SVG}text") if t.find(f"{SVG}tspan") is not None]
    bars = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "bar"]
    return [((t.text or "").strip(), b.get("fill")) for t, b in zip(labels, bars, strict=True)]


def test_one_row_per_run_in_tree_order_with_ticks_for_chunks() -> None:
    chain = RunnableLambda(words) | RunnableLambda(shout)
    effects = effects_of(chain, "a b c")
    svg = timeline_svg(effects)
    assert [name for name, _ in rows(svg)] == ["RunnableSequence", "words", "shout"]
    streamed = sum(isinstance(e, RunStreamed) for e in effects)
    assert svg.count('class="tick"') == streamed > 3
    root = ElementTree.fromstring(svg)
    indents = [float(t.get("x", "0")) for t in root.iter(f"{SVG}text") if t.find(f"{SVG}tspan") is not None]
    assert indents[1] > indents[0] and indents[1] == indents[2]  # children indented under the root
    assert len([p for p in root.iter(f"{SVG}path")]) == 2  # a tree line from the root to each child


def test_failed_runs_are_red_and_name_their_error() -> None:
    chain = RunnableLambda(shout) | RunnableLambda(broken)
    svg = timeline_svg(effects_of(chain, "x"))
    assert rows(svg) == [("RunnableSequence", "#d62828"), ("shout", "#9d8df1"), ("broken", "#d62828")]
    assert svg.count("✗ LookupError") == 2 and ">failed</text>" in svg


def test_cancelled_runs_are_grey() -> None:
    async def stalls(text: str) -> str:
        await asyncio.sleep(30)
        return text

    chain = RunnableParallel(slow=RunnableLambda(stalls), bad=RunnableLambda(broken))
    svg = timeline_svg(effects_of(chain, "x"))
    fills = dict(rows(svg))
    assert fills["broken"] == "#d62828" and fills["stalls"] == "#bdbdbd"
    assert " cancelled</text>" in svg and ">cancelled</text>" in svg


def test_a_replayed_recording_draws_the_same_picture() -> None:
    chain = RunnableParallel(ok=RunnableLambda(words), bad=RunnableLambda(broken))
    effects = effects_of(chain, "a b")
    assert timeline_svg(replay(list(record(effects)))) == timeline_svg(effects)


def test_times_come_from_the_effects_so_a_fake_clock_gives_exact_bars() -> None:
    clock = FakeClock()

    def slow(text: str) -> str:
        clock.sleep(0.25)
        return text

    with use_clock(clock):
        effects = effects_of(RunnableLambda(slow) | RunnableLambda(shout), "x")
    svg = timeline_svg(effects, title="slow then shout")
    assert "slow then shout — 250.0 ms, 3 runs" in svg
    widths = [
        float(r.get("width", "0")) for r in ElementTree.fromstring(svg).iter(f"{SVG}rect") if r.get("class") == "bar"
    ]
    assert widths[0] == widths[1] == 640.0  # the root and `slow` take the whole 250 ms
    assert "250.0 ms" in svg and "100.0 ms" in svg  # the axis ticks every 50 ms


def test_labels_are_escaped_and_an_empty_run_draws_a_note() -> None:
    chain = RunnableLambda(shout).with_config(run_name='<b> & "q"')
    svg = timeline_svg(effects_of(chain, "x"))
    assert "&lt;b&gt; &amp; &quot;q&quot;" in svg
    ElementTree.fromstring(svg)
    assert "no runs" in Timeline().render()


def test_chromium_renders_the_quickstart_timeline(tmp_path: Path) -> None:
    browser = shutil.which("chromium")
    if browser is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing in CI: apt-get install chromium")
        pytest.skip("chromium is not installed")
    root = Path(__file__).resolve().parents[4]
    svg_path = tmp_path / "run.svg"
    subprocess.run(
        [sys.executable, str(root / "examples" / "rag.py"), "--timeline", str(svg_path)],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=120,
    )
    png = tmp_path / "run.png"
    subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--window-size=1100,340", f"--screenshot={png}", svg_path.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
