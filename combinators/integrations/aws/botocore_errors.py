"""Kendra errors that are also botocore's ``ClientError``: ``except ClientError`` keeps working.

Imported only once a failure came from botocore (so it is already loaded). Each class
extends a Kendra error and ``botocore.exceptions.ClientError``, with its ``response``
(the parsed error response) and ``operation_name``; a served chain shows the Kendra
class's name. They pickle.

>>> from botocore.exceptions import ClientError
>>> error = client_error_twin(KendraThrottled)("Retrieve", "ThrottlingException", "slow", status=400)
>>> isinstance(error, ClientError), isinstance(error, KendraThrottled), error.public_type
(True, True, 'KendraThrottled')

One twin per Kendra class, each inheriting ``sdk_twin = True`` from ``KendraClientError``:

>>> for ours, twin in _TWINS.items():
...     print(f"{twin.__name__:34} {ours.__name__}")
KendraClientError                  KendraError
KendraThrottledClientError         KendraThrottled
KendraAccessDeniedClientError      KendraAccessDenied
KendraInvalidRequestClientError    KendraInvalidRequest
KendraResourceNotFoundClientError  KendraResourceNotFound
KendraUnavailableClientError       KendraUnavailable
>>> all(issubclass(twin, ours) and issubclass(twin, ClientError) and twin.sdk_twin for ours, twin in _TWINS.items())
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

from botocore.exceptions import ClientError

from combinators.integrations.aws.kendra_errors import (
    KendraAccessDenied,
    KendraError,
    KendraInvalidRequest,
    KendraResourceNotFound,
    KendraThrottled,
    KendraUnavailable,
)

__all__ = [
    "KendraAccessDeniedClientError",
    "KendraClientError",
    "KendraInvalidRequestClientError",
    "KendraResourceNotFoundClientError",
    "KendraThrottledClientError",
    "KendraUnavailableClientError",
    "client_error_twin",
]


class KendraClientError(KendraError, ClientError):
    """A Kendra error that is also a ``ClientError`` (botocore's ``__init__`` is not run:
    it would format AWS's message into ``str()``).

    >>> KendraClientError("Query", "Odd", "m", response={"Error": {"Code": "Odd"}}).response["Error"]["Code"]
    'Odd'
    """

    sdk_twin: ClassVar[bool] = True

    def __init__(
        self,
        operation: str,
        code: str,
        message: str,
        *,
        status: int | None = None,
        response: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(operation, code, message, status=status)
        # Through __dict__: botocore types it as its own TypedDict, which a parsed reply is read as.
        self.__dict__["response"] = response if response is not None else {"Error": {"Code": code, "Message": message}}
        self.operation_name = operation

    def _constructor_args(self) -> tuple[tuple[object, ...], dict[str, object]]:
        args, kwargs = super()._constructor_args()
        return args, {**kwargs, "response": self.response}


class KendraThrottledClientError(KendraClientError, KendraThrottled):
    """``KendraThrottled`` and ``ClientError``."""


class KendraAccessDeniedClientError(KendraClientError, KendraAccessDenied):
    """``KendraAccessDenied`` and ``ClientError``."""


class KendraInvalidRequestClientError(KendraClientError, KendraInvalidRequest):
    """``KendraInvalidRequest`` and ``ClientError``."""


class KendraResourceNotFoundClientError(KendraClientError, KendraResourceNotFound):
    """``KendraResourceNotFound`` and ``ClientError``."""


class KendraUnavailableClientError(KendraClientError, KendraUnavailable):
    """``KendraUnavailable`` and ``ClientError``."""


_TWINS: Final[dict[type[KendraError], type[KendraClientError]]] = {
    KendraError: KendraClientError,
    KendraThrottled: KendraThrottledClientError,
    KendraAccessDenied: KendraAccessDeniedClientError,
    KendraInvalidRequest: KendraInvalidRequestClientError,
    KendraResourceNotFound: KendraResourceNotFoundClientError,
    KendraUnavailable: KendraUnavailableClientError,
}


def client_error_twin(cls: type[KendraError]) -> type[KendraClientError]:
    """The class that is both ``cls`` and a ``ClientError``.

    >>> client_error_twin(KendraResourceNotFound).__name__
    'KendraResourceNotFoundClientError'
    """
    return _TWINS.get(cls, KendraClientError)
