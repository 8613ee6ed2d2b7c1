"""Fixtures: a fake OpenAI-compatible server per test, and models pointed at it.

Every model here has ``max_retries=0`` (or a tiny retry delay set by the server) and a
short ``timeout``, so no test sleeps through the ``openai`` client's defaults.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("openai")

from combinators.integrations.openai.chat import ChatOpenAI
from combinators.integrations.openai.embeddings import OpenAIEmbeddings
from tests.unit.combinators.integrations.openai.fake_server import FakeOpenAIServer

KEY = "sk-test-key-123"


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as running:
        yield running


@pytest.fixture
def model(server: FakeOpenAIServer) -> ChatOpenAI:
    return ChatOpenAI(model="fake-model", base_url=server.url, api_key=KEY, max_retries=0, timeout=5.0)


@pytest.fixture
def embeddings(server: FakeOpenAIServer) -> OpenAIEmbeddings:
    return OpenAIEmbeddings(model="fake-embed", base_url=server.url, api_key=KEY, max_retries=0, timeout=5.0)
