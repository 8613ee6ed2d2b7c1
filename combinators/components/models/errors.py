"""Typed errors for OpenAI-compatible servers: what failed, with which status and model.

Each error is a ``CombinatorsError`` and, where one fits, the matching builtin
(``PermissionError`` for 401/403, ``LookupError`` for 404, ``ValueError`` for a
rejected request, ``ConnectionError`` / ``TimeoutError`` when the server could not be
reached or the stream broke). The ones worth trying again (429, 5xx, connection,
timeout, broken stream) share the base ``TransientModelError``, so retries and
fallbacks can target them:

>>> from combinators import RunnableLambda
>>> retried = RunnableLambda(len).with_retry(retry_if_exception_type=(TransientModelError,))
>>> error = ModelNotFoundError("no such model", status=404, model="gpt-nope")
>>> isinstance(error, LookupError), error.status, error.model
(True, 404, 'gpt-nope')

Errors pickle with their fields, so batch results survive a trip to a worker process.
"""

from __future__ import annotations

from typing import Any

from effects.errors import CombinatorsError

__all__ = [
    "ModelAPIError",
    "ModelAuthenticationError",
    "ModelBadRequestError",
    "ModelConnectionError",
    "ModelNotFoundError",
    "ModelRateLimitError",
    "ModelResponseError",
    "ModelServerError",
    "ModelStreamError",
    "ModelTimeoutError",
    "TransientModelError",
]


def _rebuild(cls: type[ModelAPIError], message: str, fields: dict[str, Any]) -> ModelAPIError:
    return cls(message, **fields)


class ModelAPIError(CombinatorsError):
    """A model server answered with an error, or could not be reached.

    ``status`` is the HTTP status (``None`` when no response came), ``model`` the model
    asked for, ``base_url`` the server, ``code`` the server's error code (such as
    ``"model_not_found"``) and ``request_id`` its ``x-request-id``.

    >>> error = ModelAPIError("teapot", status=418, model="m", base_url="http://127.0.0.1:1/v1")
    >>> str(error), error.status
    ('teapot', 418)
    """

    status: int | None
    model: str | None
    base_url: str | None
    code: str | None
    request_id: str | None
    body: object

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        model: str | None = None,
        base_url: str | None = None,
        code: str | None = None,
        request_id: str | None = None,
        body: object = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.model = model
        self.base_url = base_url
        self.code = code
        self.request_id = request_id
        self.body = body

    def __reduce__(self) -> tuple[Any, ...]:
        fields = {
            "status": self.status,
            "model": self.model,
            "base_url": self.base_url,
            "code": self.code,
            "request_id": self.request_id,
            "body": self.body,
        }
        return _rebuild, (type(self), str(self), fields)


class TransientModelError(ModelAPIError):
    """A failure that may pass on its own: rate limits, server errors, network trouble.

    >>> issubclass(ModelRateLimitError, TransientModelError)
    True
    """


class ModelAuthenticationError(ModelAPIError, PermissionError):
    """401 or 403: the API key is missing, wrong, or may not use this model.

    >>> issubclass(ModelAuthenticationError, PermissionError)
    True
    """


class ModelNotFoundError(ModelAPIError, LookupError):
    """404: the server does not know the model (or ``base_url`` misses a path like ``/v1``).

    >>> issubclass(ModelNotFoundError, LookupError)
    True
    """


class ModelBadRequestError(ModelAPIError, ValueError):
    """400, 409, 413 or 422: the server rejected the request (bad parameters, too long).

    >>> issubclass(ModelBadRequestError, ValueError)
    True
    """


class ModelResponseError(ModelAPIError, ValueError):
    """The server's answer does not follow the protocol.

    >>> issubclass(ModelResponseError, ValueError)
    True
    """


class ModelRateLimitError(TransientModelError):
    """429: too many requests (or, with ``code == "insufficient_quota"``, no credit left).

    >>> ModelRateLimitError("slow down", status=429).status
    429
    """


class ModelServerError(TransientModelError):
    """5xx: the server failed.

    >>> ModelServerError("boom", status=503).status
    503
    """


class ModelConnectionError(TransientModelError, ConnectionError):
    """The server could not be reached.

    >>> issubclass(ModelConnectionError, ConnectionError)
    True
    """


class ModelTimeoutError(TransientModelError, TimeoutError):
    """The request took longer than the model's ``timeout``.

    >>> issubclass(ModelTimeoutError, TimeoutError)
    True
    """


class ModelStreamError(TransientModelError, ConnectionError):
    """A stream broke: the connection dropped, the server sent an error event, or the
    stream ended before the model said it was done.

    >>> issubclass(ModelStreamError, ConnectionError)
    True
    """
