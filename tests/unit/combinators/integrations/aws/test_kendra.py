"""Kendra: request building, response mapping and the Retrieve-then-Query flow.

Every call goes through botocore's Stubber on a real client, so requests are validated
against AWS's own service model (no network, fake credentials)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone, UTC
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import cloudpickle  # type: ignore[import-untyped]
import pytest
from botocore.exceptions import ClientError, EndpointConnectionError
from botocore.stub import Stubber
from hypothesis import given
from hypothesis import strategies as st

from combinators.integrations.aws import kendra
from combinators.components.retrieval.documents import Document
from combinators import TransientServiceError
from combinators.integrations.aws.kendra import (
    KendraAccessDenied,
    KendraConnectionError,
    KendraError,
    KendraInvalidRequest,
    KendraResourceNotFound,
    KendraThrottled,
    KendraUnavailable,
    check_kendra_settings,
    clean_result,
    document_attribute_value,
    kendra_client,
    query_request,
    query_result_to_document,
    retrieve_request,
    retrieve_result_to_document,
    search_kendra,
)

if TYPE_CHECKING:
    from mypy_boto3_kendra.client import KendraClient
    from mypy_boto3_kendra.type_defs import (
        AttributeFilterTypeDef,
        DocumentAttributeOutputTypeDef,
        QueryResultItemTypeDef,
        RetrieveResultItemTypeDef,
    )

INDEX = "0123abcd-0123-abcd-0123-0123456789ab"
assert len(INDEX) == 36

FILTER: AttributeFilterTypeDef = {
    "AndAllFilters": [
        {"EqualsTo": {"Key": "_language_code", "Value": {"StringValue": "en"}}},
        {"GreaterThanOrEquals": {"Key": "year", "Value": {"LongValue": 1900}}},
    ]
}


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


def retrieve_item(n: int, **extra: object) -> dict[str, object]:
    return {
        "Id": f"r{n}",
        "DocumentId": f"doc-{n}",
        "DocumentTitle": f"Title {n}",
        "Content": f"Passage   {n}...\nmore",
        "DocumentURI": f"https://example.com/{n}",
        **extra,
    }


# --- clean_result --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("a  b\n\tc", "a b c"),
        ("Lamp lit... at dusk", "Lamp lit at dusk"),
        ("...start and end...", "start and end"),
        ("a ... b", "a  b"),  # whitespace first, then dots: the peer's order, kept
        ("....", "."),
        ("  padded  ", " padded "),
        ("", ""),
    ],
)
def test_clean_result(raw: str, clean: str) -> None:
    assert clean_result(raw) == clean


@given(st.text(alphabet=st.sampled_from(". \n\tab"), max_size=30))
def test_clean_result_leaves_no_ellipsis_and_no_newlines(raw: str) -> None:
    cleaned = clean_result(raw)
    assert "..." not in cleaned
    assert "\n" not in cleaned and "\t" not in cleaned


# --- attribute values ----------------------------------------------------------------


def test_attribute_value_takes_the_first_present_key_even_if_falsy() -> None:
    assert document_attribute_value({"LongValue": 0}) == 0
    assert document_attribute_value({"StringValue": ""}) == ""
    assert document_attribute_value({"StringListValue": []}) == []
    assert document_attribute_value({"LongValue": 0, "StringValue": "x"}) == 0
    assert document_attribute_value({"StringListValue": ["a"], "StringValue": "x"}) == ["a"]
    assert document_attribute_value({}) is None


def test_date_values_become_iso_strings_in_utc() -> None:
    local = datetime(2024, 3, 1, 12, 30, tzinfo=timezone(timedelta(hours=2)))
    assert document_attribute_value({"DateValue": local}) == "2024-03-01T10:30:00+00:00"
    assert document_attribute_value({"DateValue": datetime(2024, 3, 1)}) == "2024-03-01T00:00:00"


# --- mapping -------------------------------------------------------------------------


def test_retrieve_item_to_document() -> None:
    item: RetrieveResultItemTypeDef = {
        "DocumentTitle": "Keeping the light",
        "Content": "The  lamp is lit...\nat dusk.",
        "DocumentURI": "s3://bucket/light.md",
        "DocumentAttributes": [
            {"Key": "year", "Value": {"LongValue": 0}},
            {"Key": "tags", "Value": {"StringListValue": ["light", "keeper"]}},
        ],
    }
    assert retrieve_result_to_document(item) == Document(
        "Document Title: Keeping the light\nDocument Excerpt: \nThe lamp is lit at dusk.\n",
        {
            "source": "s3://bucket/light.md",
            "title": "Keeping the light",
            "excerpt": "The lamp is lit at dusk.",
            "document_attributes": {"year": 0, "tags": ["light", "keeper"]},
        },
    )


def test_retrieve_item_without_title_or_content() -> None:
    assert retrieve_result_to_document({"Content": "only text"}) == Document(
        "Document Excerpt: \nonly text\n",
        {"source": None, "title": "", "excerpt": "only text", "document_attributes": {}},
    )
    assert retrieve_result_to_document({"DocumentTitle": "T"}).page_content == "Document Title: T\n"
    assert retrieve_result_to_document({}).page_content == ""


def test_query_answer_item_uses_the_answer_text() -> None:
    item: QueryResultItemTypeDef = {
        "Type": "ANSWER",
        "DocumentTitle": {"Text": "Tides"},
        "DocumentExcerpt": {"Text": "not this"},
        "AdditionalAttributes": [
            {
                "Key": "AnswerText",
                "ValueType": "TEXT_WITH_HIGHLIGHTS_VALUE",
                "Value": {"TextWithHighlightsValue": {"Text": "Twice   a day..."}},
            }
        ],
        "DocumentURI": "https://example.com/tides",
    }
    doc = query_result_to_document(item)
    assert doc.page_content == "Document Title: Tides\nDocument Excerpt: \nTwice a day\n"
    assert doc.metadata == {
        "source": "https://example.com/tides",
        "title": "Tides",
        "excerpt": "Twice a day",
        "document_attributes": {},
    }
    assert doc.id is None


def test_query_document_item_uses_the_excerpt() -> None:
    item: QueryResultItemTypeDef = {
        "Type": "DOCUMENT",
        "DocumentExcerpt": {"Text": "Fog\n\nhorn"},
        "AdditionalAttributes": [
            {
                "Key": "Other",
                "ValueType": "TEXT_WITH_HIGHLIGHTS_VALUE",
                "Value": {"TextWithHighlightsValue": {"Text": "x"}},
            }
        ],
    }
    assert query_result_to_document(item).page_content == "Document Excerpt: \nFog horn\n"
    assert query_result_to_document({}).metadata == {
        "source": None,
        "title": "",
        "excerpt": "",
        "document_attributes": {},
    }


# --- requests ------------------------------------------------------------------------


def test_requests_carry_exactly_the_given_parameters() -> None:
    assert retrieve_request(INDEX, "when is the lamp lit", 3) == {
        "IndexId": INDEX,
        "QueryText": "when is the lamp lit",
        "PageSize": 3,
    }
    assert query_request(INDEX, "q", 5, FILTER) == {
        "IndexId": INDEX,
        "QueryText": "q",
        "PageSize": 5,
        "AttributeFilter": FILTER,
    }


# --- the flow, against the service model ----------------------------------------------


def test_retrieve_results_become_documents(client: KendraClient, stubber: Stubber) -> None:
    stubber.add_response(
        "retrieve",
        {"QueryId": "q1", "ResultItems": [retrieve_item(1), retrieve_item(2)]},
        expected_params={"IndexId": INDEX, "QueryText": "lamp", "PageSize": 3},
    )
    docs = search_kendra(client, "lamp", index_id=INDEX, top_k=3)
    assert [doc.metadata["title"] for doc in docs] == ["Title 1", "Title 2"]
    assert docs[0].page_content == "Document Title: Title 1\nDocument Excerpt: \nPassage 1 more\n"


def test_attribute_filter_is_sent_to_both_apis(client: KendraClient, stubber: Stubber) -> None:
    params = {"IndexId": INDEX, "QueryText": "lamp", "PageSize": 2, "AttributeFilter": FILTER}
    stubber.add_response("retrieve", {"QueryId": "q1", "ResultItems": []}, expected_params=params)
    stubber.add_response("query", {"QueryId": "q2", "ResultItems": []}, expected_params=params)
    assert search_kendra(client, "lamp", index_id=INDEX, top_k=2, attribute_filter=FILTER) == []


def test_falls_back_to_query_when_retrieve_finds_nothing(client: KendraClient, stubber: Stubber) -> None:
    params = {"IndexId": INDEX, "QueryText": "tides", "PageSize": 10}
    stubber.add_response("retrieve", {"QueryId": "q1", "ResultItems": []}, expected_params=params)
    stubber.add_response(
        "query",
        {
            "QueryId": "q2",
            "ResultItems": [
                {
                    "Id": "a",
                    "Type": "DOCUMENT",
                    "DocumentTitle": {"Text": "Tides"},
                    "DocumentExcerpt": {"Text": "Twice a day"},
                }
            ],
        },
        expected_params=params,
    )
    docs = search_kendra(client, "tides", index_id=INDEX)
    assert docs == [
        Document(
            "Document Title: Tides\nDocument Excerpt: \nTwice a day\n",
            {"source": None, "title": "Tides", "excerpt": "Twice a day", "document_attributes": {}},
        )
    ]


def test_falls_back_to_query_when_result_items_is_missing(client: KendraClient, stubber: Stubber) -> None:
    # The peer returns [] here without asking Query.
    stubber.add_response("retrieve", {"QueryId": "q1"})
    stubber.add_response("query", {"QueryId": "q2", "ResultItems": [{"DocumentExcerpt": {"Text": "found"}}]})
    assert [doc.metadata["excerpt"] for doc in search_kendra(client, "x", index_id=INDEX)] == ["found"]


def test_nothing_from_either_api_is_an_empty_list(client: KendraClient, stubber: Stubber) -> None:
    stubber.add_response("retrieve", {"QueryId": "q1", "ResultItems": []})
    stubber.add_response("query", {"QueryId": "q2"})
    assert search_kendra(client, "x", index_id=INDEX) == []


def test_keeps_at_most_top_k(client: KendraClient, stubber: Stubber) -> None:
    stubber.add_response("retrieve", {"QueryId": "q1", "ResultItems": [retrieve_item(n) for n in range(5)]})
    stubber.add_response("retrieve", {"QueryId": "q2", "ResultItems": []})
    stubber.add_response(
        "query", {"QueryId": "q3", "ResultItems": [{"DocumentExcerpt": {"Text": str(n)}} for n in range(4)]}
    )
    assert [d.metadata["title"] for d in search_kendra(client, "x", index_id=INDEX, top_k=2)] == ["Title 0", "Title 1"]
    assert [d.metadata["excerpt"] for d in search_kendra(client, "x", index_id=INDEX, top_k=3)] == ["0", "1", "2"]


def test_attribute_values_through_the_service_model(client: KendraClient, stubber: Stubber) -> None:
    when = datetime(2023, 5, 6, 7, 8, 9, tzinfo=UTC)
    attributes: list[DocumentAttributeOutputTypeDef] = [
        {"Key": "count", "Value": {"LongValue": 0}},
        {"Key": "label", "Value": {"StringValue": "x"}},  # the model forbids "" here
        {"Key": "tags", "Value": {"StringListValue": ["a", "b"]}},
        {"Key": "when", "Value": {"DateValue": when}},
        {"Key": "empty", "Value": {}},
    ]
    stubber.add_response("retrieve", {"QueryId": "q", "ResultItems": [retrieve_item(1, DocumentAttributes=attributes)]})
    [doc] = search_kendra(client, "x", index_id=INDEX)
    assert doc.metadata["document_attributes"] == {
        "count": 0,
        "label": "x",
        "tags": ["a", "b"],
        "when": "2023-05-06T07:08:09+00:00",
        "empty": None,
    }


# --- service errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "error_type"),
    [
        ("ThrottlingException", KendraThrottled),
        ("AccessDeniedException", KendraAccessDenied),
        ("ValidationException", KendraInvalidRequest),
        ("ResourceNotFoundException", KendraResourceNotFound),
        ("ConflictException", KendraInvalidRequest),  # unknown code: by its status (400)
        ("InternalServerException", KendraUnavailable),
    ],
)
def test_retrieve_errors_are_typed(
    client: KendraClient, stubber: Stubber, code: str, error_type: type[KendraError]
) -> None:
    message = "User arn:aws:iam::123456789012:user/x may not; no luck"
    stubber.add_client_error("retrieve", service_error_code=code, service_message=message, http_status_code=400)
    with pytest.raises(error_type) as caught:
        search_kendra(client, "x", index_id=INDEX)
    error = caught.value
    assert error.public_type == error_type.__name__
    assert isinstance(error, ClientError)  # an `except ClientError` written for botocore catches it
    assert (error.operation, error.code, error.message, error.detail) == ("Retrieve", code, message, message)
    assert error.response["Error"]["Code"] == code and error.operation_name == "Retrieve"
    # AWS's own message can hold account ids and ARNs: it stays off the message.
    assert str(error) == f"Kendra Retrieve failed with {code} (400)"
    assert isinstance(error.__cause__, ClientError)


def test_unknown_codes_go_by_the_status_mapping(client: KendraClient, stubber: Stubber) -> None:
    stubber.add_client_error("retrieve", service_error_code="Odd", service_message="m", http_status_code=503)
    with pytest.raises(KendraUnavailable) as caught:
        search_kendra(client, "x", index_id=INDEX)
    assert caught.value.retryable and isinstance(caught.value, TransientServiceError)


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
def test_client_error_twins_pickle(client: KendraClient, stubber: Stubber, dumps: Any) -> None:
    stubber.add_client_error("retrieve", service_error_code="ThrottlingException", service_message="slow")
    with pytest.raises(KendraThrottled) as caught:
        search_kendra(client, "x", index_id=INDEX)
    copy = pickle.loads(dumps(caught.value))
    assert type(copy) is type(caught.value) and isinstance(copy, ClientError)
    assert (str(copy), copy.message, copy.response["Error"]["Code"]) == (
        str(caught.value),
        "slow",
        "ThrottlingException",
    )


def test_errors_of_the_query_fallback_name_query(client: KendraClient, stubber: Stubber) -> None:
    stubber.add_response("retrieve", {"QueryId": "q1", "ResultItems": []})
    stubber.add_client_error("query", service_error_code="ThrottlingException", service_message="Rate exceeded")
    with pytest.raises(KendraThrottled, match="Kendra Query failed with ThrottlingException"):
        search_kendra(client, "x", index_id=INDEX)


def test_error_families_match_builtins() -> None:
    assert issubclass(KendraInvalidRequest, ValueError)
    assert issubclass(KendraResourceNotFound, LookupError)
    assert issubclass(KendraAccessDenied, PermissionError) and issubclass(KendraConnectionError, ConnectionError)
    assert issubclass(KendraThrottled, TransientServiceError) and not issubclass(
        KendraAccessDenied, TransientServiceError
    )
    assert all(
        issubclass(cls, KendraError)
        for cls in (
            KendraThrottled,
            KendraAccessDenied,
            KendraInvalidRequest,
            KendraResourceNotFound,
            KendraConnectionError,
        )
    )


@pytest.mark.parametrize("error_type", [KendraError, KendraThrottled, KendraAccessDenied, KendraInvalidRequest])
def test_errors_survive_pickling(error_type: type[KendraError]) -> None:
    error = error_type("Query", "Code", "message")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is error_type
    assert (copy.operation, copy.code, copy.message, str(copy)) == ("Query", "Code", "message", str(error))


def test_malformed_attribute_filter_is_an_invalid_request(client: KendraClient) -> None:
    bad: AttributeFilterTypeDef = {"EqualsTo": {"Key": "year"}}  # type: ignore[typeddict-item]
    with pytest.raises(KendraInvalidRequest, match="Kendra Retrieve failed with ParamValidationError") as caught:
        search_kendra(client, "x", index_id=INDEX, attribute_filter=bad)
    assert 'EqualsTo: "Value"' in caught.value.message


class UnreachableKendra:
    """A client whose endpoint cannot be reached (what botocore raises offline)."""

    def retrieve(self, **_params: object) -> object:
        raise EndpointConnectionError(endpoint_url="https://kendra.us-east-1.amazonaws.com/")

    def query(self, **_params: object) -> object:
        raise AssertionError("not reached")


def test_connection_errors_are_typed() -> None:
    with pytest.raises(KendraConnectionError, match="Kendra Retrieve failed with EndpointConnectionError"):
        search_kendra(UnreachableKendra(), "x", index_id=INDEX)  # type: ignore[arg-type]


# --- settings and the client ----------------------------------------------------------


def test_settings_validation_names_what_is_missing() -> None:
    with pytest.raises(ValueError, match=r"Please pass the Kendra index id \(index_id=\.\.\.\)"):
        check_kendra_settings(index_id="", top_k=3, region_name="us-east-1", client=None)
    with pytest.raises(ValueError, match=r"Please pass the AWS region \(region_name=\.\.\.\) or a Kendra client"):
        check_kendra_settings(index_id=INDEX, top_k=3, region_name=None, client=None)
    with pytest.raises(ValueError, match=r"top_k must be an int from 1 to 100, got 0"):
        check_kendra_settings(index_id=INDEX, top_k=0, region_name="us-east-1", client=None)
    with pytest.raises(ValueError, match=r"top_k must be an int from 1 to 100, got 101"):
        check_kendra_settings(index_id=INDEX, top_k=101, region_name="us-east-1", client=None)
    with pytest.raises(ValueError, match="Kendra index id must be 36 characters"):
        check_kendra_settings(index_id="abc", top_k=3, region_name="us-east-1", client=None)


def test_a_client_makes_the_region_optional(client: KendraClient) -> None:
    check_kendra_settings(index_id=INDEX, top_k=3, region_name=None, client=client)


def test_blank_query_is_named(client: KendraClient) -> None:
    with pytest.raises(ValueError, match="Kendra query must be a non-empty str"):
        search_kendra(client, "  ", index_id=INDEX)


def test_kendra_client_is_built_once_per_region() -> None:
    kendra_client.cache_clear()
    first = kendra_client("eu-west-1")
    assert first is kendra_client("eu-west-1")
    assert first.meta.region_name == "eu-west-1"
    assert first.meta.service_model.service_name == "kendra"
    kendra_client.cache_clear()


def test_missing_boto3_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "boto3", None)
    kendra_client.cache_clear()
    with pytest.raises(ImportError, match=r"pip install 'lcel-combinators\[aws\]'"):
        kendra_client("us-east-1")
    kendra_client.cache_clear()


def test_importing_the_module_does_not_import_boto3() -> None:
    root = Path(__file__).resolve().parents[5]
    code = "import sys, combinators.integrations.aws.kendra; print('boto3' in sys.modules, 'botocore' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": str(root)}
    output = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert output.stdout.strip() == "False False"
    assert kendra.__name__ == "combinators.integrations.aws.kendra"
