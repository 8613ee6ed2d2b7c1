"""Typed errors on the wire: how the server answers an exception, and what the client raises.

The server turns an exception into an ``ErrorInfo`` (status, type, message, whether
trying again may work) with the ``error_map`` it was given, falling back on
``default_error_info``: input errors (and a ``configurable`` the chain cannot take) 422, rate limits 429 and other transient model
errors 503 (both with ``Retry-After``), timeouts 504, anything else 500 with its message
scrubbed. ``/invoke`` and ``/batch`` answer it as a JSON body; a stream sends it as its
last frame (``event: error``).

>>> default_error_info(TimeoutError("slow"))
ErrorInfo(status_code=504, type='Timeout', message='slow', retryable=True, retry_after=None, detail=())
>>> default_error_info(KeyError("secret-key")).message
'Internal Server Error'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Final, TypeAlias, cast, final

import attrs

from combinators import ConfigurableError
from combinators.components import ModelRateLimitError, TransientModelError
from effects import InputError, InputValueError
from effects.projections import JsonValue
from effects.authoring import is_dict

log: Final = logging.getLogger("combinators.serving")


def _details(value: object) -> tuple[Mapping[str, JsonValue], ...]:
    return tuple(cast("tuple[Mapping[str, JsonValue], ...]", tuple(cast("tuple[object, ...]", value))))


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
            detail=tuple(cast("list[Mapping[str, JsonValue]]", detail)) if isinstance(detail, list) else (),
        )


ErrorMap: TypeAlias = Callable[[BaseException], ErrorInfo | None]
"""Turns an exception into its answer, or ``None`` to leave it to the defaults."""

INTERNAL_ERROR: Final = ErrorInfo(500, "InternalServerError", "Internal Server Error")
DEFAULT_RETRY_AFTER: Final = 1.0


def default_error_info(error: BaseException) -> ErrorInfo:
    """The default answer to an exception raised by a served chain.

    >>> default_error_info(ModelRateLimitError("slow down", status=429)).status_code
    429
    """
    from combinators.integrations.serving.remote_errors import RemoteRunnableError

    if isinstance(error, RemoteRunnableError):
        return error.info  # a remote chain's answer passes through as it was given
    if isinstance(error, InputError | InputValueError | ConfigurableError):
        return ErrorInfo(422, type(error).__name__, str(error))
    if isinstance(error, ModelRateLimitError):
        return ErrorInfo(429, type(error).__name__, str(error), True, DEFAULT_RETRY_AFTER)
    if isinstance(error, TransientModelError):
        return ErrorInfo(503, type(error).__name__, str(error), True, DEFAULT_RETRY_AFTER)
    if isinstance(error, TimeoutError):
        return ErrorInfo(504, "Timeout", str(error) or "the run took too long", True)
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
    return info


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
