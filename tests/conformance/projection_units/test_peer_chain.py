"""Golden: ``first | gen | StrOutputParser()`` streamed with input "hi" (langchain-core 1.8.3).

The peer chain: ``RunnableLambda(lambda x: x + "a", name="first")``, an async generator
``gen`` yielding ``x.upper()`` then ``"!"`` per input chunk, and ``StrOutputParser()``.
The effects below are what our runtime emits for that chain; the expected events and
patches were printed by the peer (run ids replaced by ours).
"""

from __future__ import annotations

from effects.projections import EventsV1, EventsV2, RunLogPatches, run_logs
from effects.projections.events_v1 import stream_events_v1
from effects.projections.events_v2 import stream_events_v2
from effects.projections.run_log import run_log_patches
from effects.effect_values import Effect
from tests.unit.effects.projections.script import Script, sid

R, FIRST, GEN, PARSER = sid(1), sid(2), sid(3), sid(4)


def chain_effects() -> list[Effect]:
    s = Script()
    root = s.run(1, "RunnableSequence")
    first = s.run(2, "first", parent=root, tags=("seq:step:1",))
    gen = s.run(3, "gen", parent=root, tags=("seq:step:2",))
    parser = s.run(4, "StrOutputParser", "parser", parent=root, tags=("seq:step:3",))
    s.start(root, "hi")
    s.start(first)
    s.stream(first, "hia")
    s.start(gen)
    s.stream(gen, "HIA")
    s.start(parser)
    s.stream(parser, "HIA")
    s.stream(root, "HIA")
    s.stream(gen, "!")
    s.stream(parser, "!")
    s.stream(root, "!")
    s.end(first, "hi", "hia")
    s.end(gen, "hia", "HIA!")
    s.end(parser, "HIA!", "HIA!")
    s.end(root, "hi", "HIA!")
    return s.effects


V2_EXPECTED: list[tuple[list[str], dict[str, object]]] = [
    (
        ["event", "data", "name", "tags", "run_id", "metadata", "parent_ids"],
        {
            "event": "on_chain_start",
            "data": {"input": "hi"},
            "name": "RunnableSequence",
            "tags": [],
            "run_id": R,
            "metadata": {},
            "parent_ids": [],
        },
    ),
    (
        ["event", "data", "name", "tags", "run_id", "metadata", "parent_ids"],
        {
            "event": "on_chain_start",
            "data": {},
            "name": "first",
            "tags": ["seq:step:1"],
            "run_id": FIRST,
            "metadata": {},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"],
        {
            "event": "on_chain_stream",
            "run_id": FIRST,
            "name": "first",
            "tags": ["seq:step:1"],
            "metadata": {},
            "data": {"chunk": "hia"},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "data", "name", "tags", "run_id", "metadata", "parent_ids"],
        {
            "event": "on_chain_start",
            "data": {},
            "name": "gen",
            "tags": ["seq:step:2"],
            "run_id": GEN,
            "metadata": {},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"],
        {
            "event": "on_chain_stream",
            "run_id": GEN,
            "name": "gen",
            "tags": ["seq:step:2"],
            "metadata": {},
            "data": {"chunk": "HIA"},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "data", "name", "tags", "run_id", "metadata", "parent_ids"],
        {
            "event": "on_parser_start",
            "data": {},
            "name": "StrOutputParser",
            "tags": ["seq:step:3"],
            "run_id": PARSER,
            "metadata": {},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"],
        {
            "event": "on_parser_stream",
            "run_id": PARSER,
            "name": "StrOutputParser",
            "tags": ["seq:step:3"],
            "metadata": {},
            "data": {"chunk": "HIA"},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"],
        {
            "event": "on_chain_stream",
            "run_id": R,
            "name": "RunnableSequence",
            "tags": [],
            "metadata": {},
            "data": {"chunk": "HIA"},
            "parent_ids": [],
        },
    ),
    (
        ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"],
        {
            "event": "on_chain_stream",
            "run_id": GEN,
            "name": "gen",
            "tags": ["seq:step:2"],
            "metadata": {},
            "data": {"chunk": "!"},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"],
        {
            "event": "on_parser_stream",
            "run_id": PARSER,
            "name": "StrOutputParser",
            "tags": ["seq:step:3"],
            "metadata": {},
            "data": {"chunk": "!"},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"],
        {
            "event": "on_chain_stream",
            "run_id": R,
            "name": "RunnableSequence",
            "tags": [],
            "metadata": {},
            "data": {"chunk": "!"},
            "parent_ids": [],
        },
    ),
    (
        ["event", "data", "run_id", "name", "tags", "metadata", "parent_ids"],
        {
            "event": "on_chain_end",
            "data": {"output": "hia", "input": "hi"},
            "run_id": FIRST,
            "name": "first",
            "tags": ["seq:step:1"],
            "metadata": {},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "data", "run_id", "name", "tags", "metadata", "parent_ids"],
        {
            "event": "on_chain_end",
            "data": {"output": "HIA!", "input": "hia"},
            "run_id": GEN,
            "name": "gen",
            "tags": ["seq:step:2"],
            "metadata": {},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "data", "run_id", "name", "tags", "metadata", "parent_ids"],
        {
            "event": "on_parser_end",
            "data": {"output": "HIA!", "input": "HIA!"},
            "run_id": PARSER,
            "name": "StrOutputParser",
            "tags": ["seq:step:3"],
            "metadata": {},
            "parent_ids": [R],
        },
    ),
    (
        ["event", "data", "run_id", "name", "tags", "metadata", "parent_ids"],
        {
            "event": "on_chain_end",
            "data": {"output": "HIA!"},
            "run_id": R,
            "name": "RunnableSequence",
            "tags": [],
            "metadata": {},
            "parent_ids": [],
        },
    ),
]


def test_v2_events_equal_the_peer_with_its_key_orders() -> None:
    events = list(stream_events_v2(chain_effects()))
    assert [dict(e) for e in events] == [expected for _, expected in V2_EXPECTED]
    assert [list(e) for e in events] == [order for order, _ in V2_EXPECTED]
    # data keys keep the peer's order too: output before input on end events
    assert [list(e["data"]) for e in events if e["event"].endswith("_end")] == [
        ["output", "input"],
        ["output", "input"],
        ["output", "input"],
        ["output"],
    ]


SUB = ["event", "name", "run_id", "tags", "metadata", "data", "parent_ids"]
V1_EXPECTED: list[tuple[list[str], tuple[str, str, dict[str, object]]]] = [
    (["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"], ("on_chain_start", R, {"input": "hi"})),
    (SUB, ("on_chain_start", FIRST, {})),
    (SUB, ("on_chain_stream", FIRST, {"chunk": "hia"})),
    (SUB, ("on_chain_start", GEN, {})),
    (SUB, ("on_chain_stream", GEN, {"chunk": "HIA"})),
    (SUB, ("on_parser_start", PARSER, {})),
    (SUB, ("on_parser_stream", PARSER, {"chunk": "HIA"})),
    (["event", "run_id", "tags", "metadata", "name", "data", "parent_ids"], ("on_chain_stream", R, {"chunk": "HIA"})),
    (SUB, ("on_chain_stream", GEN, {"chunk": "!"})),
    (SUB, ("on_parser_stream", PARSER, {"chunk": "!"})),
    (["event", "run_id", "tags", "metadata", "name", "data", "parent_ids"], ("on_chain_stream", R, {"chunk": "!"})),
    (SUB, ("on_chain_end", FIRST, {"input": "hi", "output": "hia"})),
    (SUB, ("on_chain_end", GEN, {"input": "hia", "output": "HIA!"})),
    (SUB, ("on_parser_end", PARSER, {"input": "HIA!", "output": "HIA!"})),
    (SUB, ("on_chain_end", R, {"output": "HIA!"})),
]


def test_v1_events_equal_the_peer_with_its_key_orders() -> None:
    events = list(stream_events_v1(chain_effects()))
    assert [(e["event"], e["run_id"], e["data"]) for e in events] == [row for _, row in V1_EXPECTED]
    assert [list(e) for e in events] == [order for order, _ in V1_EXPECTED]
    assert all(e["parent_ids"] == [] for e in events)
    assert [list(e["data"]) for e in events if e["event"].endswith("_end")][:3] == [["input", "output"]] * 3


def _entry(run_id: str, name: str, run_type: str, tags: list[str], start: str) -> dict[str, object]:
    return {
        "id": run_id,
        "name": name,
        "type": run_type,
        "tags": tags,
        "metadata": {},
        "start_time": start,
        "streamed_output": [],
        "streamed_output_str": [],
        "final_output": None,
        "end_time": None,
    }


def test_run_log_patches_equal_the_peer() -> None:
    patches = [p.ops for p in run_log_patches(chain_effects())]
    t = [f"2025-11-29T14:16:57.{195 + i}+00:00" for i in range(15)]
    assert patches == [
        (
            {
                "op": "replace",
                "path": "",
                "value": {
                    "id": R,
                    "streamed_output": [],
                    "final_output": None,
                    "logs": {},
                    "name": "RunnableSequence",
                    "type": "chain",
                },
            },
        ),
        ({"op": "add", "path": "/logs/first", "value": _entry(FIRST, "first", "chain", ["seq:step:1"], t[1])},),
        ({"op": "add", "path": "/logs/first/streamed_output/-", "value": "hia"},),
        ({"op": "add", "path": "/logs/gen", "value": _entry(GEN, "gen", "chain", ["seq:step:2"], t[3])},),
        ({"op": "add", "path": "/logs/gen/streamed_output/-", "value": "HIA"},),
        (
            {
                "op": "add",
                "path": "/logs/StrOutputParser",
                "value": _entry(PARSER, "StrOutputParser", "parser", ["seq:step:3"], t[5]),
            },
        ),
        ({"op": "add", "path": "/logs/StrOutputParser/streamed_output/-", "value": "HIA"},),
        (
            {"op": "add", "path": "/streamed_output/-", "value": "HIA"},
            {"op": "replace", "path": "/final_output", "value": "HIA"},
        ),
        ({"op": "add", "path": "/logs/gen/streamed_output/-", "value": "!"},),
        ({"op": "add", "path": "/logs/StrOutputParser/streamed_output/-", "value": "!"},),
        (
            {"op": "add", "path": "/streamed_output/-", "value": "!"},
            {"op": "replace", "path": "/final_output", "value": "HIA!"},
        ),
        (
            {"op": "add", "path": "/logs/first/final_output", "value": {"output": "hia"}},
            {"op": "add", "path": "/logs/first/end_time", "value": t[11]},
        ),
        (
            {"op": "add", "path": "/logs/gen/final_output", "value": {"output": "HIA!"}},
            {"op": "add", "path": "/logs/gen/end_time", "value": t[12]},
        ),
        (
            {"op": "add", "path": "/logs/StrOutputParser/final_output", "value": {"output": "HIA!"}},
            {"op": "add", "path": "/logs/StrOutputParser/end_time", "value": t[13]},
        ),
    ]
    # The root's end adds nothing: the peer's log just closes.


def test_run_state_keys_keep_the_peer_order() -> None:
    first = next(iter(run_log_patches(chain_effects())))
    value = first.ops[0]["value"]
    assert isinstance(value, dict)
    assert list(value) == ["id", "streamed_output", "final_output", "logs", "name", "type"]


def test_final_run_log_state() -> None:
    state = list(run_logs(chain_effects()))[-1].state
    assert isinstance(state, dict)
    assert state["streamed_output"] == ["HIA", "!"]
    assert state["final_output"] == "HIA!"
    logs = state["logs"]
    assert isinstance(logs, dict)
    assert list(logs) == ["first", "gen", "StrOutputParser"]


def test_folds_match_the_generator_functions() -> None:
    effects = chain_effects()
    v2, v1, log = EventsV2(), EventsV1(), RunLogPatches()
    assert [e for x in effects for e in v2.feed(x)] == list(stream_events_v2(effects))
    assert [e for x in effects for e in v1.feed(x)] == list(stream_events_v1(effects))
    assert [p for x in effects for p in log.feed(x)] == list(run_log_patches(effects))
