"""Measure golden transcripts from the peer (langchain-core); run by hand, not by pytest.

    .venv/bin/python -m tests.conformance.make_goldens [scenario ...]

For every scenario in ``tests.conformance.chains`` and every projection
(``astream_events`` v2 and v1, ``astream_log`` patch ops) this runs the chain built
with langchain-core's classes, normalises the transcript (run ids -> ``run-N``,
timestamps -> ``<time>``) and writes ``golden/<scenario>.<projection>.json``.
When the peer does not support a projection for a scenario (it raises
``NotImplementedError``), no golden is written for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.conformance.chains import PROJECTIONS, SCENARIOS, peer
from tests.conformance.transcripts import arecord

GOLDEN = Path(__file__).parent / "golden"


NOTE = (
    "astream_events/astream_log of the peer with LogStreamCallbackHandler.run_inline=True "
    "(see make_goldens.inline_log_callbacks); run ids and times normalised"
)


def golden_path(scenario: str, projection: str) -> Path:
    return GOLDEN / f"{scenario}.{projection}.json"


def peer_version() -> str:
    import langchain_core

    return f"langchain-core {langchain_core.__version__}"


def dump(document: dict[str, Any]) -> str:
    """JSON with one transcript item per line (reviewable diffs); ``json.loads`` reads it."""
    head = {k: v for k, v in document.items() if k != "items"}
    lines = [json.dumps(item, ensure_ascii=False) for item in document["items"]]
    body = ",\n  ".join(lines)
    text = json.dumps(head, indent=1, ensure_ascii=False)
    return text[:-2] + ',\n "items": [\n  ' + body + "\n ]\n}\n"


@contextlib.contextmanager
def inline_log_callbacks() -> Iterator[None]:
    """Run the peer's log tracer inline, so concurrent branches log in a fixed order.

    ``astream_log`` (and ``astream_events(version="v1")``, built on it) records runs
    with ``LogStreamCallbackHandler``, a sync handler with ``run_inline = False``: the
    peer's async callback manager hands each of its callbacks to a thread pool
    (``run_in_executor``). In a sequence every step awaits its callback, so the order
    is fixed anyway; between parallel branches it is thread timing (seen: the
    ``retrieval`` and ``assign`` logs changed between runs). Inline, a callback runs
    where the peer calls it, which is the order the peer produces when the pool
    thread is quicker than the event loop. The v2 handler is async, never threaded,
    and is not touched.
    """
    from langchain_core.tracers.log_stream import LogStreamCallbackHandler

    saved = LogStreamCallbackHandler.run_inline
    LogStreamCallbackHandler.run_inline = True
    try:
        yield
    finally:
        LogStreamCallbackHandler.run_inline = saved


async def measure(names: set[str] | None) -> list[Path]:
    lib = peer()
    written: list[Path] = []
    for scenario in SCENARIOS:
        if names and scenario.name not in names:
            continue
        for projection in PROJECTIONS:
            chain = scenario.build(lib)
            with inline_log_callbacks():
                transcript = await arecord(chain, projection, scenario.input, **scenario.options)
            raised = transcript["raised"]
            if raised is not None and raised["type"] == "NotImplementedError":
                print(f"skip {scenario.name}.{projection}: {raised['message']}")
                continue
            document: dict[str, Any] = {
                "scenario": scenario.name,
                "projection": projection,
                "measured_with": peer_version(),
                "measurement_note": NOTE,
                "input": scenario.input,
                **({"options": scenario.options} if scenario.options else {}),
                **transcript,
            }
            path = golden_path(scenario.name, projection)
            path.write_text(dump(document))
            written.append(path)
    return written


def main(argv: list[str]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    import langchain_core.runnables  # noqa: F401  # installs its warning filters first

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # astream_log and v1 are deprecated in the peer
        for path in asyncio.run(measure(set(argv) or None)):
            print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")


if __name__ == "__main__":
    main(sys.argv[1:])
