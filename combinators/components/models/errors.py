"""Typed errors for model servers: the models' branch of the one service-error family.

Each error is a ``ServiceError`` of the matching family class (``ModelNotFoundError`` is
a ``ServiceNotFound``, so a ``LookupError``; ``ModelRateLimitError`` a
``ServiceRateLimited``), chosen by the family's one status mapping
(``ModelAPIError.for_status``). The ones worth trying again (429, 5xx, connection,
timeout, broken stream) are ``TransientModelError``\\ s, the family's
``TransientServiceError`` under its old name, so one retry policy covers models, remote
runnables and search services:

>>> from combinators import RunnableLambda
>>> retried = RunnableLambda(len).with_retry(retry_if_exception_type=(TransientModelError,))
>>> error = ModelNotFoundError("The model `gpt-nope` does not exist", status=404, model="gpt-nope")
>>> isinstance(error, LookupError), error.status, error.model, str(error)
(True, 404, 'gpt-nope', 'the model server has no such model (404)')

The status mapping picks each class, and each is its family class's builtin too:

>>> for status in (400, 401, 404, 408, 429, 503):
...     print(status, ModelAPIError.for_status(status).__name__)
400 ModelBadRequestError
401 ModelAuthenticationError
404 ModelNotFoundError
408 ModelTimeoutError
429 ModelRateLimitError
503 ModelServerError
>>> issubclass(ModelResponseError, ValueError), issubclass(ModelConnectionError, ConnectionError)
(True, True)

The first argument is what the server said: it is kept as ``detail`` for the log (a
traceback shows it, with the model and base URL, as a note) and never shown in ``str()``,
which a served chain may send to its clients. The OpenAI integration raises subclasses
that are also the ``openai`` package's own error classes. Errors pickle with their fields,
so batch results survive a trip to a worker process.
"""

from __future__ import annotations

import attrs

from combinators.service_errors import (
    ServiceAuthError,
    ServiceBadRequest,
    ServiceConnectionError,
    ServiceError,
    ServiceNotFound,
    ServiceRateLimited,
    ServiceResponseError,
    ServiceTimeout,
    ServiceUnavailable,
    TransientServiceError,
)

MODEL_SERVER = "the model server"

TransientModelError = TransientServiceError
"""The family's ``TransientServiceError`` (rate limits, 5xx, timeouts, network trouble).

>>> issubclass(ModelRateLimitError, TransientModelError)
True
"""


def _base_url(error: ModelAPIError) -> str | None:
    return error.base_url


@attrs.define(slots=False, kw_only=True, eq=False, repr=False, auto_exc=False, on_setattr=attrs.setters.NO_OP)
class ModelAPIError(ServiceError):
    """A model server answered with an error, or could not be reached.

    ``status`` is the HTTP status (``None`` when no response came); ``service`` the
    provider's name. Kept for the log, never shown: ``detail`` (the first argument: what
    the server said), ``model``, ``base_url`` (also ``url``), ``code`` (the server's error
    code such as ``"model_not_found"``), ``request_id`` (its ``x-request-id``) and ``body``.

    >>> error = ModelAPIError("teapot", status=418, model="m", base_url="http://127.0.0.1:1/v1")
    >>> str(error), error.status, error.detail
    ('the model server answered 418', 418, 'teapot')
    """

    # ServiceError's fields and these, declared the same way; the one positional argument
    # (``message``) is ``detail``, what the server said ("" for nothing), and ``url`` is ``base_url``.
    detail: str | None = attrs.field(default=None, alias="message", kw_only=False)
    service: str = MODEL_SERVER
    model: str | None = None
    base_url: str | None = None
    code: str | None = None
    request_id: str | None = None
    body: object = None
    url: str | None = attrs.field(init=False, default=attrs.Factory(_base_url, takes_self=True))

    def __attrs_post_init__(self) -> None:
        self.detail = self.detail or None
        super().__attrs_post_init__()

    def _log_fields(self) -> list[tuple[str, object]]:
        return [
            ("detail", self.detail),
            ("model", self.model),
            ("base_url", self.base_url),
            ("code", self.code),
            ("request_id", self.request_id),
        ]


class ModelAuthenticationError(ModelAPIError, ServiceAuthError):
    """401 or 403: the API key is missing, wrong, or may not use this model."""


class ModelNotFoundError(ModelAPIError, ServiceNotFound):
    """404: the server does not know the model (or ``base_url`` misses a path like ``/v1``)."""

    summary = "has no such model"


class ModelBadRequestError(ModelAPIError, ServiceBadRequest):
    """400, 409, 413 or 422: the server rejected the request (bad parameters, too long).

    >>> issubclass(ModelBadRequestError, ValueError), ModelAPIError.for_status(422).__name__
    (True, 'ModelBadRequestError')
    """


class ModelResponseError(ModelAPIError, ServiceResponseError):
    """The server's answer does not follow the protocol."""


class ModelRateLimitError(ModelAPIError, ServiceRateLimited):
    """429: too many requests (or, with ``code == "insufficient_quota"``, no credit left).

    >>> ModelRateLimitError("slow down", status=429, retry_after=2).retry_after
    2.0
    """


class ModelServerError(ModelAPIError, ServiceUnavailable):
    """5xx: the server failed.

    >>> ModelServerError("boom", status=503).status
    503
    """


class ModelConnectionError(ModelAPIError, ServiceConnectionError):
    """The server could not be reached."""


class ModelTimeoutError(ModelAPIError, ServiceTimeout):
    """The request took longer than the model's ``timeout`` (or the server answered 408/504)."""


class ModelStreamError(ModelAPIError, ServiceConnectionError):
    """A stream broke: the connection dropped, the server sent an error event, or the
    stream ended before the model said it was done.

    >>> issubclass(ModelStreamError, ConnectionError), str(ModelStreamError(service="openai"))
    (True, 'openai broke off the stream')
    """

    summary = "broke off the stream"
