"""Secrets from the environment never go to an address that came from data.

Every component that reads the environment (``ChatOpenAI`` and ``OpenAIEmbeddings``
through the ``openai`` client, ``AmazonKendraRetriever`` through boto3's credential
chain) is run against a local server on 127.0.0.1 that records what it receives, with
canary values in every variable those libraries read. A value built in code may use the
environment (the code chose the address); a value built by ``loads`` never does, whatever
its payload says.
"""

from __future__ import annotations

import json
import secrets as random_tokens
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("openai")

from combinators.load import MalformedDataError, dumps, loads
from combinators.secrets import MissingSecretError, Secret
from combinators.integrations.openai.chat import ChatOpenAI
from combinators.integrations.openai.embeddings import OpenAIEmbeddings
from combinators import RunnableBinding
from combinators import RunConfig
from tests.unit.combinators.integrations.openai.fake_server import (
    FakeOpenAIServer,
    JsonReply,
    Recorded,
    SseReply,
    completion,
    embedding_response,
    text_stream,
)

OPENAI_VARIABLES = (
    "OPENAI_API_KEY",
    "OPENAI_ADMIN_KEY",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "OPENAI_WEBHOOK_SECRET",
    "OPENAI_CUSTOM_HEADERS",
)


@pytest.fixture
def canaries(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = {name: f"canary-{name.lower()}-{random_tokens.token_hex(8)}" for name in OPENAI_VARIABLES}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    # The openai client sends these headers with every request, even an Authorization.
    token = values["OPENAI_CUSTOM_HEADERS"]
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", f"X-Team-Token: {token}\nAuthorization: Bearer {token}")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    return values


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as running:
        yield running


def _reply(request: Recorded) -> JsonReply | SseReply:
    if request.path.endswith("/embeddings"):
        return JsonReply(embedding_response([[1.0, 0.0]] * len(request.body["input"])))
    if request.body.get("stream"):
        return SseReply(text_stream(["fine"]))
    return JsonReply(completion("fine"))


def _seen(server: FakeOpenAIServer) -> str:
    return json.dumps([[r.path, dict(r.headers), r.body] for r in server.requests])


def _leaks(server: FakeOpenAIServer, canaries: dict[str, str]) -> list[str]:
    seen = _seen(server)
    return [name for name, value in canaries.items() if value in seen]


def _use_chat(model: Any) -> None:
    assert model.invoke("hi").content == "fine"
    assert "".join(str(chunk.content) for chunk in model.stream("hi")) == "fine"

    async def both() -> None:
        assert (await model.ainvoke("hi")).content == "fine"
        assert "".join([str(chunk.content) async for chunk in model.astream("hi")]) == "fine"

    import asyncio

    asyncio.run(both())


def test_a_loaded_chat_model_sends_no_environment_secret(server: FakeOpenAIServer, canaries: dict[str, str]) -> None:
    server.responder = _reply
    payload = dumps(ChatOpenAI(model="m", base_url=server.url, max_retries=0, timeout=5.0))
    model = loads(payload, allowed=[ChatOpenAI])
    assert isinstance(model, ChatOpenAI)

    _use_chat(model)

    assert len(server.requests) == 4
    assert _leaks(server, canaries) == []
    assert {r.headers["authorization"] for r in server.requests} == {"Bearer EMPTY"}


def test_a_loaded_embeddings_model_sends_no_environment_secret(
    server: FakeOpenAIServer, canaries: dict[str, str]
) -> None:
    server.responder = _reply
    payload = dumps(OpenAIEmbeddings(model="e", base_url=server.url, max_retries=0, timeout=5.0))
    embeddings = loads(payload, allowed=[OpenAIEmbeddings])
    assert isinstance(embeddings, OpenAIEmbeddings)

    assert embeddings.embed_query("fog") == [1.0, 0.0]

    import asyncio

    assert asyncio.run(embeddings.aembed_documents(["a", "b"])) == [[1.0, 0.0], [1.0, 0.0]]
    assert len(server.requests) == 2
    assert _leaks(server, canaries) == []


def test_a_model_nested_in_a_loaded_value_sends_no_environment_secret(
    server: FakeOpenAIServer, canaries: dict[str, str]
) -> None:
    server.responder = _reply
    bound = ChatOpenAI(model="m", base_url=server.url, max_retries=0).with_kwargs(stop=["."])
    loaded = loads(dumps(bound), allowed=[ChatOpenAI, RunnableBinding, RunConfig])
    assert isinstance(loaded, RunnableBinding)
    assert loaded.invoke("hi").content == "fine"
    assert server.requests[0].body["stop"] == ["."]
    assert _leaks(server, canaries) == []


def test_a_model_built_in_code_may_use_the_environment(server: FakeOpenAIServer, canaries: dict[str, str]) -> None:
    # The positive control: the code chose the address, so the environment's key goes there.
    server.responder = _reply
    model = ChatOpenAI(model="m", base_url=server.url, max_retries=0, timeout=5.0)
    assert model.invoke("hi").content == "fine"
    assert {"OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_CUSTOM_HEADERS"} <= set(_leaks(server, canaries))
    assert "x-team-token" in server.requests[0].headers


def test_a_loaded_model_uses_the_key_given_to_loads(server: FakeOpenAIServer, canaries: dict[str, str]) -> None:
    server.responder = _reply
    payload = dumps(ChatOpenAI(model="m", base_url=server.url, api_key="sk-original", max_retries=0))
    assert "sk-original" not in payload
    model = loads(payload, allowed=[ChatOpenAI], secrets={"api_key": Secret("sk-supplied")})
    assert isinstance(model, ChatOpenAI)
    assert model.invoke("hi").content == "fine"
    assert server.requests[0].headers["authorization"] == "Bearer sk-supplied"
    assert _leaks(server, canaries) == []


def test_a_payload_cannot_ask_for_the_environment(server: FakeOpenAIServer, canaries: dict[str, str]) -> None:
    data = json.loads(dumps(ChatOpenAI(model="m", base_url=server.url)))
    data["kwargs"]["secrets_from_env"] = True
    with pytest.raises(MalformedDataError, match="secrets_from_env"):
        loads(json.dumps(data), allowed=[ChatOpenAI])
    assert server.requests == []


def test_the_flag_is_not_written_and_reads_as_code() -> None:
    loaded = loads(dumps(ChatOpenAI(model="m")), allowed=[ChatOpenAI])
    assert "secrets_from_env" not in dumps(ChatOpenAI(model="m"))
    assert repr(loaded) == "ChatOpenAI(model='m', secrets_from_env=False)"
    assert loaded != ChatOpenAI(model="m")
    assert loaded == ChatOpenAI(model="m", secrets_from_env=False)


def test_a_loaded_model_without_a_key_says_why_openai_refuses_it(canaries: dict[str, str]) -> None:
    loaded = loads(dumps(ChatOpenAI(model="m")), allowed=[ChatOpenAI])
    assert isinstance(loaded, ChatOpenAI)
    hint = loaded._api_key().hint  # pyright: ignore[reportPrivateUsage]
    assert "loads" in hint and "secrets=" in hint


# -- AWS: boto3's credential chain ---------------------------------------------------------


class _Recorder(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen: list[str]

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        type(self).seen.append(json.dumps([self.path, dict(self.headers.items()), body]))
        data = json.dumps({"ResultItems": [], "TotalNumberOfResults": 0}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/x-amz-json-1.1")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def aws_recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[list[str], dict[str, str]]]:
    pytest.importorskip("boto3")
    from combinators.integrations.aws.kendra import kendra_client

    seen: list[str] = []
    handler = type("Recorder", (_Recorder,), {"seen": seen})
    http = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=http.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    host, port = http.server_address[:2]
    canaries = {
        "AWS_ACCESS_KEY_ID": "AKIACANARY" + random_tokens.token_hex(5).upper(),
        "AWS_SECRET_ACCESS_KEY": "canary-secret-" + random_tokens.token_hex(8),
        "AWS_SESSION_TOKEN": "canary-token-" + random_tokens.token_hex(8),
    }
    for name, value in canaries.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_ENDPOINT_URL_KENDRA", f"http://{host!s}:{port}")
    kendra_client.cache_clear()
    try:
        yield seen, canaries
    finally:
        kendra_client.cache_clear()
        http.shutdown()
        http.server_close()
        thread.join(5)


INDEX = "0123abcd-0123-abcd-0123-0123456789ab"


def test_a_kendra_retriever_built_in_code_uses_the_credential_chain(
    aws_recorder: tuple[list[str], dict[str, str]],
) -> None:
    # The positive control: the recording server does receive the chain's key id.
    from combinators.integrations.aws.kendra import AmazonKendraRetriever

    seen, canaries = aws_recorder
    retriever = AmazonKendraRetriever(index_id=INDEX, region_name="us-east-1")
    assert retriever.invoke("fog") == []
    assert seen and canaries["AWS_ACCESS_KEY_ID"] in seen[0]


def test_a_loaded_kendra_retriever_never_reads_the_credential_chain(
    aws_recorder: tuple[list[str], dict[str, str]],
) -> None:
    from combinators.integrations.aws.kendra import AmazonKendraRetriever

    seen, canaries = aws_recorder
    payload = dumps(AmazonKendraRetriever(index_id=INDEX, region_name="us-east-1"))
    loaded = loads(payload, allowed=[AmazonKendraRetriever])
    assert isinstance(loaded, AmazonKendraRetriever)
    with pytest.raises(MissingSecretError, match="built by loads"):
        loaded.invoke("fog")
    assert seen == []
    assert not any(value in line for line in seen for value in canaries.values())
