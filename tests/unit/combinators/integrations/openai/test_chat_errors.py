"""Server failures become typed errors that retries and fallbacks can target."""

from __future__ import annotations

import pickle
import socket
from typing import Any

import cloudpickle  # type: ignore[import-untyped]
import openai
import pytest

from combinators import RunnableLambda
from combinators.integrations.openai.chat import ChatOpenAI
from combinators.components.models.errors import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelBadRequestError,
    ModelConnectionError,
    ModelNotFoundError,
    ModelRateLimitError,
    ModelServerError,
    ModelTimeoutError,
    TransientModelError,
)
from combinators.retry_policy import RetryPolicy
from effects.errors import CombinatorsError
from tests.unit.combinators.integrations.openai.conftest import KEY
from tests.unit.combinators.integrations.openai.fake_server import (
    FakeOpenAIServer,
    JsonReply,
    Recorded,
    completion,
    error_body,
)


def _not_found(request: Recorded) -> JsonReply:
    model = request.body["model"]
    if model == "gpt-nope":
        message = f"The model `{model}` does not exist or you do not have access to it."
        return JsonReply(error_body(message, code="model_not_found"), status=404)
    return JsonReply(completion(f"answer from {model}", model=model))


@pytest.mark.parametrize(
    ("status", "kind", "builtin", "sdk"),
    [
        (400, ModelBadRequestError, ValueError, openai.BadRequestError),
        (401, ModelAuthenticationError, PermissionError, openai.AuthenticationError),
        (403, ModelAuthenticationError, PermissionError, openai.PermissionDeniedError),
        (404, ModelNotFoundError, LookupError, openai.NotFoundError),
        (409, ModelBadRequestError, ValueError, openai.ConflictError),
        (413, ModelBadRequestError, ValueError, openai.APIStatusError),
        (422, ModelBadRequestError, ValueError, openai.UnprocessableEntityError),
        (429, ModelRateLimitError, TransientModelError, openai.RateLimitError),
        (500, ModelServerError, TransientModelError, openai.InternalServerError),
        (503, ModelServerError, TransientModelError, openai.InternalServerError),
        (504, ModelTimeoutError, TimeoutError, openai.InternalServerError),
        (418, ModelAPIError, CombinatorsError, openai.APIStatusError),
    ],
)
def test_statuses_become_typed_errors(
    server: FakeOpenAIServer,
    model: ChatOpenAI,
    status: int,
    kind: type[Exception],
    builtin: type[Exception],
    sdk: type[Exception],
) -> None:
    server.script(
        JsonReply(
            error_body(f"failed with {status}", code="some_code"), status=status, headers={"x-request-id": "req_9"}
        )
    )
    with pytest.raises(kind) as caught:
        model.invoke("hi")
    error = caught.value
    assert isinstance(error, ModelAPIError) and error.public_type == kind.__name__
    assert isinstance(error, builtin) and isinstance(error, CombinatorsError)
    assert isinstance(error, sdk)  # an `except openai.XError` written for the SDK catches it
    assert (error.status, error.model, error.base_url) == (status, "fake-model", server.url)
    assert (error.code, error.request_id) == ("some_code", "req_9")
    # The message names the provider and the status; what the server said stays off it.
    assert str(error).startswith("openai ") and str(status) in str(error)
    assert "failed with" not in str(error) and server.url not in str(error)
    assert error.detail == f"failed with {status}"
    assert error.__cause__ is not None  # the openai client's own error is kept


async def test_async_errors_are_typed_too(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(error_body("no such model"), status=404))
    with pytest.raises(openai.NotFoundError) as caught:
        await model.ainvoke("hi")
    assert isinstance(caught.value, ModelNotFoundError) and caught.value.detail == "no such model"


def test_unknown_model_in_a_batch_shows_the_404_in_its_slot(server: FakeOpenAIServer) -> None:
    server.responder = _not_found

    def ask(pair: tuple[str, str]) -> str:
        chat = ChatOpenAI(model=pair[0], base_url=server.url, api_key=KEY, max_retries=0, timeout=5.0)
        return chat.invoke(pair[1]).text

    results = RunnableLambda(ask).batch(
        [("fake-model", "a"), ("gpt-nope", "b"), ("other-model", "c")], return_exceptions=True
    )

    assert results[0] == "answer from fake-model"
    assert results[2] == "answer from other-model"
    error = results[1]
    assert isinstance(error, ModelNotFoundError)
    assert (error.status, error.model, error.code) == (404, "gpt-nope", "model_not_found")
    assert error.detail is not None and "does not exist" in error.detail
    assert "base_url" in str(error) and "does not exist" not in str(error)


def test_batch_of_a_bad_model_returns_errors_in_every_slot(server: FakeOpenAIServer) -> None:
    server.responder = _not_found
    bad = ChatOpenAI(model="gpt-nope", base_url=server.url, api_key=KEY, max_retries=0)
    results = bad.batch(["a", "b"], return_exceptions=True)
    assert [type(r).__name__ for r in results] == ["OpenAINotFoundError", "OpenAINotFoundError"]
    assert all(isinstance(r, ModelNotFoundError) for r in results)


def test_fallback_on_unknown_model(server: FakeOpenAIServer) -> None:
    server.responder = _not_found
    bad = ChatOpenAI(model="gpt-nope", base_url=server.url, api_key=KEY, max_retries=0)
    good = ChatOpenAI(model="fake-model", base_url=server.url, api_key=KEY, max_retries=0)
    chain = bad.with_fallbacks([good], exceptions_to_handle=(ModelNotFoundError,))
    assert chain.invoke("hi").text == "answer from fake-model"


def test_with_retry_targets_transient_errors(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(
        JsonReply(error_body("slow down"), status=429),
        JsonReply(error_body("oops", type_="server_error"), status=500),
        JsonReply(completion("third time")),
    )
    policy = RetryPolicy(max_attempts=3, retry_on=(TransientModelError,))
    assert model.with_retry(policy).invoke("hi").text == "third time"
    assert len(server.requests) == 3


def test_with_retry_does_not_retry_what_it_does_not_target(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(error_body("bad key"), status=401), JsonReply(completion("never")))
    policy = RetryPolicy(max_attempts=3, retry_on=(TransientModelError,))
    with pytest.raises(ModelAuthenticationError):
        model.with_retry(policy).invoke("hi")
    assert len(server.requests) == 1


def test_the_clients_own_retries_honour_retry_after(server: FakeOpenAIServer) -> None:
    model = ChatOpenAI(model="fake-model", base_url=server.url, api_key=KEY, max_retries=2, timeout=5.0)
    fast = {"retry-after-ms": "1"}
    server.script(
        JsonReply(error_body("busy"), status=503, headers=fast),
        JsonReply(error_body("busy"), status=503, headers=fast),
        JsonReply(completion("finally")),
    )
    assert model.invoke("hi").text == "finally"
    assert len(server.requests) == 3


def test_missing_key_hint_on_401(server: FakeOpenAIServer) -> None:
    model = ChatOpenAI(model="fake-model", base_url=server.url, max_retries=0)
    server.script(JsonReply(error_body("Incorrect API key provided: EMPTY"), status=401))
    with pytest.raises(ModelAuthenticationError, match="OPENAI_API_KEY"):
        model.invoke("hi")
    assert server.requests[0].headers["authorization"] == "Bearer EMPTY"


def test_ollama_style_error_bodies(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply({"error": "model 'llama9' not found"}, status=404))
    with pytest.raises(ModelNotFoundError) as caught:
        model.invoke("hi")
    assert caught.value.detail == "model 'llama9' not found"


def test_html_error_pages(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply("<html>Bad Gateway</html>", status=502))
    with pytest.raises(ModelServerError, match="502"):
        model.invoke("hi")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_unreachable_server() -> None:
    model = ChatOpenAI(
        model="m", base_url=f"http://127.0.0.1:{_free_port()}/v1", api_key=KEY, max_retries=0, timeout=2.0
    )
    with pytest.raises(ModelConnectionError) as caught:
        model.invoke("hi")
    assert isinstance(caught.value, ConnectionError) and caught.value.status is None
    assert str(caught.value) == "openai could not be reached"
    assert isinstance(caught.value, openai.APIConnectionError)


async def test_unreachable_server_async() -> None:
    model = ChatOpenAI(
        model="m", base_url=f"http://127.0.0.1:{_free_port()}/v1", api_key=KEY, max_retries=0, timeout=2.0
    )
    with pytest.raises(ModelConnectionError):
        await model.ainvoke("hi")


def test_timeout(server: FakeOpenAIServer) -> None:
    model = ChatOpenAI(model="fake-model", base_url=server.url, api_key=KEY, max_retries=0, timeout=0.2)
    server.script(JsonReply(completion("late"), delay=1.0))
    with pytest.raises(ModelTimeoutError) as caught:
        model.invoke("hi")
    assert isinstance(caught.value, TimeoutError) and isinstance(caught.value, openai.APITimeoutError)


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
def test_errors_pickle_with_their_fields(dumps: object) -> None:
    error = ModelNotFoundError(
        "404 from x", status=404, model="gpt-nope", base_url="http://b/v1", code="c", request_id="r", body={"m": 1}
    )
    copy = pickle.loads(dumps(error))  # type: ignore[operator]
    assert type(copy) is ModelNotFoundError
    assert (copy.detail, copy.status, copy.model, copy.base_url, copy.code, copy.request_id, copy.body) == (
        "404 from x",
        404,
        "gpt-nope",
        "http://b/v1",
        "c",
        "r",
        {"m": 1},
    )
    timeout = pickle.loads(pickle.dumps(ModelTimeoutError("slow", model="m")))
    assert isinstance(timeout, ModelTimeoutError) and isinstance(timeout, TimeoutError)
    assert timeout.model == "m"


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
@pytest.mark.parametrize(
    ("status", "sdk", "ours"),
    [
        (404, openai.NotFoundError, ModelNotFoundError),
        (429, openai.RateLimitError, ModelRateLimitError),
        (500, openai.InternalServerError, ModelServerError),
        (401, openai.AuthenticationError, ModelAuthenticationError),
    ],
)
def test_sdk_twins_are_caught_by_sdk_except_clauses_and_pickle(
    server: FakeOpenAIServer, model: ChatOpenAI, dumps: Any, status: int, sdk: type[Exception], ours: type[Exception]
) -> None:
    server.script(JsonReply(error_body("nope", code="c"), status=status, headers={"retry-after": "3"}))
    try:
        model.invoke("hi")
    except sdk as caught:  # an `except` clause written for the openai package keeps working
        error = caught
    assert isinstance(error, ours) and isinstance(error, ModelAPIError)
    assert error.status_code == status and error.body == {
        "message": "nope",
        "type": "invalid_request_error",
        "param": None,
        "code": "c",
    }
    copy = pickle.loads(dumps(error))
    assert type(copy) is type(error) and isinstance(copy, sdk) and isinstance(copy, ours)
    assert (str(copy), copy.status, copy.status_code, copy.detail, copy.model, copy.retry_after) == (
        str(error),
        status,
        status,
        "nope",
        "fake-model",
        3.0,
    )
    assert copy.response is None  # the HTTP response does not travel


def test_timeouts_and_unreachable_servers_are_the_sdks_classes_too(server: FakeOpenAIServer) -> None:
    slow = ChatOpenAI(model="fake-model", base_url=server.url, api_key=KEY, max_retries=0, timeout=0.2)
    server.script(JsonReply(completion("late"), delay=1.0))
    with pytest.raises(openai.APITimeoutError) as caught:
        slow.invoke("hi")
    assert isinstance(caught.value, ModelTimeoutError)
    copy = pickle.loads(cloudpickle.dumps(caught.value))
    assert isinstance(copy, openai.APITimeoutError) and isinstance(copy, ModelTimeoutError)
