"""What a ``RemoteRunnable`` raises when the server answers with an error: the remote branch
of the one service-error family.

The class comes from the family's one status mapping (``RemoteRunnableError.for_status``):
``RemoteInputError`` (a ``ValueError``) for 400, 409, 413, 422; ``RemoteAuthError`` (a
``PermissionError``) for 401/403; ``RemoteRateLimited`` for 429, ``RemoteUnavailable`` for
5xx, ``RemoteTimeout`` for 408/504 and ``RemoteConnectionError`` when no answer came: these
are ``RemoteTransientError``\\ s, also ``TransientModelError``\\ s (the family's
``TransientServiceError``), so one retry policy covers local and remote models.

The message is built here from the answer's safe fields (status, type name, retry-after);
the server's own message and the URL are kept (``info``, ``detail``, ``url``) for the log,
never shown, so a served chain that calls this one relays nothing it was told:

>>> from combinators.integrations.serving.errors import ErrorInfo
>>> info = ErrorInfo(429, "ModelRateLimitError", "key sk-live-123 at 10.0.0.7", True, 2.0)
>>> error = remote_error(info, "http://10.0.0.7:8000/chat")
>>> type(error).__name__, str(error), isinstance(error, TransientModelError)
('RemoteRateLimited', 'the remote runnable answered 429 ModelRateLimitError; retry after 2 s', True)

The mapping above, as the code has it:

>>> for status in (400, 403, 429, 502, 504):
...     print(status, RemoteRunnableError.for_status(status).__name__)
400 RemoteInputError
403 RemoteAuthError
429 RemoteRateLimited
502 RemoteUnavailable
504 RemoteTimeout
>>> issubclass(RemoteUnavailable, RemoteTransientError), issubclass(RemoteTimeout, TimeoutError)
(True, True)
"""

from __future__ import annotations

from typing import Final

from combinators.language_models import TransientModelError
from combinators.integrations.serving.errors import ErrorInfo
from combinators._support.service_replies import safe_name
from combinators.service_errors import (
    ServiceAuthError,
    ServiceBadRequest,
    ServiceConnectionError,
    ServiceError,
    ServiceRateLimited,
    ServiceTimeout,
    ServiceUnavailable,
)

__all__ = [
    "RemoteAuthError",
    "RemoteConnectionError",
    "RemoteInputError",
    "RemoteRateLimited",
    "RemoteRunnableError",
    "RemoteTimeout",
    "RemoteTransientError",
    "RemoteUnavailable",
    "remote_error",
]

REMOTE: Final = "the remote runnable"


class RemoteRunnableError(ServiceError):
    """The server answered with an error (``answered``), or gave no answer: ``info`` is what
    it said, ``url`` where; both are kept off the message.

    >>> error = RemoteRunnableError(ErrorInfo(500, "InternalServerError", "at 10.1.1.1"), "http://h/chat")
    >>> str(error), error.info.message, error.url
    ('the remote runnable answered 500 InternalServerError', 'at 10.1.1.1', 'http://h/chat')
    """

    info: ErrorInfo
    answered: bool

    def __init__(self, info: ErrorInfo, url: str, *, answered: bool = True, hint: str | None = None) -> None:
        self.info = info
        self.answered = answered
        super().__init__(
            status=info.status_code if answered else None,
            service=REMOTE,
            retry_after=info.retry_after,
            hint=hint,
            detail=info.message,
            url=url,
        )

    def safe_message(self) -> str:
        if not self.answered:
            return super().safe_message()
        kind = safe_name(self.info.type)
        text = f"{self.service} answered {self.info.status_code}" + (f" {kind}" if kind else "")
        if self.retry_after is not None:
            text += f"; retry after {self.retry_after:g} s"
        return text + (f" ({self.hint})" if self.hint else "")

    @property
    def status_code(self) -> int:
        """The HTTP status the server gave (503/504 for no answer, as the client reads it).

        >>> RemoteRunnableError(ErrorInfo(418, "Teapot", "no"), "u").status_code
        418
        """
        return self.info.status_code

    @property
    def base_url(self) -> str | None:
        """The server's URL (``url``; for the log, never shown).

        >>> RemoteRunnableError(ErrorInfo(418, "Teapot", "no"), "http://h/x").base_url
        'http://h/x'
        """
        return self.url

    def _constructor_args(self) -> tuple[tuple[object, ...], dict[str, object]]:
        return (self.info, self.url), {"answered": self.answered, "hint": self.hint}


class RemoteInputError(RemoteRunnableError, ServiceBadRequest):
    """The server refused the request (400 bad JSON, 409, 413 too large, 422 invalid input)."""


class RemoteAuthError(RemoteRunnableError, ServiceAuthError):
    """401 or 403: the server did not accept the credentials."""


class RemoteTransientError(RemoteRunnableError, TransientModelError):
    """A failure that may pass: 429, 5xx, a timeout, or the server could not be reached."""


class RemoteRateLimited(RemoteTransientError, ServiceRateLimited):
    """429: too many requests; ``retry_after`` says how long to wait when the server said.

    >>> RemoteRateLimited(ErrorInfo(429, "RateLimited", "slow", True, 1.0), "u").status
    429
    """


class RemoteUnavailable(RemoteTransientError, ServiceUnavailable):
    """5xx: the server is busy (``max_concurrent_runs``), failed, or a model behind it did."""


class RemoteTimeout(RemoteTransientError, ServiceTimeout):
    """504 (or 408): the run took longer than the server allows, or no answer came in time."""


class RemoteConnectionError(RemoteTransientError, ServiceConnectionError):
    """The server could not be reached, or the connection broke mid-answer.

    >>> str(RemoteConnectionError(ErrorInfo(503, "ConnectionError", "10.0.0.9 refused"), "u", answered=False))
    'the remote runnable could not be reached'
    """


def remote_error(info: ErrorInfo, url: str) -> RemoteRunnableError:
    """The typed exception for the server's answer (the family's status mapping).

    >>> type(remote_error(ErrorInfo(422, "RequestValidationError", "bad"), "u")).__name__
    'RemoteInputError'
    """
    return RemoteRunnableError.for_status(info.status_code)(info, url)
