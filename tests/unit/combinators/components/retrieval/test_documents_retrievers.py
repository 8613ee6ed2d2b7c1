"""Retrievers as runnables: BaseRetriever's hooks, BM25, vector store and Kendra."""

from __future__ import annotations

import asyncio
import pickle
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, cast

import attrs
import boto3
import cloudpickle  # type: ignore[import-untyped]  # cloudpickle ships no type information
import pytest
from botocore.stub import Stubber

from combinators import Runnable
from combinators.components.retrieval.bm25 import Bm25Index, Bm25Retriever
from combinators.components.retrieval.documents import BaseRetriever, Document, format_documents_as_string
from combinators.components.retrieval.embeddings import Embeddings, HashedNgramEmbeddings
from combinators.integrations.aws.kendra import AmazonKendraRetriever, KendraAccessDenied, KendraThrottled
from combinators.components.retrieval.vectorstore import InMemoryVectorStore, VectorStoreRetriever
from effects.errors import InputError

if TYPE_CHECKING:
    from mypy_boto3_kendra.client import KendraClient

cloudpickle_dumps = cast("Callable[[object], bytes]", cloudpickle.dumps)  # pyright: ignore[reportUnknownMemberType]
cloudpickle_loads = cast("Callable[[bytes], object]", cloudpickle.loads)

INDEX = "0123abcd-0123-abcd-0123-0123456789ab"
TOWN = [
    Document("The lighthouse keeper lights the lamp at dusk.", {"topic": "light"}),
    Document("The ferry to Holm sails twice a day in summer.", {"topic": "sea"}),
    Document("Fog horns sound every thirty seconds in fog.", {"topic": "light"}),
]


# --- BaseRetriever -------------------------------------------------------------------


@attrs.frozen
class Echo(BaseRetriever):
    """Sync hook only."""

    copies: int = 1

    def _get_relevant_documents(self, query: str) -> list[Document]:
        return [Document(query, {"n": n}) for n in range(self.copies)]


@attrs.frozen
class AsyncOnly(BaseRetriever):
    """Async hook only."""

    async def _aget_relevant_documents(self, query: str) -> list[Document]:
        await asyncio.sleep(0)
        return [Document(query.upper())]


def test_a_retriever_is_a_runnable_of_str_to_documents() -> None:
    retriever: Runnable[str, list[Document]] = Echo(copies=2)
    assert retriever.invoke("fog") == [Document("fog", {"n": 0}), Document("fog", {"n": 1})]
    assert retriever.batch(["a", "b"]) == [
        [Document("a", {"n": 0}), Document("a", {"n": 1})],
        [Document("b", {"n": 0}), Document("b", {"n": 1})],
    ]
    assert list(retriever.stream("fog")) == [retriever.invoke("fog")]


async def test_async_uses_the_sync_hook_by_default() -> None:
    assert await Echo().ainvoke("fog") == [Document("fog", {"n": 0})]


async def test_async_hook_is_used_when_given() -> None:
    assert await AsyncOnly().ainvoke("fog") == [Document("FOG")]
    with pytest.raises(NotImplementedError, match="AsyncOnly must implement _get_relevant_documents"):
        AsyncOnly().invoke("fog")


def test_run_type_name_and_described_input() -> None:
    retriever = Echo()
    assert retriever.run_type == "retriever"
    assert retriever.name == "Echo"
    assert retriever.describe_input("fog") == {"query": "fog"}
    assert retriever.describe_output([Document("x")]) == [Document("x")]


def test_non_str_query_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"Echo expects a str query, got int: 3") as caught:
        Echo().invoke(3)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError)


def test_run_time_keyword_arguments_are_refused_not_dropped() -> None:
    with pytest.raises(InputError, match=r"Echo takes no keyword arguments at run time, got \['k'\]"):
        Echo().invoke("fog", k=2)


def test_retriever_pipes_into_formatting() -> None:
    chain: Runnable[str, str] = Echo(copies=2) | format_documents_as_string
    assert chain.invoke("fog") == "fog\n\nfog"


# --- Bm25Retriever -------------------------------------------------------------------


def test_bm25_retriever_returns_the_k_best() -> None:
    retriever = Bm25Retriever.from_documents(TOWN, k=2)
    assert retriever.invoke("fog horns") == [TOWN[2]]
    assert retriever.invoke("the lamp") == [TOWN[0], TOWN[1]]  # no stopwords: "the" counts
    assert Bm25Retriever.from_documents(TOWN, k=1).invoke("the") == [TOWN[0]]


def test_index_as_retriever_equals_from_documents() -> None:
    assert Bm25Index.from_documents(TOWN).as_retriever(k=3) == Bm25Retriever.from_documents(TOWN, k=3)


def test_bm25_retriever_validates_k() -> None:
    with pytest.raises(ValueError, match="Bm25Retriever k must be an int >= 0, got -1"):
        Bm25Retriever.from_documents(TOWN, k=-1)


def test_bm25_retriever_pickles() -> None:
    retriever = Bm25Retriever.from_documents(TOWN, k=2)
    for copy in (pickle.loads(pickle.dumps(retriever)), cloudpickle_loads(cloudpickle_dumps(retriever))):
        assert copy == retriever
        assert isinstance(copy, Bm25Retriever)
        assert copy.invoke("ferry") == [TOWN[1]]


# --- VectorStoreRetriever ------------------------------------------------------------


@attrs.frozen
class AsyncAwareEmbeddings(Embeddings):
    """Records which path embedded the query."""

    calls: list[str] = attrs.field(factory=list[str], eq=False)
    inner: HashedNgramEmbeddings = HashedNgramEmbeddings()

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.calls.append("sync")
        return self.inner.embed_query(text)

    async def aembed_query(self, text: str) -> list[float]:
        self.calls.append("async")
        return self.inner.embed_query(text)


def test_store_as_retriever() -> None:
    store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents(TOWN)
    assert [doc.id for doc in store.as_retriever(k=1).invoke("ferry to Holm")] == ["1"]
    assert [doc.id for doc in store.as_retriever(k=3, filter={"topic": "light"}).invoke("lamp")] == ["0", "2"]


def test_retriever_keeps_the_store_it_was_built_from() -> None:
    store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents(TOWN[:1])
    retriever = store.as_retriever(k=5)
    store.add_documents(TOWN[1:])
    assert len(retriever.invoke("ferry")) == 1


async def test_vector_retriever_async_uses_async_embeddings() -> None:
    embeddings = AsyncAwareEmbeddings()
    retriever = InMemoryVectorStore(embeddings).add_documents(TOWN).as_retriever(k=1)
    assert [doc.id for doc in await retriever.ainvoke("fog horns")] == ["2"]
    assert [doc.id for doc in retriever.invoke("fog horns")] == ["2"]
    assert embeddings.calls == ["async", "sync"]


def test_vector_retriever_validates_k_and_filter() -> None:
    store = InMemoryVectorStore(HashedNgramEmbeddings())
    with pytest.raises(ValueError, match="VectorStoreRetriever k must be an int >= 0"):
        store.as_retriever(k=-2)
    with pytest.raises(TypeError, match="filter must be a mapping"):
        VectorStoreRetriever(store, filter=3)  # type: ignore[arg-type]


def test_vector_retriever_pickles() -> None:
    retriever = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents(TOWN).as_retriever(k=2)
    copy = cloudpickle_loads(cloudpickle_dumps(retriever))
    assert copy == retriever
    assert isinstance(copy, VectorStoreRetriever)
    assert copy.invoke("lamp") == retriever.invoke("lamp")


# --- AmazonKendraRetriever -----------------------------------------------------------


@pytest.fixture
def client() -> KendraClient:
    # boto3-stubs[kendra] types only the "kendra" overload; pyright sees the others as Unknown.
    return boto3.client(  # pyright: ignore[reportUnknownMemberType]
        "kendra", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )


@pytest.fixture
def stubber(client: KendraClient) -> Iterator[Stubber]:
    with Stubber(client) as stub:
        yield stub
        stub.assert_no_pending_responses()


def passages(*titles: str) -> dict[str, object]:
    return {"QueryId": "q", "ResultItems": [{"DocumentTitle": t, "Content": f"About {t}."} for t in titles]}


def test_kendra_retriever_invokes_retrieve(client: KendraClient, stubber: Stubber) -> None:
    stubber.add_response("retrieve", passages("Tides"), {"IndexId": INDEX, "QueryText": "tides", "PageSize": 3})
    retriever = AmazonKendraRetriever(index_id=INDEX, top_k=3, client=client)
    [doc] = retriever.invoke("tides")
    assert doc.page_content == "Document Title: Tides\nDocument Excerpt: \nAbout Tides.\n"
    assert retriever.run_type == "retriever"


async def test_kendra_retriever_async_runs_on_a_worker_thread(client: KendraClient, stubber: Stubber) -> None:
    threads: list[str] = []

    def record_thread(**_kwargs: object) -> None:
        threads.append(threading.current_thread().name)

    # Not before-call: the Stubber answers there, and later handlers never run.
    client.meta.events.register("before-parameter-build.kendra.Retrieve", record_thread)
    stubber.add_response("retrieve", passages("Fog"))
    [doc] = await AmazonKendraRetriever(index_id=INDEX, client=client).ainvoke("fog")
    assert doc.metadata["title"] == "Fog"
    assert threads and threads[0] != threading.main_thread().name


def test_kendra_retriever_retries_only_throttling(client: KendraClient, stubber: Stubber) -> None:
    stubber.add_client_error("retrieve", service_error_code="ThrottlingException", service_message="Rate exceeded")
    stubber.add_response("retrieve", passages("Lamp"))
    retriever = AmazonKendraRetriever(index_id=INDEX, client=client).with_retry(
        retry_if_exception_type=(KendraThrottled,), wait_exponential_jitter=False
    )
    assert [doc.metadata["title"] for doc in retriever.invoke("lamp")] == ["Lamp"]

    stubber.add_client_error("retrieve", service_error_code="AccessDeniedException", service_message="No")
    with pytest.raises(KendraAccessDenied, match="Kendra Retrieve failed with AccessDeniedException"):
        retriever.invoke("lamp")


def test_kendra_retriever_batch_keeps_order(client: KendraClient, stubber: Stubber) -> None:
    stubber.add_response("retrieve", passages("A"), {"IndexId": INDEX, "QueryText": "a", "PageSize": 10})
    stubber.add_response("retrieve", passages("B"), {"IndexId": INDEX, "QueryText": "b", "PageSize": 10})
    retriever = AmazonKendraRetriever(index_id=INDEX, client=client)
    results = retriever.batch(["a", "b"], {"max_concurrency": 1})
    assert [[doc.metadata["title"] for doc in docs] for docs in results] == [["A"], ["B"]]


def test_kendra_retriever_validates_its_settings(client: KendraClient) -> None:
    with pytest.raises(ValueError, match=r"Please pass the Kendra index id \(index_id=\.\.\.\)"):
        AmazonKendraRetriever(index_id=None, region_name="us-east-1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"Please pass the AWS region \(region_name=\.\.\.\)"):
        AmazonKendraRetriever(index_id=INDEX)
    with pytest.raises(ValueError, match="top_k must be an int from 1 to 100, got 0"):
        AmazonKendraRetriever(index_id=INDEX, top_k=0, client=client)
    AmazonKendraRetriever(index_id=INDEX, client=client)  # a client makes the region optional


def test_kendra_retriever_without_a_client_pickles_and_compares() -> None:
    retriever = AmazonKendraRetriever(
        index_id=INDEX, region_name="eu-west-1", attribute_filter={"EqualsTo": {"Key": "k", "Value": {"LongValue": 0}}}
    )
    copy = cloudpickle_loads(cloudpickle_dumps(retriever))
    assert copy == retriever
    assert "client=None" in repr(retriever)


def test_kendra_retriever_repr_hides_the_client_address(client: KendraClient) -> None:
    assert repr(AmazonKendraRetriever(index_id=INDEX, client=client)).endswith(
        "client=<kendra>, secrets_from_env=True)"
    )
