"""The serving package's surface and its pure parts: exports, values, the wire form, events back to effects."""

from __future__ import annotations

import inspect
import json
import pickle
import subprocess
import sys
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import combinators.integrations.serving as serving
from combinators import RunnableLambda
from combinators._support.langchain_types import WIRE_TAGS
from combinators.documents import Document
from combinators.messages import AIMessage, AIMessageChunk, HumanMessage, ToolCall, ToolCallChunk
from combinators.integrations.serving import ErrorInfo, from_wire, to_wire
from combinators.integrations.serving.remote_errors import (
    RemoteAuthError,
    RemoteRunnableError,
    RemoteInputError,
    RemoteRateLimited,
    RemoteTimeout,
    RemoteUnavailable,
    remote_error,
)
from combinators.integrations.serving.remote_events import ServerEvents
from effects.projections import stream_events_v2, to_jsonable
from effects.effect_values import Effect
from tests.unit.effects.projections.strategies import effect_trees


def test_all_equals_the_public_names() -> None:
    public = {n for n, v in vars(serving).items() if not n.startswith("_") and not inspect.ismodule(v)}
    assert set(serving.__all__) == public - {"annotations"}


@pytest.mark.parametrize("name", serving.__all__)
def test_every_public_name_has_an_example(name: str) -> None:
    value = getattr(serving, name)
    if inspect.isclass(value) or inspect.isfunction(value):
        home = inspect.getmodule(value)
        assert ">>>" in (inspect.getdoc(value) or "") or (
            home and ">>>" in (home.__doc__ or "") and name in (home.__doc__ or "")
        )


def test_value_classes_are_final_and_frozen() -> None:
    for cls in (serving.RemoteRunnable, serving.ErrorInfo):
        assert getattr(cls, "__final__", False) and attrs.has(cls)


def test_importing_combinators_does_not_load_the_server() -> None:
    code = "import combinators, combinators.components, sys; print([m for m in ('starlette', 'httpx', 'uvicorn') if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_builtin_function_has_an_open_input_schema() -> None:
    assert RunnableLambda(str).input_schema() == {"title": "str_input"}


json_data = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["type", "content", "__combinators__", "kwargs", "id", "x"]), inner, max_size=4
        )
    ),
    max_leaves=12,
)


def _tagged(value: Any) -> bool:
    """Whether a dict in ``value`` has a ``type`` tag of LangServe's wire (read back as that class)."""
    if isinstance(value, list):
        return any(_tagged(item) for item in value)
    if isinstance(value, dict):
        tag = value.get("type")
        return (isinstance(tag, str) and tag in WIRE_TAGS) or any(_tagged(item) for item in value.values())
    return False


@given(json_data)
def test_json_data_without_a_wire_tag_crosses_the_wire_unchanged(value: Any) -> None:
    assume(not _tagged(value))
    wire = to_wire(value)
    assert json.loads(json.dumps(wire)) == wire
    assert from_wire(json.loads(json.dumps(wire))) == value


@given(st.text(), st.sampled_from([None, "m1"]))
def test_library_values_cross_the_wire_in_langserves_form(text: str, message_id: str | None) -> None:
    values = [
        HumanMessage(text, id=message_id),
        AIMessage(text, tool_calls=(ToolCall(name="f", args={"a": text}, id="c1"),)),
        AIMessageChunk(text, tool_call_chunks=(ToolCallChunk("f", '{"a": 1', "c1", 0),)),
        Document(text, metadata={"source": text}),
    ]
    wire = json.loads(json.dumps(to_wire({"values": values})))
    assert [item["type"] for item in wire["values"]] == ["human", "ai", "AIMessageChunk", "Document"]
    assert from_wire(wire) == {"values": values}


def test_values_without_a_way_back_travel_in_their_reading_form() -> None:
    wire = to_wire({"error": KeyError("k"), "n": float("nan"), "t": (1, 2)})
    error = {"type": "error", "error_type": "KeyError", "message": "Internal Server Error"}  # the error map's message
    assert wire == {"error": error, "n": "NaN", "t": [1, 2]}


@given(
    st.integers(400, 599),
    st.text(max_size=8),
    st.text(max_size=20),
    st.booleans(),
    st.none() | st.floats(0, 100),
)
def test_error_info_round_trips_through_json(
    status: int, kind: str, message: str, retryable: bool, after: float | None
) -> None:
    info = ErrorInfo(status, kind, message, retryable, after)
    assert ErrorInfo.from_json(json.loads(json.dumps(info.to_json()))) == attrs.evolve(
        info, retryable=retryable or status in (429, 503)
    )


@pytest.mark.parametrize(
    ("status", "cls", "builtin"),
    [
        (422, RemoteInputError, ValueError),
        (413, RemoteInputError, ValueError),
        (401, RemoteAuthError, PermissionError),
        (429, RemoteRateLimited, Exception),
        (503, RemoteUnavailable, Exception),
        (504, RemoteTimeout, TimeoutError),
        (500, RemoteUnavailable, Exception),  # 5xx may pass: the family's one mapping
        (404, RemoteRunnableError, Exception),
    ],
)
def test_remote_errors_are_typed_and_pickle(
    status: int, cls: type[RemoteRunnableError], builtin: type[Exception]
) -> None:
    error = remote_error(ErrorInfo(status, "T", "m", status in (429, 503)), "http://h/x")
    assert type(error) is cls and isinstance(error, builtin)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cls and copy.info == error.info and str(copy) == str(error)
    assert copy.retryable is (status in (429, 500, 503, 504)) and copy.url == "http://h/x"
    assert "http://h/x" not in str(error) and str(error).startswith(f"the remote runnable answered {status} T")


@given(effect_trees(max_depth=2))
def test_events_read_back_as_effects_give_the_same_events(effects: list[Effect]) -> None:
    events = [json.loads(json.dumps(to_wire(e))) for e in stream_events_v2(effects)]
    reader = ServerEvents("http://h/x")
    back = [effect for event in events if (effect := reader.effect(event)) is not None]

    def shown(items: list[Any]) -> list[Any]:
        out = []
        for event in items:
            event = dict(event)
            data = dict(event["data"]) if isinstance(event["data"], dict) else event["data"]
            if isinstance(data, dict):
                data.pop("error", None)  # errors come back typed, their forms differ
            event["data"] = data
            out.append(to_jsonable(event))
        return out

    assert shown(list(stream_events_v2(back))) == shown(events)
    assert {str(e.run.run_id) for e in back} == {str(e.run.run_id) for e in effects}


def test_without_the_extra_the_import_names_it() -> None:
    code = (
        "import sys; sys.modules['starlette'] = None\n"
        "try:\n    import combinators.integrations.serving\n"
        "except ImportError as error:\n    print(type(error).__name__, error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.startswith(
        "MissingExtraError combinators.integrations.serving needs the optional extra 'serving'"
    )
    assert "pip install 'lcel-combinators[serving]'" in done.stdout
