"""Translating the ``openai`` client's failures into our typed model errors."""

from __future__ import annotations

import importlib
from typing import Any, cast

from effects.authoring import is_mapping

from combinators.components.models.errors import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelBadRequestError,
    ModelConnectionError,
    ModelNotFoundError,
    ModelRateLimitError,
    ModelResponseError,
    ModelServerError,
    ModelStreamError,
    ModelTimeoutError,
)

__all__ = ["translate_error"]


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
    if is_mapping(body):
        for key in ("message", "error", "detail"):
            value = body.get(key)
            if isinstance(value, str) and value:
                return value
            if is_mapping(value):
                return _server_message(value, fallback)
    return fallback


def _code(body: object) -> str | None:
    if is_mapping(body):
        code = body.get("code")
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
