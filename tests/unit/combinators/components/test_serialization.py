"""Serialization: round trips, the allowlist, escaping, redacted secrets, no imports."""

from __future__ import annotations

import builtins
import importlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.messages.message_classes import (
    MESSAGE_TYPES,
    AIMessage,
    AIMessageChunk,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolCallChunk,
    ToolMessage,
    UsageMetadata,
)
from combinators.components.prompts.prompt_values import PROMPT_VALUE_TYPES, ChatPromptValue, StringPromptValue
from combinators.components.secrets import Secret
from combinators.components.serialization import (
    MARKER,
    DisallowedTypeError,
    MalformedDataError,
    dumps,
    from_data,
    loads,
    to_data,
    type_id,
)

# Data whose dicts often look like markers: the marker key, and other marker fields.
keys = st.sampled_from([MARKER, "type", "id", "kwargs", "items", "name", "a", ""])
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.sampled_from(["constructor", "escaped", "secret", MARKER])
)
json_data = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys | st.text(max_size=3), inner, max_size=5),
    max_leaves=20,
)


@given(json_data)
def test_plain_data_round_trips_even_when_it_looks_like_a_marker(data: object) -> None:
    assert loads(dumps(data), allowed=[]) == data


@given(st.dictionaries(keys, json_data, min_size=1).map(lambda d: {MARKER: 1, **d}))
def test_marker_lookalikes_stay_data(data: dict[str, object]) -> None:
    # The lookalike even names an allowed class: it must not be built.
    data["id"] = type_id(HumanMessage)
    data["type"] = "constructor"
    assert loads(dumps(data), allowed=MESSAGE_TYPES) == data


text_blocks = st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=4)})
contents = st.text(max_size=6) | st.lists(st.text(max_size=3) | text_blocks, max_size=3)
metadata = st.dictionaries(keys | st.text(max_size=3), json_data, max_size=3)
ids = st.none() | st.text(max_size=4)
messages = st.one_of(
    st.builds(SystemMessage, contents, id=ids, additional_kwargs=metadata),
    st.builds(HumanMessage, contents, id=ids, name=st.none() | st.text(max_size=3)),
    st.builds(
        AIMessage,
        contents,
        tool_calls=st.lists(st.builds(ToolCall, st.text(max_size=3), metadata, id=ids), max_size=2),
        usage_metadata=st.none() | st.builds(UsageMetadata, st.integers(0, 9), st.integers(0, 9), st.integers(0, 9)),
        response_metadata=metadata,
    ),
    st.builds(
        AIMessageChunk,
        contents,
        tool_call_chunks=st.lists(
            st.builds(
                ToolCallChunk, st.none() | st.text(max_size=2), st.text(max_size=4), ids, st.none() | st.integers(0, 3)
            ),
            max_size=2,
        ),
        chunk_position=st.none() | st.just("last"),
    ),
    st.builds(
        ToolMessage,
        contents,
        tool_call_id=st.text(max_size=3),
        status=st.sampled_from(["success", "error"]),
        artifact=json_data,
    ),
)


@given(messages)
def test_messages_round_trip(message: object) -> None:
    assert loads(dumps(message), allowed=MESSAGE_TYPES) == message


@given(st.lists(messages, max_size=3), st.text())
def test_prompt_values_round_trip(history: list[object], text: str) -> None:
    for value in (ChatPromptValue(history), StringPromptValue(text)):
        assert loads(dumps(value), allowed=PROMPT_VALUE_TYPES) == value


def test_the_constructor_marker_shape() -> None:
    assert to_data(HumanMessage("hi")) == {
        MARKER: 1,
        "type": "constructor",
        "id": "combinators.components.HumanMessage",
        "kwargs": {"content": "hi", "id": None, "name": None, "additional_kwargs": {}, "response_metadata": {}},
    }


def test_only_allowed_classes_are_built() -> None:
    text = dumps(AIMessage("x", tool_calls=[ToolCall("f", {})]))
    with pytest.raises(DisallowedTypeError, match="cannot load 'combinators.components.ToolCall'"):
        loads(text, allowed=[AIMessage])
    hostile = json.dumps({MARKER: 1, "type": "constructor", "id": "os.system", "kwargs": {"command": "echo hi"}})
    with pytest.raises(DisallowedTypeError, match="cannot load 'os.system': it is not in the allowed types") as caught:
        loads(hostile, allowed=MESSAGE_TYPES)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("allowed", [[dict], [str], "AIMessage", AIMessage])
def test_the_allowlist_holds_attrs_classes(allowed: object) -> None:
    with pytest.raises(TypeError, match="allowed"):
        loads("1", allowed=allowed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "data",
    [
        {MARKER: 2, "type": "escaped", "items": []},
        {MARKER: 1, "type": "eval", "code": "1"},
        {MARKER: 1, "type": "constructor", "id": "x"},
        {MARKER: 1, "type": "constructor", "id": 1, "kwargs": {}},
        {MARKER: 1, "type": "escaped", "items": [["a"]]},
        {MARKER: 1, "type": "secret", "name": 5},
        {MARKER: 1, "type": "secret", "name": "k", "value": "sk-1"},
    ],
)
def test_malformed_markers_are_refused(data: object) -> None:
    with pytest.raises(MalformedDataError, match="malformed"):
        from_data(data, allowed=MESSAGE_TYPES)


def test_bad_constructor_arguments_are_wrapped() -> None:
    data = {MARKER: 1, "type": "constructor", "id": type_id(ToolMessage), "kwargs": {"content": "x"}}
    with pytest.raises(MalformedDataError, match="cannot build 'combinators.components.ToolMessage'"):
        from_data(data, allowed=MESSAGE_TYPES)


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ({1: "a"}, "with a int key at the top level"),
        ({"a": [object()]}, "cannot serialize a object at /a/0"),
        ({1, 2}, "a set"),
    ],
)
def test_unserializable_values_are_named(value: object, match: str) -> None:
    with pytest.raises(MalformedDataError, match=match):
        dumps(value)


@attrs.frozen
class Credentials:
    user: str
    api_key: Secret


def test_secrets_are_written_redacted_and_must_be_supplied() -> None:
    text = dumps(Credentials("ann", Secret("sk-live-123")))
    assert "sk-live-123" not in text
    loaded = loads(text, allowed=[Credentials])
    assert isinstance(loaded, Credentials) and loaded.api_key == Secret.placeholder("api_key")
    supplied = loads(text, allowed=[Credentials], secrets={"api_key": Secret("sk-live-123")})
    assert supplied == Credentials("ann", Secret("sk-live-123"))
    assert loads(dumps(Secret("x")), allowed=[]) == Secret.placeholder(None)


@contextmanager
def tripwires() -> Iterator[None]:
    """Fail on any import or environment read while the block runs."""

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError(f"loads must not import: {args[:1]!r}")

    class NoEnvironment(dict[str, str]):
        def __getitem__(self, key: str) -> str:
            raise AssertionError(f"loads read the environment: {key}")

        def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
            raise AssertionError(f"loads read the environment: {key}")

    saved = builtins.__import__, importlib.import_module, os.environ
    importlib.import_module = refuse  # type: ignore[assignment]
    os.environ = NoEnvironment()  # type: ignore[assignment]
    builtins.__import__ = refuse  # type: ignore[assignment]
    try:
        yield
    finally:
        builtins.__import__, importlib.import_module, os.environ = saved


def test_loading_never_imports_or_reads_the_environment() -> None:
    payload = json.dumps(
        [
            {MARKER: 1, "type": "secret", "name": "OPENAI_API_KEY"},
            {MARKER: 1, "type": "escaped", "items": [[MARKER, 1]]},
            to_data(AIMessage("x", tool_calls=[ToolCall("f", {"a": 1})])),
        ]
    )
    hostile = json.dumps({MARKER: 1, "type": "constructor", "id": "subprocess.Popen", "kwargs": {}})
    refused: Exception | None = None
    # The library loads its own modules on first use (issue 33's lazy roots): one load
    # first, so the tripwires below catch only what the data could make it import.
    loads(payload, allowed=MESSAGE_TYPES)
    with tripwires():
        loaded = loads(payload, allowed=MESSAGE_TYPES)
        try:
            loads(hostile, allowed=MESSAGE_TYPES)
        except DisallowedTypeError as error:
            refused = error
    assert loaded == [
        Secret.placeholder("OPENAI_API_KEY"),
        {MARKER: 1},
        AIMessage("x", tool_calls=[ToolCall("f", {"a": 1})]),
    ]
    assert isinstance(refused, DisallowedTypeError)


def test_loads_wants_text() -> None:
    with pytest.raises(TypeError, match="loads expects str or bytes, got dict"):
        loads({}, allowed=[])  # type: ignore[arg-type]
    assert loads(b'{"a": 1}', allowed=[]) == {"a": 1}


@pytest.mark.parametrize(
    "written_as",
    [
        "combinators.components.AIMessage",  # the public name, written since ids are stable
        "combinators.components.messages.AIMessage",  # 0.1.0 wrote the module path, which is now a package
        "combinators.components.messages.message_classes.AIMessage",  # the module path today
    ],
)
def test_ids_are_public_names_and_older_module_paths_still_load(written_as: str) -> None:
    assert json.loads(dumps(AIMessage("hi")))["id"] == "combinators.components.AIMessage"
    text = json.dumps({MARKER: 1, "type": "constructor", "id": written_as, "kwargs": {"content": "hi"}})
    assert loads(text, allowed=[AIMessage]) == AIMessage("hi")


def test_a_class_no_package_exports_is_written_under_its_module_path() -> None:
    assert type_id(_Local) == f"{__name__}._Local"
    assert loads(dumps(_Local(1)), allowed=[_Local]) == _Local(1)


@attrs.frozen
class _Local:
    n: int
