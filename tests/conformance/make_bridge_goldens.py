"""Measure the LangChain bridge's goldens from langchain-core; run by hand, not by pytest.

    .venv/bin/python -m tests.conformance.make_bridge_goldens

For every LangChain chain the bridge's tests wrap (``CHAINS`` in
``tests/unit/combinators/integrations/langchain/test_callbacks_inner_runs.py``) this runs
langchain-core's own ``astream_events`` (v2 and v1) and ``astream_log`` of the chain,
shapes them as the tests compare them (runs as a tree keyed by their path of names, each
run's events in order; the run log's final state), and writes
``golden/bridge/<chain>.<projection>.json``. ``test_bridge_goldens.py`` checks that our
events of ``from_langchain(chain)`` still equal them, so a change on either side shows.
"""

from __future__ import annotations

import asyncio
import json
import re
import warnings
from pathlib import Path
from typing import Any

from tests.conformance.transcripts import common_form, normalise, to_json
from tests.unit.combinators.integrations.langchain import test_callbacks_inner_runs as bridge

GOLDEN = Path(__file__).parent / "golden" / "bridge"
PROJECTIONS = ("events_v2", "events_v1", "log")


def slug(name: str) -> str:
    """A chain's name as a file name: ``prompt | model | parser`` -> ``prompt-model-parser``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def golden_path(name: str, projection: str) -> Path:
    return GOLDEN / f"{slug(name)}.{projection}.json"


def as_json(shape: object) -> Any:
    """A compared shape as JSON: paths joined with " / ", values in the common form, run
    ids numbered."""
    if isinstance(shape, tuple) and len(shape) == 2 and isinstance(shape[1], dict) and isinstance(shape[0], dict):
        top, logs = shape
        return normalise(common_form(to_json({"root": top, "logs": logs})))
    assert isinstance(shape, dict)
    tree = {" / ".join(path): [list(event) for event in events] for path, events in shape.items()}
    return normalise(common_form(to_json(tree)))


async def shape_of(runnable: Any, input: object, projection: str, wrapped: bool) -> object:
    """The compared shape of ``runnable``'s projection (ours when ``wrapped``: the wrapper's
    run left out)."""
    if projection == "log":
        state = await bridge.final_log(runnable, input)
        return bridge.log_shape(state, state["name"] if wrapped else None)
    version = "v2" if projection == "events_v2" else "v1"
    events = [dict(event) async for event in runnable.astream_events(input, version=version)]
    return bridge.tree_of(events, events[0]["run_id"] if wrapped else None)


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    warnings.simplefilter("ignore", DeprecationWarning)  # LangChain deprecates v1 and the log
    import langchain_core

    for name, (chain, input) in sorted(bridge.CHAINS.items()):
        for projection in PROJECTIONS:
            shape = asyncio.run(shape_of(chain, input, projection, wrapped=False))
            document = {"peer": f"langchain-core {langchain_core.__version__}", "chain": name, "shape": as_json(shape)}
            path = golden_path(name, projection)
            path.write_text(json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
            print(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)


if __name__ == "__main__":
    main()
