"""An upstream 429/5xx relayed through a served chain carries its status and type, never the
provider's body, the internal base URL, keys, org ids or internal addresses: not in the
HTTP answer, not in an SSE error frame or error event, not in a ``RemoteRunnable``'s error.

The provider is the fake OpenAI server on 127.0.0.1, answering with a body that holds a
fake key, an org id and an internal URL (what the reliability probe found relayed).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("openai")
pytest.importorskip("uvicorn")

import httpx

from combinators.integrations.openai.chat import ChatOpenAI
from combinators.integrations.serving import RemoteRateLimited, RemoteRunnable, RemoteUnavailable, serve
from effects.projections import SseFrameParser
from tests.integration.serving.live import LiveServer, live
from tests.unit.combinators.integrations.openai.fake_server import FakeOpenAIServer, JsonReply, Recorded

SERVER_KEY = "sk-server-own-key-0123456789"
LEAKED_KEY = "sk-proj-FAKEfake0123456789abcdefFAKE"
ORG_ID = "org-FAKE9x8y7z6w5v"
INTERNAL_URL = "http://10.20.30.40:8443/internal/v1/chat/completions"
INTERNAL_IP = "10.20.30.40"


def _upstream_body(status: int) -> dict[str, Any]:
    message = (
        f"Rate limit reached for {ORG_ID} on key {LEAKED_KEY} (upstream {INTERNAL_URL})"
        if status == 429
        else f"internal failure at {INTERNAL_URL} for organization {ORG_ID}, key {LEAKED_KEY}"
    )
    return {"error": {"message": message, "type": "server_error", "param": None, "code": ORG_ID}}


@pytest.fixture
def upstream() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as running:
        yield running


@pytest.fixture
def served(upstream: FakeOpenAIServer) -> Iterator[LiveServer]:
    model = ChatOpenAI(model="fake-model", base_url=upstream.url, api_key=SERVER_KEY, max_retries=0, timeout=5.0)
    with live(serve({"/chat": model})) as server:
        yield server


def _fail_with(upstream: FakeOpenAIServer, status: int) -> None:
    headers = {"retry-after": "2", "x-request-id": f"req_{ORG_ID}"} if status == 429 else {}

    def reply(_request: Recorded) -> JsonReply:
        return JsonReply(_upstream_body(status), status=status, headers=headers)

    upstream.responder = reply


def _assert_clean(text: str, upstream: FakeOpenAIServer) -> None:
    for secret in (LEAKED_KEY, ORG_ID, INTERNAL_URL, INTERNAL_IP, SERVER_KEY, upstream.url, "Rate limit reached"):
        assert secret not in text, f"{secret!r} leaked in {text!r}"


EXPECTED = {429: (429, "ModelRateLimitError", True), 500: (503, "ModelServerError", True)}


@pytest.mark.parametrize("status", [429, 500])
def test_invoke_and_batch_answers_carry_status_and_type_only(
    upstream: FakeOpenAIServer, served: LiveServer, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    _fail_with(upstream, status)
    answer_status, kind, retryable = EXPECTED[status]
    with caplog.at_level(logging.WARNING, logger="combinators.serving"):
        response = httpx.post(f"{served.url}/chat/invoke", json={"input": "hi"}, timeout=10)
    assert response.status_code == answer_status
    body = response.json()
    assert (body["status_code"], body["type"], body["retryable"]) == (answer_status, kind, retryable)
    assert f"({status})" in body["message"]
    _assert_clean(response.text + json.dumps(dict(response.headers)), upstream)
    if status == 429:
        assert response.headers["retry-after"] == "2" and body["retry_after"] == 2.0
    # The details are not lost: they go to the server's log.
    assert LEAKED_KEY in caplog.text or status != 429

    batch = httpx.post(f"{served.url}/chat/batch", json={"inputs": ["a", "b"], "return_exceptions": True}, timeout=10)
    assert [e["type"] for e in batch.json()["errors"]] == [kind, kind]
    _assert_clean(batch.text, upstream)


@pytest.mark.parametrize("status", [429, 500])
@pytest.mark.parametrize("route", ["stream", "stream_log", "stream_events"])
def test_stream_error_frames_and_events_carry_status_and_type_only(
    upstream: FakeOpenAIServer, served: LiveServer, status: int, route: str
) -> None:
    _fail_with(upstream, status)
    answer_status, kind, _ = EXPECTED[status]
    parser = SseFrameParser()
    with httpx.stream("POST", f"{served.url}/chat/{route}", json={"input": "hi"}, timeout=10) as response:
        frames = [frame for chunk in response.iter_bytes() for frame in parser.feed(chunk)]
    assert frames[-1].event == "error"
    error = json.loads(frames[-1].data or "")
    assert (error["status_code"], error["type"]) == (answer_status, kind)
    if route == "stream_events":
        events = [json.loads(f.data or "") for f in frames if f.event == "data"]
        (failed,) = [e for e in events if e["event"].endswith("_error")]
        assert (failed["data"]["error"]["status_code"], failed["data"]["error"]["type"]) == (answer_status, kind)
    _assert_clean("".join(f"{f.event}{f.data}" for f in frames), upstream)


@pytest.mark.parametrize(("status", "raised"), [(429, RemoteRateLimited), (500, RemoteUnavailable)])
def test_a_remote_runnable_re_raises_from_safe_fields(
    upstream: FakeOpenAIServer, served: LiveServer, status: int, raised: type[Exception]
) -> None:
    _fail_with(upstream, status)
    answer_status, kind, _ = EXPECTED[status]
    chat = RemoteRunnable[str, Any](f"{served.url}/chat", timeout=10)
    for call in (lambda: chat.invoke("hi"), lambda: list(chat.stream("hi")), lambda: chat.batch(["hi"])):
        with pytest.raises(raised) as caught:
            call()
        error = caught.value
        assert str(error).startswith(f"the remote runnable answered {answer_status} {kind}")
        shown = f"{error!s} {error!r} {error.args}"
        _assert_clean(shown, upstream)
        assert served.url not in shown  # the remote's own address stays off the message too


def _failures() -> list[type[BaseException]]:
    from combinators import ConfigurableError, InputError, InputValueError, StepTimeout
    from combinators.components.models import errors as model_errors
    from combinators import service_errors
    from combinators.integrations.aws import kendra_errors
    from combinators.integrations.serving import remote_errors

    found: list[type[BaseException]] = [ConfigurableError, InputError, InputValueError, StepTimeout, TimeoutError]
    for family in (model_errors, remote_errors, service_errors, kendra_errors):
        found += errors_written_in(family)
    return found


def errors_written_in(module: ModuleType) -> list[type[BaseException]]:
    """The public exception classes ``module`` defines (its root, not the module, lists them)."""
    return [
        value
        for name, value in vars(module).items()
        if not name.startswith("_")
        and isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__module__ == module.__name__
    ]


TEXT = st.text(min_size=8, max_size=60).map(lambda t: f"<<{t}>>")


@given(st.sampled_from(_failures()), TEXT, st.integers(min_value=400, max_value=599))
def test_default_answers_never_carry_an_exceptions_text(cls: type[BaseException], text: str, status: int) -> None:
    from combinators import ServiceError
    from combinators.components.models.errors import ModelAPIError
    from combinators.integrations.aws.kendra_errors import KendraError
    from combinators.integrations.serving import default_error_info
    from combinators.integrations.serving.errors import ErrorInfo
    from combinators.integrations.serving.remote_errors import RemoteRunnableError

    if issubclass(cls, RemoteRunnableError):
        error: BaseException = cls(ErrorInfo(status, "T", text), f"http://{text}/x")
    elif issubclass(cls, ModelAPIError):
        error = cls(text, status=status, base_url=f"http://{text}/v1", model=text)
    elif issubclass(cls, KendraError):
        error = cls("Retrieve", "AccessDeniedException", text, status=status)
    elif issubclass(cls, ServiceError):
        error = cls(status=status, detail=text, url=f"http://{text}/")
    else:
        error = cls(text)
    answer = json.dumps(default_error_info(error).to_json())
    assert text not in answer and json.dumps(text)[1:-1] not in answer
