"""A timeline (waterfall) of a run as SVG: one row per run, nested under its parent.

A pure fold over effects, live or replayed from a recording: each row shows the run's
name and type, a bar from its start to its end (red, with the error's type, when it
failed; grey when it was cancelled), a tick for every streamed chunk, and its duration. Rows are in tree order,
indented under their parent and joined to it by a line, so nesting is visible.

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted, RunStreamed, RunEnded
>>> root = RunInfo(UUID(int=1), (), "chain", "chain", (), {})
>>> model = RunInfo(UUID(int=2), (UUID(int=1),), "model", "chat_model", (), {})
>>> svg = timeline_svg([RunStarted(root, "q", 0.0), RunStarted(model, "q", 0.001),
...                     RunStreamed(model, "a", 0.004), RunEnded(model, "q", "a", 0.005),
...                     RunEnded(root, "q", "a", 0.006)])
>>> svg.startswith("<svg") and svg.count('class="tick"'), "model" in svg
(1, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final, final

from effects.effect_values import Effect
from effects.projections.run_tree import RunForest, RunNode

_ROW: Final = 24
_INDENT: Final = 16
_CHAR: Final = 7.3  # width of one character of the 12px monospace labels
_BARS: Final = 640
_TOP: Final = 58
_COLOURS: Final = {
    "chain": "#9d8df1",
    "prompt": "#e0a526",
    "chat_model": "#3b82c4",
    "llm": "#3b82c4",
    "retriever": "#2f9e77",
    "parser": "#a66cc1",
    "tool": "#e07b39",
}
_FAILED: Final = "#d62828"
_CANCELLED: Final = "#bdbdbd"
_CANCELLATIONS: Final = frozenset({"CancelledError", "GeneratorExit", "KeyboardInterrupt"})


def _failure(row: RunNode) -> str | None:
    """The type name of the error a row's run failed with (a replayed ``RecordedError``
    keeps the original's as ``error_type``), or ``None``."""
    if row.error is None:
        return None
    error_type = getattr(row.error, "error_type", None)
    return error_type if isinstance(error_type, str) else type(row.error).__name__


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _duration(seconds: float) -> str:
    ms = seconds * 1000
    if ms == 0:
        return "0 ms"
    if ms < 1:
        return f"{ms:.2f} ms"
    if ms < 1000:
        return f"{ms:.1f} ms"
    return f"{seconds:.2f} s"


def _note(row: RunNode) -> str:
    """The text after a row's bar: its duration, and how it ended if not well."""
    took = "running" if row.end is None else _duration(row.end - row.start)
    failure = _failure(row)
    if failure in _CANCELLATIONS:
        return f"{took} cancelled"
    return f"{took} ✗ {failure}" if failure else took


def _step(span: float) -> float:
    """A round tick interval (1, 2 or 5 times a power of ten) giving about six ticks."""
    raw = span / 6 if span > 0 else 0.001
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


@final
class Timeline(RunForest):
    """Folds effects into rows; ``render()`` draws them as SVG text."""

    __slots__ = ()

    def _ordered(self) -> list[RunNode]:
        rows: list[RunNode] = []
        stack = sorted(self.roots, key=lambda r: r.start, reverse=True)
        while stack:
            row = stack.pop()
            rows.append(row)
            stack.extend(sorted(row.children, key=lambda r: r.start, reverse=True))
        return rows

    def render(self, title: str | None = None) -> str:
        """The timeline as a standalone SVG document."""
        rows = self._ordered()
        if not rows:
            return '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="40"><text x="10" y="24">no runs</text></svg>'
        start = min(r.start for r in rows)
        end = max([self.last, *(r.end for r in rows if r.end is not None)])
        span = max(end - start, 1e-6)
        label_width = max(r.depth * _INDENT + len(r.name) * _CHAR + 8 + len(r.run_type) * 6.2 for r in rows)
        left = 12 + math.ceil(label_width) + 16
        width = left + _BARS + 16 + math.ceil(max(len(_note(r)) for r in rows) * 6.8)
        height = _TOP + len(rows) * _ROW + 44
        top_name = rows[0].name if title is None else title
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
            f' viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, Menlo, monospace" font-size="12">',
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
            f'<text x="12" y="22" font-size="14" font-weight="bold">{_escape(top_name)}'
            f" — {_duration(span)}, {len(rows)} runs</text>",
        ]
        parts += [
            f'<rect x="0" y="{_TOP + i * _ROW}" width="{width}" height="{_ROW}" fill="#f4f4f8"/>'
            for i in range(1, len(rows), 2)
        ]
        parts += self._axis(left, start, span, len(rows))
        parts += self._tree_lines(rows)
        for i, row in enumerate(rows):
            parts += self._row(row, i, left, start, span, end)
        parts += self._legend(rows, height)
        parts.append("</svg>")
        return "\n".join(parts)

    def _axis(self, left: int, start: float, span: float, count: int) -> list[str]:
        step = _step(span)
        bottom = _TOP + count * _ROW
        out: list[str] = []
        tick = 0.0
        while tick <= span * 1.0001:
            x = left + tick / span * _BARS
            out.append(f'<line x1="{x:.1f}" y1="{_TOP - 6}" x2="{x:.1f}" y2="{bottom}" stroke="#e6e6e6"/>')
            out.append(
                f'<text x="{x:.1f}" y="{_TOP - 10}" font-size="10" fill="#666666" text-anchor="middle">'
                f"{_duration(tick)}</text>"
            )
            tick += step
        return out

    def _tree_lines(self, rows: list[RunNode]) -> list[str]:
        """From each row down to each of its children: the nesting, drawn."""
        position = {id(r): i for i, r in enumerate(rows)}
        out: list[str] = []
        for i, row in enumerate(rows):
            x = 12 + row.depth * _INDENT + 4
            for child in row.children:
                below = _TOP + position[id(child)] * _ROW + _ROW / 2
                out.append(
                    f'<path d="M{x} {_TOP + i * _ROW + _ROW - 5} V{below} H{x + _INDENT - 6}"'
                    ' fill="none" stroke="#a0a0b8"/>'
                )
        return out

    def _row(self, row: RunNode, i: int, left: int, start: float, span: float, end: float) -> list[str]:
        y = _TOP + i * _ROW
        middle = y + _ROW / 2
        indent = 12 + row.depth * _INDENT
        out: list[str] = []
        out.append(
            f'<text x="{indent}" y="{middle + 4}">{_escape(row.name)}'
            f'<tspan fill="#888888" font-size="10"> {_escape(row.run_type)}</tspan></text>'
        )
        x0 = left + (row.start - start) / span * _BARS
        finished = row.end if row.end is not None else end
        x1 = max(left + (finished - start) / span * _BARS, x0 + 2)
        failure = _failure(row)
        cancelled = failure in _CANCELLATIONS
        colour = (_CANCELLED if cancelled else _FAILED) if failure else _COLOURS.get(row.run_type, "#8c8c8c")
        dash = "" if row.end is not None else ' stroke="#555555" stroke-dasharray="3 2"'
        out.append(
            f'<rect class="bar" x="{x0:.1f}" y="{y + 6}" width="{x1 - x0:.1f}" height="{_ROW - 12}"'
            f' rx="2" fill="{colour}"{dash}/>'
        )
        for at in row.chunks:
            x = left + (at - start) / span * _BARS
            out.append(
                f'<line class="tick" x1="{x:.1f}" y1="{y + _ROW - 6}" x2="{x:.1f}" y2="{y + _ROW - 2}"'
                ' stroke="#222222"/>'
            )
        note = _note(row)
        fill = _FAILED if failure and not cancelled else "#444444"
        out.append(f'<text x="{x1 + 5:.1f}" y="{middle + 4}" font-size="11" fill="{fill}">{_escape(note)}</text>')
        return out

    def _legend(self, rows: list[RunNode], height: int) -> list[str]:
        kinds = list(dict.fromkeys(r.run_type for r in rows))
        entries = [(k, _COLOURS.get(k, "#8c8c8c")) for k in kinds]
        failures = [_failure(r) for r in rows]
        if any(f and f not in _CANCELLATIONS for f in failures):
            entries.append(("failed", _FAILED))
        if any(f in _CANCELLATIONS for f in failures):
            entries.append(("cancelled", _CANCELLED))
        out: list[str] = []
        x = 12
        y = height - 18
        for name, colour in entries:
            out.append(f'<rect x="{x}" y="{y - 9}" width="12" height="10" rx="2" fill="{colour}"/>')
            out.append(f'<text x="{x + 16}" y="{y}" font-size="11">{_escape(name)}</text>')
            x += 16 + int(len(name) * 6.8) + 18
        out.append(f'<line x1="{x}" y1="{y - 9}" x2="{x}" y2="{y + 1}" stroke="#222222"/>')
        out.append(f'<text x="{x + 6}" y="{y}" font-size="11">streamed chunk</text>')
        return out


def timeline_svg(effects: Iterable[Effect], title: str | None = None) -> str:
    """The SVG timeline of a run's effects.

    >>> timeline_svg([]).count("no runs")
    1
    """
    timeline = Timeline()
    for effect in effects:
        timeline.feed(effect)
    return timeline.render(title)
