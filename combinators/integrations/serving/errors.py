"""Typed errors on the wire: how the server answers an exception, and what the client raises.

The server turns an exception into an ``ErrorInfo`` (status, type, message, whether
trying again may work) with the ``error_map`` it was given, falling back on
``default_error_info``: a failure of a service the chain called (the service-error family:
models, remote runnables, Kendra) 429, 503, 504 or 502; input errors (and a
``configurable`` the chain cannot take) 422; timeouts 504; anything else 500. The message
is always built by the library from safe fields (never an exception's own text, an
upstream body, a URL or a key); the rest goes to the server's log. ``/invoke`` and
``/batch`` answer it as a JSON body; a stream sends it as its last frame (``event: error``).
An exception that is part of an output value is written by the same map (``error_value``).

>>> default_error_info(TimeoutError("model at http://10.0.0.7 took 2s"))
ErrorInfo(status_code=504, type='Timeout', message='the run took longer than its time limit', retryable=True, retry_after=None, detail=())
>>> default_error_info(KeyError("secret-key")).message
'Internal Server Error'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Final, TypeAlias, final

import attrs

from combinators import ConfigurableError
from combinators.service_errors import ServiceError, ServiceRateLimited, ServiceTimeout, TransientServiceError
from combinators import InputError, InputValueError
from effects.projections import JsonValue
from effects.projections.jsonable import to_jsonable
from effects.projections.sse import SAFE_ERROR_MESSAGE
from effects.authoring import is_dict

log: Final = logging.getLogger("combinators.serving")


def _detail_items(detail: object) -> tuple[Mapping[str, JsonValue], ...]:
    # Read from a parsed JSON body: its JSON form is itself; items that are not objects are dropped.
    listed = to_jsonable(detail)
    return tuple(item for item in listed if isinstance(item, dict)) if isinstance(listed, list) else ()


def _details(value: Iterable[Mapping[str, JsonValue]]) -> tuple[Mapping[str, JsonValue], ...]:
    return tuple(value)


@final
@attrs.frozen
class ErrorInfo:
    """How an error is answered: HTTP status, a type name, the message a client may see.

    ``retryable`` says whether the same request may succeed later; ``retry_after``
    (seconds) becomes the ``Retry-After`` header; ``detail`` lists what was wrong with
    a request (``{"loc": [...], "msg": ..., "type": ...}`` items, as FastAPI writes them).

    >>> ErrorInfo(429, "RateLimited", "slow down", retryable=True, retry_after=2.0).to_json()
    {'status_code': 429, 'type': 'RateLimited', 'message': 'slow down', 'retryable': True, 'retry_after': 2.0}
    """

    status_code: int
    type: str
    message: str
    retryable: bool = False
    retry_after: float | None = None
    detail: tuple[Mapping[str, JsonValue], ...] = attrs.field(default=(), converter=_details)

    def to_json(self) -> dict[str, JsonValue]:
        """The JSON body (and error frame data) for this error.

        >>> ErrorInfo(500, "InternalServerError", "Internal Server Error").to_json()["retryable"]
        False
        """
        body: dict[str, JsonValue] = {
            "status_code": self.status_code,
            "type": self.type,
            "message": self.message,
            "retryable": self.retryable,
        }
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        if self.detail:
            body["detail"] = [dict(item) for item in self.detail]
        return body

    @staticmethod
    def from_json(data: object, status_code: int = 500) -> ErrorInfo:
        """Read an error body or frame, ours or LangServe's (``{"status_code", "message"}``,
        ``{"detail": ...}``); what is missing is filled from ``status_code``.

        >>> ErrorInfo.from_json({"status_code": 500, "message": "Internal Server Error"})
        ErrorInfo(status_code=500, type='HTTP500', message='Internal Server Error', retryable=False, retry_after=None, detail=())
        """
        fields: Mapping[object, object] = data if is_dict(data) else {}
        status = fields.get("status_code", status_code)
        if not isinstance(status, int) or isinstance(status, bool):
            status = status_code
        kind = fields.get("type")
        message = fields.get("message")
        detail = fields.get("detail")
        if not isinstance(message, str):
            message = str(detail) if detail is not None else f"HTTP {status}"
        retry_after = fields.get("retry_after")
        return ErrorInfo(
            status,
            kind if isinstance(kind, str) else f"HTTP{status}",
            message,
            retryable=fields.get("retryable") is True or status in (429, 503),
            retry_after=float(retry_after) if isinstance(retry_after, int | float) else None,
            detail=_detail_items(detail),
        )


ErrorMap: TypeAlias = Callable[[BaseException], ErrorInfo | None]
"""Turns an exception into its answer, or ``None`` to leave it to the defaults."""

INTERNAL_ERROR: Final = ErrorInfo(500, "InternalServerError", SAFE_ERROR_MESSAGE)  # the SSE encoding's words too
DEFAULT_RETRY_AFTER: Final = 1.0


INPUT_MESSAGE: Final = "the chain cannot take this input"
TIMEOUT_MESSAGE: Final = "the run took longer than its time limit"


def service_error_info(error: ServiceError) -> ErrorInfo:
    """How a served chain answers a failure of a service it called (a model provider, a
    remote runnable, a search service): the family's type and safe message, never what the
    service said. A rate limit is 429 (its ``Retry-After`` when the service gave one), a
    timeout 504, another transient failure 503, anything else 502 (the service refused the
    server's request: not the client's doing).

    >>> from combinators.language_models import ModelNotFoundError
    >>> service_error_info(ModelNotFoundError("no model sk-123 at 10.0.0.7", status=404, service="openai"))
    ErrorInfo(status_code=502, type='ModelNotFoundError', message='openai has no such model (404)', retryable=False, retry_after=None, detail=())
    """
    kind = error.public_type
    if isinstance(error, ServiceRateLimited):
        return ErrorInfo(429, kind, str(error), True, error.retry_after or DEFAULT_RETRY_AFTER)
    if isinstance(error, ServiceTimeout):
        return ErrorInfo(504, kind, str(error), True)
    if isinstance(error, TransientServiceError):
        return ErrorInfo(503, kind, str(error), True, error.retry_after or DEFAULT_RETRY_AFTER)
    return ErrorInfo(502, kind, str(error))


def default_error_info(error: BaseException) -> ErrorInfo:
    """The default answer to an exception raised by a served chain: built by the library
    from safe fields only. Service errors as ``service_error_info`` says; input errors (and
    a ``configurable`` the chain cannot take) 422, timeouts 504, each with a fixed message
    (their own text can hold values from inside the chain); anything else 500.

    >>> from combinators.language_models import ModelRateLimitError
    >>> default_error_info(ModelRateLimitError("slow down", status=429)).status_code
    429
    >>> default_error_info(ValueError("x")).message
    'Internal Server Error'
    """
    if isinstance(error, ServiceError):
        return service_error_info(error)
    if isinstance(error, InputError | InputValueError | ConfigurableError):
        return ErrorInfo(422, type(error).__name__, INPUT_MESSAGE)
    if isinstance(error, TimeoutError):
        return ErrorInfo(504, "Timeout", TIMEOUT_MESSAGE, True)
    return INTERNAL_ERROR


def error_info(error: BaseException, error_map: ErrorMap | None, *, logged: bool = True) -> ErrorInfo:
    """``error_map``'s answer, else the default; a 500 is logged with its traceback (unless
    ``logged`` is False: an inner run's error, which its root's answer logs).

    >>> error_info(ValueError("x"), lambda e: ErrorInfo(400, "Bad", str(e))).status_code
    400
    """
    info: ErrorInfo | None = None
    if error_map is not None:
        try:
            info = error_map(error)
        except Exception:
            log.exception("the error_map raised while mapping %r", error)
    if info is None:
        info = default_error_info(error)
    if logged and info.status_code >= 500 and info.status_code not in (503, 504):
        log.error("a served run failed", exc_info=error)
    elif logged and isinstance(error, ServiceError):
        # A rate limit or an outage upstream: one line for the log, with what the service said.
        log.warning("a served run failed: %s %s", type(error).__name__, _log_text(error))
    return info


def error_value(error: BaseException, error_map: ErrorMap | None) -> dict[str, JsonValue]:
    """An exception that is part of a served value (a ``Failure``, a tool outcome, a batch
    with ``return_exceptions``, an exception in a dict...), as the client gets it: its
    type's name (a service error's public one) and the message ``error_map`` (or the
    default) allows for it, never its own text. Nothing is logged: the run did not fail.

    >>> error_value(ValueError("POST https://internal/x?key=sk-live-1 failed"), None)
    {'type': 'error', 'error_type': 'ValueError', 'message': 'Internal Server Error'}
    >>> from combinators.language_models import ModelRateLimitError
    >>> error_value(ModelRateLimitError("quota of org-7", status=429, service="openai"), None)["message"]
    'openai rate-limited the request (429)'
    """
    kind = error.public_type if isinstance(error, ServiceError) else type(error).__name__
    return {"type": "error", "error_type": kind, "message": error_info(error, error_map, logged=False).message}


def _log_text(error: BaseException) -> str:
    text = "; ".join([str(error), *getattr(error, "__notes__", ())])
    return text if len(text) <= 1000 else text[:1000] + "..."


@final
class Rejected(Exception):
    """A request refused before anything ran (bad body, no principal, too big, busy).

    >>> Rejected(ErrorInfo(413, "TooLarge", "body too large")).info.status_code
    413
    """

    def __init__(self, info: ErrorInfo) -> None:
        super().__init__(info.message)
        self.info = info


def invalid(message: str, *detail: Mapping[str, JsonValue]) -> Rejected:
    """A 422 for a request body that is not what the route takes.

    >>> invalid("bad", {"loc": ["body"], "msg": "x", "type": "type"}).info.detail[0]["loc"]
    ['body']
    """
    return Rejected(ErrorInfo(422, "RequestValidationError", message, detail=detail))
