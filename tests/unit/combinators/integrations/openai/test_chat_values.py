"""``ChatOpenAI`` as a value: equality, repr, pickling, secrets, settings, concurrency."""

from __future__ import annotations

import asyncio
import pickle
import sys
from typing import Any

import cloudpickle  # type: ignore[import-untyped]
import pytest

from combinators.integrations.openai.chat import ChatOpenAI
from combinators.integrations.openai.embeddings import OpenAIEmbeddings
from combinators.components.secrets import Secret
from tests.unit.combinators.integrations.openai.conftest import KEY
from tests.unit.combinators.integrations.openai.fake_server import (
    FakeOpenAIServer,
    JsonReply,
    Recorded,
    SseReply,
    completion,
    text_stream,
)


def test_equal_settings_make_equal_values() -> None:
    one = ChatOpenAI(model="m", api_key="k", extra_body={"seed": 1})
    two = ChatOpenAI(model="m", api_key=Secret("k"), extra_body={"seed": 1})
    assert one == two and hash(one) == hash(two)
    assert one != ChatOpenAI(model="m", api_key="other", extra_body={"seed": 1})
    assert one != ChatOpenAI(model="m", api_key="k", extra_body={"seed": 2})


def test_repr_reads_like_the_call_and_hides_the_key() -> None:
    model = ChatOpenAI(model="m", api_key="sk-very-secret", temperature=0.0, stop="\n")
    assert repr(model) == "ChatOpenAI(model='m', api_key=Secret('**********'), temperature=0.0, stop=('\\n',))"
    assert "sk-very-secret" not in repr(model.bind_tools([{"name": "f"}]))
    assert repr(ChatOpenAI()) == "ChatOpenAI()"


def test_values_are_frozen() -> None:
    import attrs

    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ChatOpenAI().model = "x"  # type: ignore[misc]


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
def test_pickled_models_are_equal_and_work(server: FakeOpenAIServer, model: ChatOpenAI, dumps: Any) -> None:
    server.script(JsonReply(completion("before")), JsonReply(completion("after")))
    assert model.invoke("x").text == "before"  # builds and caches a client
    copy = pickle.loads(dumps(model))
    assert copy == model
    assert copy.invoke("x").text == "after"
    assert server.requests[1].headers["authorization"] == f"Bearer {KEY}"


def test_invalid_settings() -> None:
    with pytest.raises(ValueError, match="max_retries"):
        ChatOpenAI(max_retries=-1)
    with pytest.raises(ValueError, match="timeout"):
        ChatOpenAI(timeout=0)
    with pytest.raises(TypeError, match="api_key"):
        ChatOpenAI(api_key=123)  # type: ignore[arg-type]


def test_key_comes_from_the_environment_only_when_not_given(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    server.script(JsonReply(completion("a")), JsonReply(completion("b")))
    ChatOpenAI(base_url=server.url, max_retries=0).invoke("x")
    ChatOpenAI(base_url=server.url, api_key="sk-given", max_retries=0).invoke("x")
    assert [r.headers["authorization"] for r in server.requests] == ["Bearer sk-from-env", "Bearer sk-given"]


def test_base_url_comes_from_the_environment_when_not_given(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    server.script(JsonReply(completion("via env")))
    model = ChatOpenAI(model="fake-model", max_retries=0)
    assert model.resolved_base_url == server.url
    assert model.invoke("x").text == "via env"


async def test_the_key_never_shows_in_events(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(text_stream(["hi"])), SseReply(text_stream(["again"])))
    events = [e async for e in model.astream_events("x", version="v2")]
    assert KEY not in repr(events)
    log = [patch async for patch in ChatOpenAI(base_url=server.url, api_key=KEY, max_retries=0).astream_log("x")]
    assert KEY not in repr(log)


def _slow(request: Recorded) -> JsonReply:
    return JsonReply(completion("done"), delay=0.15)


def test_batch_honours_max_concurrency(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.responder = _slow
    results = model.batch([f"q{n}" for n in range(6)], config={"max_concurrency": 2})
    assert [r.text for r in results] == ["done"] * 6
    assert server.max_in_flight == 2


async def test_abatch_honours_max_concurrency(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.responder = _slow
    results = await model.abatch([f"q{n}" for n in range(6)], config={"max_concurrency": 3})
    assert len(results) == 6
    assert server.max_in_flight == 3


def test_batch_runs_concurrently_without_a_limit(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.responder = _slow
    model.batch(["a", "b", "c"])
    assert server.max_in_flight >= 2


def test_async_clients_follow_the_event_loop(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    # Each asyncio.run makes a new loop; a client whose connections belong to a closed
    # loop must not be reused.
    server.script(JsonReply(completion("one")), JsonReply(completion("two")))
    assert asyncio.run(model.ainvoke("x")).text == "one"
    assert asyncio.run(model.ainvoke("x")).text == "two"


def test_a_clear_error_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(ImportError, match=r"pip install 'lcel-combinators\[openai\]'"):
        ChatOpenAI(base_url="http://127.0.0.1:9/v1", api_key="k").invoke("x")
    with pytest.raises(ImportError, match=r"pip install 'lcel-combinators\[openai\]'"):
        OpenAIEmbeddings(base_url="http://127.0.0.1:9/v1", api_key="k").embed_query("x")


def test_building_does_not_import_or_connect() -> None:
    model = ChatOpenAI(base_url="http://127.0.0.1:9/v1")
    assert model.bind_tools([{"name": "f"}]) is not None
    assert model.with_structured_output({"title": "T", "type": "object"}) is not None


def test_clients_of_closed_loops_are_dropped(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.responder = lambda request: JsonReply(completion("ok"))
    for _ in range(4):
        asyncio.run(model.ainvoke("x"))
    cache = model._clients  # pyright: ignore[reportPrivateUsage]
    assert len(cache._async) == 1  # pyright: ignore[reportPrivateUsage]
