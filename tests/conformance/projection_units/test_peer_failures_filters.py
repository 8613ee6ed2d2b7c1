"""Golden: failures, custom events, repeated names and filters (langchain-core 1.8.3)."""

from __future__ import annotations

from effects.projections import EventFilter, to_jsonable
from effects.projections.events_v1 import stream_events_v1
from effects.projections.events_v2 import stream_events_v2
from effects.projections.run_log import run_log_patches, run_logs
from effects.effect_values import Effect
from tests.unit.effects.projections.script import Script, sid

BOOM = ValueError("boom")


def failing_effects(run_type: str) -> list[Effect]:
    """``I | bad`` where ``bad`` (of ``run_type``) raises; the root fails with it."""
    s = Script()
    root = s.run(1, "RunnableSequence")
    ok = s.run(2, "I", parent=root, tags=("seq:step:1",))
    bad = s.run(3, "bad", run_type, parent=root, tags=("seq:step:2",))
    s.start(root, "q")
    s.start(ok)
    s.stream(ok, "q")
    s.end(ok, "q", "q")
    s.start(bad, "q")
    s.fail(bad, "q", BOOM)
    s.fail(root, "q", BOOM)
    return s.effects


def test_v1_failed_sub_run_ends_with_the_peer_output_and_a_failed_root_shows_nothing() -> None:
    expected: dict[str, object] = {
        "chain": None,
        "tool": None,
        "retriever": {},
        "llm": {"generations": [], "llm_output": None, "run": None, "type": "LLMResult"},
        "chat_model": {"generations": [[]], "llm_output": None, "run": None, "type": "LLMResult"},
    }
    for run_type, output in expected.items():
        events = list(stream_events_v1(failing_effects(run_type)))
        assert (events[-1]["event"], events[-1]["data"]) == (f"on_{run_type}_end", {"input": "q", "output": output})
        assert [e["event"] for e in events].count("on_chain_end") == (2 if run_type == "chain" else 1)


def test_run_log_failed_sub_run_output_per_type_and_nothing_for_the_root() -> None:
    expected = {
        "chain": {},
        "tool": {},
        "retriever": {},
        "prompt": {},
        "llm": {"generations": [], "llm_output": None, "run": None, "type": "LLMResult"},
        "chat_model": {"generations": [[]], "llm_output": None, "run": None, "type": "LLMResult"},
    }
    for run_type, output in expected.items():
        patches = list(run_log_patches(failing_effects(run_type)))
        last = patches[-1].ops
        assert [op["path"] for op in last] == ["/logs/bad/final_output", "/logs/bad/end_time"]
        assert last[0]["value"] == output


def test_v2_failure_is_our_error_extension() -> None:
    events = list(stream_events_v2(failing_effects("tool")))
    error, root_error = events[-2], events[-1]
    assert error["event"] == "on_tool_error"
    assert error["data"] == {"error": BOOM, "input": "q", "tool_call_id": None}  # the peer's keys, in order
    assert list(error) == ["event", "data", "run_id", "name", "tags", "metadata", "parent_ids"]
    assert root_error["event"] == "on_chain_error" and root_error["data"] == {"error": BOOM}


def custom_effects() -> list[Effect]:
    s = Script()
    root = s.run(1, "RunnableSequence", tags=("T",), metadata={"m": 1})
    first = s.run(2, "I", parent=root, tags=("seq:step:1", "T"), metadata={"m": 1})
    cust = s.run(3, "cust", parent=root, tags=("seq:step:2", "T"), metadata={"m": 1})
    s.start(root, "q")
    s.start(first)
    s.stream(first, "q")
    s.start(cust)
    s.end(first, "q", "q")
    s.custom(cust, "progress", {"p": 1})
    s.custom(cust, "other", 2)
    s.stream(cust, "q")
    s.stream(root, "q")
    s.end(cust, "q", "q")
    s.end(root, "q", "q")
    return s.effects


def test_custom_events_in_v2() -> None:
    events = [e for e in stream_events_v2(custom_effects()) if e["event"] == "on_custom_event"]
    assert [dict(e) for e in events] == [
        {
            "event": "on_custom_event",
            "run_id": sid(3),
            "name": "progress",
            "tags": ["seq:step:2", "T"],
            "metadata": {"m": 1},
            "data": {"p": 1},
            "parent_ids": [sid(1)],
        },
        {
            "event": "on_custom_event",
            "run_id": sid(3),
            "name": "other",
            "tags": ["seq:step:2", "T"],
            "metadata": {"m": 1},
            "data": 2,
            "parent_ids": [sid(1)],
        },
    ]
    assert list(events[0]) == ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"]


def test_custom_events_are_filtered_by_their_own_name_as_type() -> None:
    def shown(**filters: list[str]) -> list[tuple[str, str]]:
        return [(e["event"], e["name"]) for e in stream_events_v2(custom_effects(), EventFilter(**filters))]

    assert shown(include_types=["progress"]) == [("on_custom_event", "progress")]
    assert shown(include_names=["progress"]) == [("on_custom_event", "progress")]
    # Excluding the enclosing run does not hide its custom events.
    assert ("on_custom_event", "progress") in shown(exclude_names=["cust"])
    assert ("on_chain_start", "cust") not in shown(exclude_names=["cust"])
    assert shown(exclude_tags=["T"]) == []  # the root is not exempt


def test_v1_and_log_do_not_show_custom_events() -> None:
    assert all(e["event"] != "on_custom_event" for e in stream_events_v1(custom_effects()))
    paths = [op["path"] for p in run_log_patches(custom_effects()) for op in p.ops]
    assert not any("progress" in str(path) for path in paths)


def test_v1_filters_apply_to_the_root_too() -> None:
    assert list(stream_events_v1(custom_effects(), EventFilter(exclude_names=["RunnableSequence"]))) != []
    assert [e["name"] for e in stream_events_v1(custom_effects(), EventFilter(include_names=["I"]))] == ["I", "I", "I"]
    assert [e["name"] for e in stream_events_v1(custom_effects(), EventFilter(exclude_names=["I"]))] == [
        "RunnableSequence",
        "cust",
        "cust",
        "RunnableSequence",
        "cust",
        "RunnableSequence",
    ]


def test_repeated_names_get_numbered_keys_and_dicts_stay_unwrapped() -> None:
    s = Script()
    root = s.run(1, "RunnableSequence")
    runs = [s.run(n, "first", parent=root, tags=(f"seq:step:{n - 1}",)) for n in (2, 3, 4)]
    s.start(root, "hi")
    s.start(runs[0])
    s.stream(runs[0], {"k": "hi"})
    s.start(runs[1])
    s.end(runs[0], "hi", {"k": "hi"})
    s.stream(runs[1], {"k": "hi"})
    s.start(runs[2])
    s.end(runs[1], {"k": "hi"}, {"k": "hi"})
    s.stream(runs[2], [{"k": "hi"}])
    s.stream(root, [{"k": "hi"}])
    s.end(runs[2], {"k": "hi"}, [{"k": "hi"}])
    s.end(root, "hi", [{"k": "hi"}])
    ops = [(op["op"], op["path"], op.get("value")) for p in run_log_patches(s.effects) for op in p.ops]
    assert [path for _, path, _ in ops if str(path).startswith("/logs/") and str(path).count("/") == 2] == [
        "/logs/first",
        "/logs/first:2",
        "/logs/first:3",
    ]
    finals = {path: value for _, path, value in ops if str(path).endswith("final_output") and path != "/final_output"}
    assert finals == {
        "/logs/first/final_output": {"k": "hi"},
        "/logs/first:2/final_output": {"k": "hi"},
        "/logs/first:3/final_output": {"output": [{"k": "hi"}]},
    }
    assert ("replace", "/final_output", [{"k": "hi"}]) in ops


def test_log_filters_keep_the_root_and_match_chat_models_as_llm() -> None:
    s = Script()
    root = s.run(1, "root")
    model = s.run(2, "Model", "chat_model", parent=root)
    s.start(root, "q")
    s.start(model, {"messages": [["q"]]})
    s.stream(model, "a")
    s.stream(root, "a")
    s.end(model, {"messages": [["q"]]}, "a")
    s.end(root, "q", "a")
    as_chat = list(run_logs(s.effects, EventFilter(include_types=["chat_model"])))[-1].state
    as_llm = list(run_logs(s.effects, EventFilter(include_types=["llm"])))[-1].state
    excluded_root = list(run_logs(s.effects, EventFilter(exclude_names=["root"])))[-1].state
    assert isinstance(as_chat, dict) and isinstance(as_llm, dict) and isinstance(excluded_root, dict)
    assert as_chat["logs"] == {} and as_chat["final_output"] == "a"
    assert isinstance(as_llm["logs"], dict) and list(as_llm["logs"]) == ["Model"]
    assert excluded_root["name"] == "root" and excluded_root["streamed_output"] == ["a"]


def test_root_final_output_quirks() -> None:
    s = Script()
    root = s.run(1, "one")
    s.start(root, 1)
    s.stream(root, None)
    s.stream(root, 2)
    s.end(root, 1, 2)
    patches = [p.ops for p in run_log_patches(s.effects)]
    # A None chunk leaves final_output as it is: no diff op.
    assert patches[1] == ({"op": "add", "path": "/streamed_output/-", "value": None},)
    assert patches[2] == (
        {"op": "add", "path": "/streamed_output/-", "value": 2},
        {"op": "replace", "path": "/final_output", "value": 2},
    )
    without_list = [p.ops for p in run_log_patches(s.effects, with_streamed_output_list=False)]
    assert without_list[1:] == [(), ({"op": "replace", "path": "/final_output", "value": 2},)]


def test_json_form_of_secrets_in_events_is_redacted() -> None:
    class Secret:
        def __repr__(self) -> str:
            return "Secret('hunter2')"

    assert to_jsonable({"key": Secret()}) == {"key": "**********"}
