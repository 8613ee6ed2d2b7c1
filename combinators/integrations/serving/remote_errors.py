"""What a ``RemoteRunnable`` raises when the server answers with an error.

Each is a ``RemoteRunnableError`` carrying the server's ``ErrorInfo`` and, where one fits, the
matching builtin: ``ValueError`` for a rejected request (400, 413, 422),
``PermissionError`` for 401/403, ``TimeoutError`` for 504. Rate limits (429), an
unavailable server (503) and connection failures are ``RemoteTransientError``\\ s, which
are also ``TransientModelError``\\ s, so one retry policy covers local and remote models:

>>> from combinators.integrations.serving.errors import ErrorInfo
>>> error = remote_error(ErrorInfo(429, "ModelRateLimitError", "slow down", True, 2.0), "http://127.0.0.1:8000/chat")
>>> type(error).__name__, error.retry_after, isinstance(error, TransientModelError)
('RemoteRateLimited', 2.0, True)
"""

from __future__ import annotations

from typing import Any

from combinators.components import TransientModelError
from combinators.integrations.serving.errors import ErrorInfo
from effects import CombinatorsError


class RemoteRunnableError(CombinatorsError):
    """The server answered with an error: ``info`` says what, ``url`` where.

    >>> str(RemoteRunnableError(ErrorInfo(500, "InternalServerError", "Internal Server Error"), "http://h/chat"))
    'http://h/chat answered 500 InternalServerError: Internal Server Error'
    """

    info: ErrorInfo
    url: str

    def __init__(self, info: ErrorInfo, url: str) -> None:
        super().__init__(f"{url} answered {info.status_code} {info.type}: {info.message}")
        self.info = info
        self.url = url

    @property
    def status_code(self) -> int:
        """The HTTP status the server gave.

        >>> RemoteRunnableError(ErrorInfo(418, "Teapot", "no"), "u").status_code
        418
        """
        return self.info.status_code

    @property
    def retry_after(self) -> float | None:
        """Seconds the server asked to wait before trying again, if it said.

        >>> RemoteRunnableError(ErrorInfo(500, "E", "m"), "u").retry_after is None
        True
        """
        return self.info.retry_after

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.info, self.url)


class RemoteInputError(RemoteRunnableError, ValueError):
    """The server refused the request (400 bad JSON, 413 too large, 422 invalid input).

    >>> issubclass(RemoteInputError, ValueError)
    True
    """


class RemoteAuthError(RemoteRunnableError, PermissionError):
    """401 or 403: the server did not accept the credentials.

    >>> issubclass(RemoteAuthError, PermissionError)
    True
    """


class RemoteTimeout(RemoteRunnableError, TimeoutError):
    """504: the run took longer than the server allows.

    >>> issubclass(RemoteTimeout, TimeoutError)
    True
    """


class RemoteTransientError(RemoteRunnableError, TransientModelError):
    """A failure that may pass: 429, 503, or the server could not be reached.

    >>> issubclass(RemoteTransientError, TransientModelError)
    True
    """

    def __init__(self, info: ErrorInfo, url: str) -> None:
        super().__init__(info, url)
        self.status = info.status_code
        self.base_url = url


class RemoteRateLimited(RemoteTransientError):
    """429: too many requests; ``retry_after`` says how long to wait when the server said.

    >>> RemoteRateLimited(ErrorInfo(429, "RateLimited", "slow", True, 1.0), "u").status
    429
    """


class RemoteUnavailable(RemoteTransientError):
    """503: the server is busy (``max_concurrent_runs``) or a model behind it failed for now.

    >>> issubclass(RemoteUnavailable, RemoteTransientError)
    True
    """


class RemoteConnectionError(RemoteTransientError, ConnectionError):
    """The server could not be reached, or the connection broke mid-answer.

    >>> issubclass(RemoteConnectionError, ConnectionError)
    True
    """


def remote_error(info: ErrorInfo, url: str) -> RemoteRunnableError:
    """The typed exception for the server's answer.

    >>> type(remote_error(ErrorInfo(422, "RequestValidationError", "bad"), "u")).__name__
    'RemoteInputError'
    """
    status = info.status_code
    if status in (400, 413, 422):
        return RemoteInputError(info, url)
    if status in (401, 403):
        return RemoteAuthError(info, url)
    if status == 429:
        return RemoteRateLimited(info, url)
    if status == 503:
        return RemoteUnavailable(info, url)
    if status == 504:
        return RemoteTimeout(info, url)
    return RemoteRunnableError(info, url)
