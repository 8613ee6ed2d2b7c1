"""Kendra's failures: the search branch of the one service-error family.

Each AWS error code names a family class (``ThrottlingException`` is a rate limit,
``AccessDeniedException`` an auth error, ...); an unknown code goes by its HTTP status
through the family's one mapping. The message names the operation and AWS's error code;
AWS's own message (which can hold account ids and ARNs) is ``message``/``detail``, kept
for the log and never shown. When the failure came from botocore, the error is also a
``botocore.exceptions.ClientError`` (see ``botocore_errors``).

>>> error = KendraThrottled("Retrieve", "ThrottlingException", "Rate exceeded for arn:aws:kendra:...")
>>> str(error), error.retryable, error.message[:13]
('Kendra Retrieve failed with ThrottlingException', True, 'Rate exceeded')

The class for each AWS error code it knows (a family class, so a builtin too):

>>> for code in _FAMILY_BY_CODE:
...     print(f"{code:25} {kendra_error_class(code, None).__name__}")
ThrottlingException       KendraThrottled
AccessDeniedException     KendraAccessDenied
ValidationException       KendraInvalidRequest
ResourceNotFoundException KendraResourceNotFound
InternalServerException   KendraUnavailable
>>> issubclass(KendraResourceNotFound, LookupError), issubclass(KendraConnectionError, ConnectionError)
(True, True)
"""

from __future__ import annotations

from typing import Final

from combinators._support.service_replies import safe_name
from combinators.service_errors import (
    ServiceAuthError,
    ServiceBadRequest,
    ServiceConnectionError,
    ServiceError,
    ServiceNotFound,
    ServiceRateLimited,
    ServiceUnavailable,
    service_error_class,
)


class KendraError(ServiceError):
    """A Kendra call failed: which ``operation``, AWS's error ``code``, and its ``message``
    (kept for the log: it is not part of ``str()``).

    >>> str(KendraError("Query", "ConflictException", "account 123456789012", status=409))
    'Kendra Query failed with ConflictException (409)'
    """

    operation: str
    code: str
    message: str

    def __init__(self, operation: str, code: str, message: str, *, status: int | None = None) -> None:
        self.operation = operation
        self.code = code
        self.message = message
        super().__init__(status=status, service=f"Kendra {operation}", detail=message)

    def safe_message(self) -> str:
        shown = safe_name(self.code)
        text = f"{self.service} failed" + (f" with {shown}" if shown else "")
        return text + (f" ({self.status})" if self.status is not None else "")

    def _constructor_args(self) -> tuple[tuple[object, ...], dict[str, object]]:
        return (self.operation, self.code, self.message), {"status": self.status}


class KendraThrottled(KendraError, ServiceRateLimited):
    """Kendra refused the call for now (ThrottlingException); retrying later may work.

    >>> KendraThrottled("Retrieve", "ThrottlingException", "slow").retryable
    True
    """


class KendraAccessDenied(KendraError, ServiceAuthError):
    """The credentials may not call this operation on this index (AccessDeniedException)."""


class KendraInvalidRequest(KendraError, ServiceBadRequest):
    """Kendra (ValidationException) or botocore (ParamValidationError) rejected the request."""


class KendraResourceNotFound(KendraError, ServiceNotFound):
    """The index does not exist in this account and region (ResourceNotFoundException)."""


class KendraUnavailable(KendraError, ServiceUnavailable):
    """Kendra failed on its side (InternalServerException, a 5xx); retrying later may work.

    >>> KendraError.for_status(503).__name__
    'KendraUnavailable'
    """


class KendraConnectionError(KendraError, ServiceConnectionError):
    """The Kendra endpoint could not be reached or did not answer in time."""


_FAMILY_BY_CODE: Final[dict[str, type[ServiceError]]] = {
    "ThrottlingException": ServiceRateLimited,
    "AccessDeniedException": ServiceAuthError,
    "ValidationException": ServiceBadRequest,
    "ResourceNotFoundException": ServiceNotFound,
    "InternalServerException": ServiceUnavailable,
}


def kendra_error_class(code: str, status: int | None) -> type[KendraError]:
    """The class for an AWS error code (by its HTTP status when the code is not known).

    >>> kendra_error_class("ThrottlingException", 400).__name__, kendra_error_class("Odd", 500).__name__
    ('KendraThrottled', 'KendraUnavailable')
    """
    family = _FAMILY_BY_CODE.get(code)
    if family is None:
        family = service_error_class(status) if status is not None else ServiceError
    return KendraError.in_family(family)


def kendra_error(operation: str, error: Exception) -> KendraError | None:
    """The typed error for a botocore failure, or ``None`` for anything else.

    >>> kendra_error("Retrieve", KeyError("x")) is None
    True
    """
    try:
        from botocore import exceptions
    except ImportError:  # a fake client without boto3 installed raises its own errors
        return None
    from combinators.integrations.aws.botocore_errors import client_error_twin

    if isinstance(error, exceptions.ClientError):
        details = error.response.get("Error", {})
        code = details.get("Code", "Unknown")
        status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        cls = client_error_twin(kendra_error_class(code, status))
        return cls(operation, code, details.get("Message", str(error)), status=status, response=error.response)
    if isinstance(error, exceptions.ParamValidationError):
        return KendraInvalidRequest(operation, "ParamValidationError", str(error))
    if isinstance(error, exceptions.ConnectionError | exceptions.HTTPClientError):  # unreachable, timeouts
        return KendraConnectionError(operation, type(error).__name__, str(error))
    return None
