"""Amazon Kendra search as pure functions: requests, response mapping, the flow.

The flow is LangChain.js' `AmazonKendraRetriever`: ask the Retrieve API (passages) and,
when it finds nothing, the Query API (answers and document excerpts) with the same
parameters; keep at most `top_k`. Each result item becomes a `Document` whose page
content is ``"Document Title: {title}\\n"`` (when there is a title) followed by
``"Document Excerpt: \\n{excerpt}\\n"`` (when there is an excerpt), with metadata
``source``, ``title``, ``excerpt`` and ``document_attributes``.

Where we differ from the peer, on purpose:

- An attribute value is the first *present* key among DateValue, LongValue,
  StringListValue, StringValue, so ``LongValue: 0`` stays ``0`` and ``StringValue: ""``
  stays ``""`` (the peer's truthiness test turns both into ``""``). A value with none of
  the keys is ``None``. A DateValue (botocore parses it to a `datetime`) becomes an ISO
  8601 string in UTC, so metadata stays JSON-ready for events, logs and SSE.
- A Retrieve response without ``ResultItems`` also falls back to Query.
- Service and connection failures are typed (`KendraThrottled`, `KendraAccessDenied`,
  ...: the service-error family's Kendra branch, in ``kendra_errors``), so
  ``with_retry(retry_if_exception_type=(KendraThrottled,))`` targets throttling; their
  messages never include AWS's own text (which can hold account ids and ARNs).

`AmazonKendraRetriever` runs the flow as a runnable. boto3 is the optional extra
``aws``; it is imported only when a client is built.

>>> clean_result("The lamp is lit...\\n  at dusk")
'The lamp is lit at dusk'
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Sequence
from datetime import UTC
from typing import TYPE_CHECKING, Protocol, cast, final

import attrs

from combinators.authoring import sensitive
from combinators.components.retrieval.documents import BaseRetriever, Document
from combinators.components.secrets import SET_BY_LOADS, MissingSecretError
from combinators.integrations.aws.kendra_errors import KendraAccessDenied as KendraAccessDenied
from combinators.integrations.aws.kendra_errors import KendraConnectionError as KendraConnectionError
from combinators.integrations.aws.kendra_errors import KendraError as KendraError
from combinators.integrations.aws.kendra_errors import KendraInvalidRequest as KendraInvalidRequest
from combinators.integrations.aws.kendra_errors import KendraResourceNotFound as KendraResourceNotFound
from combinators.integrations.aws.kendra_errors import KendraThrottled as KendraThrottled
from combinators.integrations.aws.kendra_errors import KendraUnavailable as KendraUnavailable
from combinators.integrations.aws.kendra_errors import kendra_error
from effects.authoring import in_worker, is_a
from effects.hooks import install_line

if TYPE_CHECKING:
    from mypy_boto3_kendra.client import KendraClient
    from mypy_boto3_kendra.type_defs import (
        AttributeFilterTypeDef,
        DocumentAttributeOutputTypeDef,
        DocumentAttributeValueOutputTypeDef,
        QueryRequestTypeDef,
        QueryResultItemTypeDef,
        QueryResultTypeDef,
        RetrieveRequestTypeDef,
        RetrieveResultItemTypeDef,
        RetrieveResultTypeDef,
    )
    from typing_extensions import Unpack

__all__ = [
    "AmazonKendraRetriever",
    "AttributeValue",
    "KendraAccessDenied",
    "KendraConnectionError",
    "KendraError",
    "KendraInvalidRequest",
    "KendraResourceNotFound",
    "KendraSearchClient",
    "KendraThrottled",
    "KendraUnavailable",
    "check_kendra_settings",
    "clean_result",
    "document_attribute_value",
    "kendra_client",
    "query_request",
    "query_result_to_document",
    "retrieve_request",
    "retrieve_result_to_document",
    "search_kendra",
]

AttributeValue = str | int | list[str] | None
"""What a Kendra document attribute becomes in `Document.metadata`."""

MAX_PAGE_SIZE = 100
"""Kendra returns at most 100 results per page, for Retrieve and Query alike."""


class KendraSearchClient(Protocol):
    """The two calls we make; a boto3 Kendra client has them (and so can a fake)."""

    def retrieve(self, **kwargs: Unpack[RetrieveRequestTypeDef]) -> RetrieveResultTypeDef:
        """Relevant passages for a query."""
        ...

    def query(self, **kwargs: Unpack[QueryRequestTypeDef]) -> QueryResultTypeDef:
        """Answers and document excerpts for a query."""
        ...


# --- settings and the client -----------------------------------------------------------


def check_kendra_settings(
    *, index_id: str, top_k: int, region_name: str | None, client: KendraSearchClient | None
) -> None:
    """Raise a ValueError naming the first setting that cannot work.

    >>> check_kendra_settings(index_id="", top_k=3, region_name="us-east-1", client=None)
    Traceback (most recent call last):
    ...
    ValueError: Please pass the Kendra index id (index_id=...): it is missing
    """
    if not index_id:
        raise ValueError("Please pass the Kendra index id (index_id=...): it is missing")
    if not is_a(index_id, str) or len(index_id) != 36:
        raise ValueError(f"Kendra index id must be 36 characters (a UUID), got {index_id!r}")
    if not is_a(top_k, int) or isinstance(top_k, bool) or not 1 <= top_k <= MAX_PAGE_SIZE:
        raise ValueError(f"Kendra top_k must be an int from 1 to {MAX_PAGE_SIZE}, got {top_k!r}")
    if client is None and not region_name:
        raise ValueError(
            "Please pass the AWS region (region_name=...) or a Kendra client (client=...): "
            "without either there is no endpoint to call"
        )


@functools.cache
def kendra_client(region_name: str) -> KendraClient:
    """A boto3 Kendra client for the region, built once per process (they are thread-safe).

    Credentials come from boto3's usual chain (environment, profile, instance role).

    >>> kendra_client.cache_info().maxsize is None
    True
    """
    try:
        boto3 = importlib.import_module("boto3")
    except ImportError as error:
        raise ImportError(f"AmazonKendraRetriever needs boto3: {install_line('aws')}") from error
    # botocore makes the client's class at run time: no check can narrow to the stubs' class.
    return cast("KendraClient", boto3.client("kendra", region_name=region_name))


# --- requests ------------------------------------------------------------------------


def retrieve_request(
    index_id: str, query: str, top_k: int, attribute_filter: AttributeFilterTypeDef | None = None
) -> RetrieveRequestTypeDef:
    """The parameters of ``client.retrieve(**params)``; AttributeFilter only when given.

    >>> retrieve_request("i" * 36, "fog", 3)["PageSize"]
    3
    """
    request: RetrieveRequestTypeDef = {"IndexId": index_id, "QueryText": query, "PageSize": top_k}
    if attribute_filter is not None:
        request["AttributeFilter"] = attribute_filter
    return request


def query_request(
    index_id: str, query: str, top_k: int, attribute_filter: AttributeFilterTypeDef | None = None
) -> QueryRequestTypeDef:
    """The parameters of ``client.query(**params)``: the same as for Retrieve.

    >>> sorted(query_request("i" * 36, "fog", 3))
    ['IndexId', 'PageSize', 'QueryText']
    """
    request: QueryRequestTypeDef = {"IndexId": index_id, "QueryText": query, "PageSize": top_k}
    if attribute_filter is not None:
        request["AttributeFilter"] = attribute_filter
    return request


# --- responses -----------------------------------------------------------------------

_WHITESPACE = re.compile(r"\s+")


def clean_result(text: str) -> str:
    """Collapse every whitespace run to one space, then remove every ``...`` (the peer's order).

    >>> clean_result("Fog...  rolls\\nin")
    'Fog rolls in'
    """
    return _WHITESPACE.sub(" ", text).replace("...", "")


def document_attribute_value(value: DocumentAttributeValueOutputTypeDef) -> AttributeValue:
    """The first present value among DateValue, LongValue, StringListValue, StringValue.

    >>> document_attribute_value({"LongValue": 0, "StringValue": "zero"})
    0
    """
    if "DateValue" in value:
        date = value["DateValue"]
        # Aware datetimes are shown in UTC so equal instants give equal strings.
        return (date.astimezone(UTC) if date.tzinfo else date).isoformat()
    if "LongValue" in value:
        return value["LongValue"]
    if "StringListValue" in value:
        return list(value["StringListValue"])
    if "StringValue" in value:
        return value["StringValue"]
    return None


def _attributes(attributes: Sequence[DocumentAttributeOutputTypeDef]) -> dict[str, AttributeValue]:
    return {attribute["Key"]: document_attribute_value(attribute["Value"]) for attribute in attributes}


def _document(title: str, excerpt: str, source: str | None, attributes: dict[str, AttributeValue]) -> Document:
    content = (f"Document Title: {title}\n" if title else "") + (f"Document Excerpt: \n{excerpt}\n" if excerpt else "")
    metadata = {"source": source, "title": title, "excerpt": excerpt, "document_attributes": attributes}
    return Document(content, metadata)


def retrieve_result_to_document(item: RetrieveResultItemTypeDef) -> Document:
    """A Retrieve API result item (a passage) as a Document.

    >>> retrieve_result_to_document({"DocumentTitle": "Fog", "Content": "Rolls in."}).page_content
    'Document Title: Fog\\nDocument Excerpt: \\nRolls in.\\n'
    """
    return _document(
        item.get("DocumentTitle") or "",
        clean_result(item.get("Content") or ""),
        item.get("DocumentURI"),
        _attributes(item.get("DocumentAttributes", [])),
    )


def _query_excerpt(item: QueryResultItemTypeDef) -> str:
    additional = item.get("AdditionalAttributes") or []
    if additional and additional[0].get("Key") == "AnswerText":
        answer = additional[0].get("Value", {}).get("TextWithHighlightsValue", {})
        return clean_result(answer.get("Text") or "")
    excerpt = item.get("DocumentExcerpt")
    return clean_result(excerpt.get("Text") or "") if excerpt else ""


def query_result_to_document(item: QueryResultItemTypeDef) -> Document:
    """A Query API result item as a Document; an ANSWER item's excerpt is its answer text.

    >>> query_result_to_document({"DocumentExcerpt": {"Text": "Twice a day."}}).metadata["excerpt"]
    'Twice a day.'
    """
    return _document(
        (item.get("DocumentTitle") or {}).get("Text") or "",
        _query_excerpt(item),
        item.get("DocumentURI"),
        _attributes(item.get("DocumentAttributes", [])),
    )


# --- the flow ------------------------------------------------------------------------


def search_kendra(
    client: KendraSearchClient,
    query: str,
    *,
    index_id: str,
    top_k: int = 10,
    attribute_filter: AttributeFilterTypeDef | None = None,
) -> list[Document]:
    """Retrieve, then Query if Retrieve found nothing; at most `top_k` Documents.

    >>> class Fake:
    ...     def retrieve(self, **params): return {"ResultItems": [{"Content": params["QueryText"]}]}
    ...     def query(self, **params): raise AssertionError("not needed")
    >>> [doc.metadata["excerpt"] for doc in search_kendra(Fake(), "fog", index_id="i" * 36)]
    ['fog']
    """
    if not is_a(query, str) or not query.strip():
        raise ValueError(f"Kendra query must be a non-empty str, got {query!r}")
    try:
        retrieved = client.retrieve(**retrieve_request(index_id, query, top_k, attribute_filter))
    except Exception as error:
        raise (kendra_error("Retrieve", error) or error) from error
    passages = retrieved.get("ResultItems") or []
    if passages:
        return [retrieve_result_to_document(item) for item in passages[:top_k]]
    try:
        queried = client.query(**query_request(index_id, query, top_k, attribute_filter))
    except Exception as error:
        raise (kendra_error("Query", error) or error) from error
    return [query_result_to_document(item) for item in (queried.get("ResultItems") or [])[:top_k]]


# --- the retriever ---------------------------------------------------------------------


def _client_repr(client: KendraSearchClient | None) -> str:
    # A client's own repr carries a memory address; keep reprs stable.
    return "None" if client is None else f"<{type(client).__name__}>"


@final
@attrs.frozen(kw_only=True)
class AmazonKendraRetriever(BaseRetriever):
    """Amazon Kendra as a retriever: Retrieve, then Query when Retrieve finds nothing.

    Give `region_name` (a boto3 client is built on first use, once per process and
    region, so the retriever pickles and ships to workers) or your own `client`. Failures
    are typed: ``.with_retry(retry_if_exception_type=(KendraThrottled,))`` retries only
    throttling. The async path runs the blocking boto3 call on a worker thread.

    Built by ``loads`` (``secrets_from_env=False``), it never uses boto3's credential
    chain (the environment, profiles, instance roles): give it a `client` in code.

    >>> AmazonKendraRetriever(index_id="0123abcd-0123-abcd-0123-0123456789ab", region_name="us-east-1")
    AmazonKendraRetriever(index_id='0123abcd-0123-abcd-0123-0123456789ab', top_k=10, region_name='us-east-1', attribute_filter=None, client=None, secrets_from_env=True)
    >>> AmazonKendraRetriever(index_id=None, region_name="us-east-1")
    Traceback (most recent call last):
    ...
    ValueError: Please pass the Kendra index id (index_id=...): it is missing
    """

    # A served chain's clients may never set where queries go or with whose credentials.
    index_id: str = attrs.field(metadata=sensitive("endpoint"))
    top_k: int = 10
    region_name: str | None = attrs.field(default=None, metadata=sensitive("endpoint"))
    attribute_filter: AttributeFilterTypeDef | None = None
    client: KendraSearchClient | None = attrs.field(default=None, repr=_client_repr, metadata=sensitive("credentials"))
    secrets_from_env: bool = attrs.field(default=True, metadata={SET_BY_LOADS: False, **sensitive("secret")})

    def __attrs_post_init__(self) -> None:
        check_kendra_settings(
            index_id=self.index_id, top_k=self.top_k, region_name=self.region_name, client=self.client
        )

    def _client(self) -> KendraSearchClient:
        if self.client is not None:
            return self.client
        if not self.secrets_from_env:
            raise MissingSecretError(
                f"this AmazonKendraRetriever (index {self.index_id!r}) was built by loads, which never uses "
                "the AWS credentials of the environment: give it a client in code (attrs.evolve(retriever, client=...))"
            )
        # check_kendra_settings made sure there is a region when there is no client.
        assert self.region_name is not None
        return kendra_client(self.region_name)

    def _get_relevant_documents(self, query: str) -> list[Document]:
        return search_kendra(
            self._client(), query, index_id=self.index_id, top_k=self.top_k, attribute_filter=self.attribute_filter
        )

    async def _aget_relevant_documents(self, query: str) -> list[Document]:
        # boto3 blocks: on a worker thread of the library's pool (never the loop's
        # default executor, which asyncio.run's shutdown would wait for).
        return await in_worker(None, self._get_relevant_documents, query)
