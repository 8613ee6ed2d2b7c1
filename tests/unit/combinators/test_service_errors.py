"""The one service-error family: one status mapping, every domain on it, safe messages, pickling."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import Any

import cloudpickle  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

import combinators
from combinators import (
    RunnableLambda,
    ServiceAuthError,
    ServiceBadRequest,
    ServiceConflict,
    ServiceError,
    ServiceNotFound,
    ServicePayloadTooLarge,
    ServiceRateLimited,
    ServiceTimeout,
    ServiceUnavailable,
    ServiceUnprocessable,
    TransientServiceError,
)
from combinators.components.models.errors import ModelAPIError, TransientModelError
from combinators._support.service_replies import parse_retry_after
from combinators.service_errors import service_error_class

MAPPING: list[tuple[int, type[ServiceError], type[BaseException]]] = [
    (400, ServiceBadRequest, ValueError),
    (401, ServiceAuthError, PermissionError),
    (403, ServiceAuthError, PermissionError),
    (404, ServiceNotFound, LookupError),
    (408, ServiceTimeout, TimeoutError),
    (409, ServiceConflict, ValueError),
    (413, ServicePayloadTooLarge, ValueError),
    (422, ServiceUnprocessable, ValueError),
    (429, ServiceRateLimited, Exception),
    (500, ServiceUnavailable, Exception),
    (502, ServiceUnavailable, Exception),
    (503, ServiceUnavailable, Exception),
    (504, ServiceTimeout, TimeoutError),
    (418, ServiceError, Exception),
]


def _domains() -> list[type[ServiceError]]:
    from combinators.integrations.aws.kendra_errors import KendraError
    from combinators.integrations.serving.remote_errors import RemoteRunnableError

    return [ServiceError, ModelAPIError, RemoteRunnableError, KendraError]


@pytest.mark.parametrize(("status", "family", "builtin"), MAPPING)
def test_one_status_mapping(status: int, family: type[ServiceError], builtin: type[BaseException]) -> None:
    assert service_error_class(status) is family
    assert issubclass(family, builtin)
    assert family.retryable is (status in (408, 429) or status >= 500)


@given(st.integers(min_value=400, max_value=599))
def test_every_domain_follows_the_mapping(status: int) -> None:
    family = service_error_class(status)
    for domain in _domains():
        chosen = domain.for_status(status)
        assert issubclass(chosen, domain) and not chosen.sdk_twin
        # the domain's class is of the family class, or of the nearest ancestor it has one for
        nearest = next(f for f in family.__mro__ if issubclass(chosen, f))
        assert issubclass(family, nearest)
        assert chosen.retryable is family.retryable or not issubclass(chosen, TransientServiceError)


SECRETS = st.sampled_from(["sk-live-abc123", "org-XYZ987", "http://10.0.0.7:8080/v1", "Bearer eyJhbGci"])


@given(
    st.sampled_from([status for status, _, _ in MAPPING]),
    SECRETS,
    SECRETS,
    st.none() | st.floats(min_value=0, max_value=100),
)
def test_messages_hold_safe_fields_only(status: int, detail: str, url: str, retry_after: float | None) -> None:
    cls = service_error_class(status)
    error = cls(status=status, service="openai", detail=f"said {detail}", url=url, retry_after=retry_after)
    shown = f"{error} {error!r} {error.args}"
    assert detail not in shown and url not in shown
    assert str(status) in str(error) and str(error).startswith("openai ")
    assert error.detail == f"said {detail}" and error.url == url
    # ...while a traceback (the server's log) still shows them
    assert any(detail in note and url in note for note in error.__notes__)


def test_model_domain_errors_hide_what_the_server_said() -> None:
    error = ModelAPIError.for_status(401)(
        "Incorrect API key provided: sk-abc", status=401, model="m", base_url="http://10.0.0.1/v1", service="openai"
    )
    assert str(error) == "openai refused the credentials (401)"
    assert "sk-abc" in error.__notes__[0] and "http://10.0.0.1/v1" in error.__notes__[0]


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
@pytest.mark.parametrize(("status", "family", "_builtin"), MAPPING)
def test_errors_pickle_with_their_fields(
    dumps: Any, status: int, family: type[ServiceError], _builtin: type[BaseException]
) -> None:
    error = family(status=status, service="s", argument="a", limit="1 MB", retry_after=3, hint="h", detail="d", url="u")
    copy = pickle.loads(dumps(error))
    assert type(copy) is family and str(copy) == str(error)
    fields = ("status", "service", "argument", "limit", "retry_after", "hint", "detail", "url")
    assert [getattr(copy, f) for f in fields] == [getattr(error, f) for f in fields]


def test_one_retry_policy_covers_every_domain() -> None:
    from combinators.integrations.aws.kendra_errors import KendraThrottled
    from combinators.integrations.serving.errors import ErrorInfo
    from combinators.integrations.serving.remote_errors import remote_error

    assert TransientModelError is TransientServiceError
    failures: list[BaseException] = [
        KendraThrottled("Retrieve", "ThrottlingException", "slow"),
        remote_error(ErrorInfo(503, "Busy", "busy"), "http://h/x"),
        ModelAPIError.for_status(500)("boom", status=500),
    ]

    def flaky(x: int) -> int:
        if failures:
            raise failures.pop()
        return x

    retried = RunnableLambda(flaky).with_retry(
        retry_if_exception_type=(TransientModelError,), stop_after_attempt=4, wait_exponential_jitter=False
    )
    from effects.clock import FakeClock, use_clock

    with use_clock(FakeClock()):
        assert retried.invoke(1) == 1
    assert failures == []


def test_retry_after_reads_seconds_only() -> None:
    assert [parse_retry_after(v) for v in ("1.5", "Wed, 21 Oct 2015 07:28:00 GMT", "-1", "nan", True, 10**9)] == [
        1.5,
        None,
        None,
        None,
        None,
        86_400.0,
    ]


def test_importing_the_library_imports_no_sdk() -> None:
    code = (
        "import sys, combinators, combinators.components, combinators.integrations.openai, "
        "combinators.integrations.openai.errors, combinators.integrations.aws.kendra; "
        "print(sorted(m for m in ('openai', 'botocore', 'boto3') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_root_exports_the_whole_family_and_its_lazy_table_agrees() -> None:
    # The users' root loads lazily (combinators._LAZY), so it names the family's classes
    # itself, the one list of them; this holds it to the classes the module defines.
    import combinators.service_errors as family

    classes = {n for n, v in vars(family).items() if isinstance(v, type) and v.__module__ == family.__name__}
    assert "ServiceError" in classes and "TransientServiceError" in classes
    assert {n for n in combinators.__all__ if n.startswith(("Service", "TransientService"))} == classes
    assert all(combinators._LAZY[n] == "combinators.service_errors" for n in classes)  # pyright: ignore[reportPrivateUsage]
    assert all(getattr(combinators, n) is getattr(family, n) for n in classes)


def test_the_readers_of_a_reply_moved_and_their_old_path_warns() -> None:
    import combinators.service_errors as family
    from combinators._support import service_replies

    for name in ("safe_name", "parse_retry_after"):
        with pytest.warns(DeprecationWarning, match=rf"combinators.service_errors.{name} is deprecated"):
            assert getattr(family, name) is getattr(service_replies, name)
