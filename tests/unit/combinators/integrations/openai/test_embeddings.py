"""``OpenAIEmbeddings`` against the fake server, and in the vector store."""

from __future__ import annotations

import pickle

import pytest

from combinators.components.retrieval.documents import Document
from combinators.integrations.openai.embeddings import OpenAIEmbeddings
from combinators.components.models.errors import ModelNotFoundError, ModelResponseError
from combinators.components.retrieval.vectorstore import InMemoryVectorStore
from tests.unit.combinators.integrations.openai.conftest import KEY
from tests.unit.combinators.integrations.openai.fake_server import (
    FakeOpenAIServer,
    JsonReply,
    Recorded,
    embedding_response,
    error_body,
)

VOCABULARY = ("fog", "lamp", "ship")


def _one_hot(request: Recorded) -> JsonReply:
    # A vector per text: which vocabulary words it contains. Sent in reverse order, to
    # check that vectors are put back in input order.
    texts = request.body["input"]
    vectors = [[1.0 if word in text else 0.0 for word in VOCABULARY] for text in texts]
    return JsonReply(embedding_response(vectors, order=list(reversed(range(len(texts))))))


def test_embed_documents_in_chunks_and_in_order(server: FakeOpenAIServer) -> None:
    server.responder = _one_hot
    embeddings = OpenAIEmbeddings(
        model="fake-embed", base_url=server.url, api_key=KEY, chunk_size=2, dimensions=3, max_retries=0
    )

    vectors = embeddings.embed_documents(["fog", "lamp", "ship", "fog ship", "nothing"])

    assert vectors == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    assert [r.body["input"] for r in server.requests] == [["fog", "lamp"], ["ship", "fog ship"], ["nothing"]]
    first = server.requests[0]
    assert first.path == "/v1/embeddings"
    assert first.headers["authorization"] == f"Bearer {KEY}"
    assert first.body["model"] == "fake-embed"
    assert first.body["encoding_format"] == "float"
    assert first.body["dimensions"] == 3


def test_embed_query(server: FakeOpenAIServer, embeddings: OpenAIEmbeddings) -> None:
    server.responder = _one_hot
    assert embeddings.embed_query("a lamp") == [0.0, 1.0, 0.0]
    assert embeddings.embed_documents([]) == []
    assert len(server.requests) == 1


async def test_async(server: FakeOpenAIServer, embeddings: OpenAIEmbeddings) -> None:
    server.responder = _one_hot
    assert await embeddings.aembed_documents(["ship", "fog"]) == [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    assert await embeddings.aembed_query("fog") == [1.0, 0.0, 0.0]


def test_in_the_vector_store(server: FakeOpenAIServer, embeddings: OpenAIEmbeddings) -> None:
    server.responder = _one_hot
    store = InMemoryVectorStore(embeddings).add_documents(
        [Document("the fog rolls in", id="f"), Document("the lamp is lit", id="l"), Document("a ship", id="s")]
    )
    assert [d.id for d in store.similarity_search("where is the lamp?", k=1)] == ["l"]


def test_errors_are_typed(server: FakeOpenAIServer, embeddings: OpenAIEmbeddings) -> None:
    server.script(JsonReply(error_body("no such model", code="model_not_found"), status=404))
    with pytest.raises(ModelNotFoundError) as caught:
        embeddings.embed_query("x")
    assert (caught.value.status, caught.value.model) == (404, "fake-embed")


async def test_async_errors_are_typed(server: FakeOpenAIServer, embeddings: OpenAIEmbeddings) -> None:
    server.script(JsonReply(error_body("no such model"), status=404))
    with pytest.raises(ModelNotFoundError):
        await embeddings.aembed_documents(["x"])


def test_a_short_answer_is_an_error(server: FakeOpenAIServer, embeddings: OpenAIEmbeddings) -> None:
    server.script(JsonReply(embedding_response([[1.0]])))
    with pytest.raises(ModelResponseError, match="1 vectors for 2 texts"):
        embeddings.embed_documents(["a", "b"])


def test_values(embeddings: OpenAIEmbeddings) -> None:
    assert pickle.loads(pickle.dumps(embeddings)) == embeddings
    assert "sk-test" not in repr(embeddings)
    with pytest.raises(ValueError, match="chunk_size"):
        OpenAIEmbeddings(chunk_size=0)
    with pytest.raises(TypeError, match="single str"):
        embeddings.embed_documents("text")
