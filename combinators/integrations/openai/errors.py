"""Translating the ``openai`` client's failures into the typed model errors (and their SDK twins)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Final, TypedDict

from effects.authoring import is_mapping
from effects.guards import is_subclass

from combinators.components.models.errors import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelNotFoundError,
    ModelResponseError,
    ModelStreamError,
    ModelTimeoutError,
)
from combinators._support.service_replies import parse_retry_after, safe_name

__all__ = ["translate_error"]


_SERVICE: Final = "openai"
_NOT_FOUND_HINT: Final = "check the model name, and that base_url ends in the API root such as /v1"


class _Context(TypedDict):
    model: str
    base_url: str
    service: str


def _server_message(body: object, fallback: str) -> str:
    # OpenAI and vLLM send {"message": ...}; Ollama sends {"error": "..."}, which the SDK
    # unwraps to the bare string. Kept as the error's detail: for the log, never shown.
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


def _retry_after(headers: Mapping[str, str]) -> float | None:
    # The SDK's own retries read retry-after-ms first, then retry-after (seconds).
    millis = parse_retry_after(headers.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000
    return parse_retry_after(headers.get("retry-after"))


def _field(body: object, key: str) -> object:
    return body.get(key) if is_mapping(body) else None


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
        error_class: object = getattr(module, "HTTPError", None)
        if is_subclass(error_class, BaseException):
            found.append(error_class)
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

    The class comes from the service-error family's one status mapping and is also the
    ``openai`` package's own class (see ``sdk_errors``). Its message names the provider,
    the status, the argument the server blamed and the wait it asked for; what the server
    said, the model and ``base_url`` stay on the error for the log. ``hint`` is added to
    authentication errors (say, where the key should have come from); ``streaming`` turns
    a lost connection into a ``ModelStreamError``.

    >>> translate_error(KeyError("x"), model="m", base_url="http://127.0.0.1:1/v1") is None
    True
    """
    try:
        import openai
    except ImportError:  # without the extra, nothing here came from the client
        return None
    from combinators.integrations.openai.sdk_errors import sdk_error

    context: _Context = {"model": model, "base_url": base_url, "service": _SERVICE}
    raised = type(error)
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        body = error.body
        cls = ModelAPIError.for_status(status)
        extra = ""
        if issubclass(cls, ModelAuthenticationError) and hint:
            extra = hint
        elif issubclass(cls, ModelNotFoundError):
            extra = _NOT_FOUND_HINT
        return sdk_error(
            cls,
            raised,
            _server_message(body, str(error)),
            status=status,
            code=_code(body),
            request_id=error.response.headers.get("x-request-id"),
            body=body,
            argument=safe_name(_field(body, "param")),
            retry_after=_retry_after(error.response.headers),
            hint=extra or None,
            response=error.response,
            **context,
        )
    if isinstance(error, openai.APITimeoutError):
        return sdk_error(ModelTimeoutError, raised, str(error), request=error.request, **context)
    if isinstance(error, openai.APIConnectionError):
        cause = error.__cause__ or error.__context__
        detail = f"{error}: {cause}" if cause is not None and str(cause) else str(error)
        cls = ModelStreamError if streaming else ModelConnectionError
        return sdk_error(cls, raised, detail, request=error.request, **context)
    if isinstance(error, openai.APIResponseValidationError):
        return sdk_error(ModelResponseError, raised, str(error), body=error.body, **context)
    if isinstance(error, openai.APIError):
        # An error event inside a stream (no HTTP status).
        body = error.body
        text = _server_message(body, str(error))
        return sdk_error(ModelStreamError, raised, text, code=_code(body), body=body, **context)
    if isinstance(error, _transport_errors()):
        cls = ModelStreamError if streaming else ModelConnectionError
        return cls(f"{type(error).__name__}: {error}", **context)
    return None
