"""The LangChain bridge against goldens measured from langchain-core
(``make_bridge_goldens.py``): our astream_events (v2, v1) and astream_log of
``from_langchain(chain)`` shaped as the bridge's tests compare them (runs as a tree by
their path of names; the run log's final state), the wrapper's own run aside, equal the
shape langchain-core's own gave for the same chain when the goldens were recorded."""

from __future__ import annotations

import asyncio
import json
import warnings

import pytest

from combinators.integrations.langchain import from_langchain
from tests.conformance.make_bridge_goldens import PROJECTIONS, as_json, golden_path, shape_of
from tests.unit.combinators.integrations.langchain.test_callbacks_inner_runs import CHAINS

# Known differences, each with its reason (docs/langchain-bridge.md says the same).
DIFFERENT: dict[tuple[str, str], str] = {
    ("compiled langgraph", "events_v1"): (
        "LangChain's v1 root end shows the graph's last streamed update; ours, below the"
        " wrapper, the graph's end output as its callbacks report it"
    ),
}

CASES = [
    pytest.param(name, projection, id=f"{name}.{projection}")
    for name in sorted(CHAINS)
    for projection in PROJECTIONS
    if (name, projection) not in DIFFERENT
]


def test_every_chain_and_projection_has_a_golden() -> None:
    missing = [golden_path(n, p).name for n in CHAINS for p in PROJECTIONS if not golden_path(n, p).is_file()]
    assert missing == [], "run: python -m tests.conformance.make_bridge_goldens"


@pytest.mark.parametrize(("name", "projection"), CASES)
def test_our_events_of_a_wrapped_chain_equal_the_golden(name: str, projection: str) -> None:
    chain, input = CHAINS[name]
    golden = json.loads(golden_path(name, projection).read_text(encoding="utf-8"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        ours = asyncio.run(shape_of(from_langchain(chain, object, object), input, projection, wrapped=True))
    assert as_json(ours) == golden["shape"]
