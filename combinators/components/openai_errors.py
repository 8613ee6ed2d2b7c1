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

import importlib
from collections.abc import Mapping
from typing import Any, cast

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
    "translate_error",
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


def _status_class(status: int) -> type[ModelAPIError]:
    if status in (401, 403):
        return ModelAuthenticationError
    if status == 404:
        return ModelNotFoundError
    if status == 429:
        return ModelRateLimitError
    if status >= 500:
        return ModelServerError
    if status in (400, 409, 413, 422):
        return ModelBadRequestError
    return ModelAPIError


def _server_message(body: object, fallback: str) -> str:
    # OpenAI and vLLM send {"message": ...}; Ollama sends {"error": "..."}, which the SDK
    # unwraps to the bare string.
    if isinstance(body, str) and body:
        return body
    if isinstance(body, Mapping):
        fields = cast("Mapping[str, object]", body)
        for key in ("message", "error", "detail"):
            value = fields.get(key)
            if isinstance(value, str) and value:
                return value
            if isinstance(value, Mapping):
                return _server_message(cast(object, value), fallback)
    return fallback


def _code(body: object) -> str | None:
    if isinstance(body, Mapping):
        code = cast("Mapping[str, object]", body).get("code")
        return None if code is None else str(code)
    return None


def _transport_errors() -> tuple[type[BaseException], ...]:
    # Older SDKs let httpx errors escape while a stream is read; newer ones wrap them.
    found: list[type[BaseException]] = []
    for name in ("httpx", "httpx2"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        found.append(cast("type[BaseException]", module.HTTPError))
    return tuple(found)


def translate_error(
    error: BaseException,
    *,
    model: str,
    base_url: str,
    streaming: bool = False,
    hint: str = "",
) -> ModelAPIError | None:
    """The typed error for a failure of the ``openai`` client (``None`` for anything else).

    ``hint`` is added to authentication errors (say, where the key should have come
    from); ``streaming`` turns a lost connection into a ``ModelStreamError``.

    >>> translate_error(KeyError("x"), model="m", base_url="http://127.0.0.1:1/v1") is None
    True
    """
    try:
        import openai
    except ImportError:  # without the extra, nothing here came from the client
        return None
    where = f"{base_url} (model {model!r})"
    context: dict[str, Any] = {"model": model, "base_url": base_url}
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        body = error.body
        cls = _status_class(status)
        text = _server_message(body, str(error))
        extra = ""
        if cls is ModelAuthenticationError and hint:
            extra = f" ({hint})"
        elif cls is ModelNotFoundError:
            extra = " (check the model name, and that base_url ends in the API root such as /v1)"
        return cls(
            f"{status} from {where}: {text}{extra}",
            status=status,
            code=_code(body),
            request_id=error.response.headers.get("x-request-id"),
            body=body,
            **context,
        )
    if isinstance(error, openai.APITimeoutError):
        return ModelTimeoutError(f"timed out waiting for {where}", **context)
    if isinstance(error, openai.APIConnectionError):
        cause = error.__cause__ or error.__context__
        detail = f": {cause}" if cause is not None and str(cause) else ""
        if streaming:
            return ModelStreamError(f"the stream from {where} broke{detail}", **context)
        return ModelConnectionError(f"could not reach {where}{detail}", **context)
    if isinstance(error, openai.APIResponseValidationError):
        return ModelResponseError(f"{where} sent an invalid response: {error}", **context)
    if isinstance(error, openai.APIError):
        # An error event inside a stream (no HTTP status).
        body = error.body
        text = _server_message(body, str(error))
        return ModelStreamError(f"{where} sent an error in the stream: {text}", code=_code(body), body=body, **context)
    if isinstance(error, _transport_errors()):
        cls = ModelStreamError if streaming else ModelConnectionError
        return cls(f"connection to {where} failed: {type(error).__name__}: {error}", **context)
    return None
