"""One family of errors for the services a chain calls: model providers, remote runnables,
search services. One mapping from an HTTP status to a class, and messages safe to show.

``service_error_class`` is the one status-to-class mapping. Each class is also the
matching builtin (``ValueError`` for a rejected request, ``PermissionError``, ``LookupError``,
``TimeoutError``, ``ConnectionError``), and the ones worth trying again (429, 5xx,
timeouts, connection trouble) share ``TransientServiceError``:

>>> [service_error_class(s).__name__ for s in (400, 401, 404, 413, 429, 503, 504)]
['ServiceBadRequest', 'ServiceAuthError', 'ServiceNotFound', 'ServicePayloadTooLarge', 'ServiceRateLimited', 'ServiceUnavailable', 'ServiceTimeout']
>>> error = ServiceRateLimited(status=429, service="openai", retry_after=2.0, detail="key sk-123 over quota")
>>> str(error), error.retryable
('openai rate-limited the request (429); retry after 2 s', True)

``str()`` is built from the SAFE fields only: ``status``, ``service`` (the provider's
name), ``argument`` (which argument), ``limit`` (which limit), ``retry_after`` and a
``hint`` the library wrote. What the service said (``detail``) and where it lives
(``url``) are kept on the error for the server's log (a traceback shows them as a note)
and never reach ``str()``, ``repr()`` or a served chain's answer, since an upstream body
can hold keys, organisation ids and internal addresses.

Domains (models, remote runnables, Kendra) subclass the family; ``for_status`` finds a
domain's class for a status. Every error pickles with its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar, Final, TypeVar

import attrs

from combinators._support.service_replies import parse_retry_after as _parse_retry_after
from effects.deprecation import Moved, moved_exports
from effects.errors import CombinatorsError

E = TypeVar("E", bound="ServiceError")


def _seconds(value: float) -> str:
    return f"{value:g} s"


def _rebuild(cls: Callable[..., ServiceError], args: tuple[object, ...], kwargs: Mapping[str, object]) -> ServiceError:
    return cls(*args, **kwargs)


@attrs.define(slots=False, kw_only=True, eq=False, repr=False, auto_exc=False, on_setattr=attrs.setters.NO_OP)
class ServiceError(CombinatorsError):
    """A service answered with an error, or could not be reached.

    Safe fields (shown): ``status`` (``None`` when no answer came), ``service``,
    ``argument``, ``limit``, ``retry_after``, ``hint``. Unsafe fields (kept for the log):
    ``detail`` (what the service said), ``url``. ``retryable`` says whether trying again
    may work.

    >>> error = ServiceError(status=418, service="teapots", detail="secret body", url="http://10.1.2.3/")
    >>> str(error), error.detail, error.retryable
    ('teapots answered 418', 'secret body', False)
    """

    # The fields, declared once (attrs writes the keyword-only constructor). Not slotted: the
    # family's classes also inherit builtins and SDK classes of their own layout; no attrs
    # repr or eq: an error's repr is its safe message, and errors compare by identity.

    retryable: ClassVar[bool] = False
    summary: ClassVar[str] = ""
    """What happened, after the service's name ("rate-limited the request"); empty: by status."""
    sdk_twin: ClassVar[bool] = False
    """True on an integration's subclass that also inherits its SDK's error class (and on its subclasses)."""

    status: int | None = None
    service: str = "the service"
    argument: str | None = None
    limit: str | None = None
    retry_after: float | None = None
    hint: str | None = None
    detail: str | None = None
    url: str | None = None

    def __attrs_post_init__(self) -> None:
        self.retry_after = _parse_retry_after(self.retry_after)  # a header's text, or seconds
        # Not super(): an SDK class later in an integration subclass's MRO would want its own
        # arguments (a live HTTP response); the message is all the exception itself holds.
        BaseException.__init__(self, self.safe_message())
        unsafe = [f"{name}: {value}" for name, value in self._log_fields() if value is not None and value != ""]
        if unsafe:
            # Shown in tracebacks (the server's log), never in str(), repr() or an answer.
            self.add_note("(not shown to clients) " + "; ".join(unsafe))

    def safe_message(self) -> str:
        """The message a client may see, from the safe fields only.

        >>> ServiceBadRequest(status=400, service="openai", argument="temperature").safe_message()
        "openai rejected the request (400): argument 'temperature'"
        """
        if self.summary:
            text = f"{self.service} {self.summary}"
            if self.status is not None:
                text += f" ({self.status})"
        else:
            text = f"{self.service} failed" if self.status is None else f"{self.service} answered {self.status}"
        if self.argument is not None:
            text += f": argument {self.argument!r}"
        if self.limit is not None:
            text += f"; limit: {self.limit}"
        if self.retry_after is not None:
            text += f"; retry after {_seconds(self.retry_after)}"
        if self.hint:
            text += f" ({self.hint})"
        return text

    @property
    def public_type(self) -> str:
        """The class name a client is shown (an SDK twin shows the library class it extends).

        >>> ServiceNotFound(status=404).public_type
        'ServiceNotFound'
        """
        for cls in type(self).__mro__:
            if not getattr(cls, "sdk_twin", False):
                return cls.__name__
        return type(self).__name__  # pragma: no cover - ServiceError itself is never a twin

    @classmethod
    def for_status(cls: type[E], status: int | None) -> type[E]:
        """This class's most specific subclass for ``status`` under the one mapping.

        A domain (say ``ModelAPIError``) need not subclass every family class: the
        nearest family ancestor it has a class for is used.

        >>> ServiceError.for_status(422).__name__, ServiceError.for_status(None).__name__
        ('ServiceUnprocessable', 'ServiceError')
        """
        return cls.in_family(service_error_class(status) if status is not None else ServiceError)

    @classmethod
    def in_family(cls: type[E], family: type[ServiceError]) -> type[E]:
        """This class's most specific subclass for the family class ``family``.

        >>> ServiceError.in_family(ServiceRateLimited).__name__, TransientServiceError.in_family(ServiceNotFound).__name__
        ('ServiceRateLimited', 'TransientServiceError')
        """
        for wanted in family.__mro__:
            if issubclass(wanted, cls):
                return wanted  # cls is a family class above ``wanted``
            for candidate in _subclasses(cls):
                if wanted in candidate.__bases__ and not candidate.sdk_twin:
                    return candidate
            if wanted is ServiceError:
                break
        return cls

    def _log_fields(self) -> list[tuple[str, object]]:
        """The unsafe fields a traceback's note shows (subclasses add theirs)."""
        return [("detail", self.detail), ("url", self.url)]

    def _constructor_args(self) -> tuple[tuple[object, ...], dict[str, object]]:
        """The arguments that rebuild this error: its attrs fields (subclasses with other constructors override)."""
        return (), {field.alias: getattr(self, field.name) for field in attrs.fields(type(self)) if field.init}

    def __reduce__(self) -> tuple[object, ...]:
        args, kwargs = self._constructor_args()
        return _rebuild, (type(self), args, kwargs)


def _subclasses(cls: type[E]) -> list[type[E]]:
    found: list[type[E]] = []
    stack = [cls]
    while stack:
        current = stack.pop()
        for sub in current.__subclasses__():
            if sub not in found:
                found.append(sub)
                stack.append(sub)
    return found


class TransientServiceError(ServiceError):
    """A failure that may pass on its own: rate limits, 5xx, timeouts, network trouble.

    >>> TransientServiceError.retryable, issubclass(ServiceRateLimited, TransientServiceError)
    (True, True)
    """

    retryable = True


class ServiceBadRequest(ServiceError, ValueError):
    """400: the service rejected the request (``argument`` names what, when it said).

    >>> str(ServiceBadRequest(status=400, service="openai", detail="raw body"))
    'openai rejected the request (400)'
    """

    summary = "rejected the request"


class ServiceConflict(ServiceBadRequest):
    """409: the request conflicts with the service's state.

    >>> str(ServiceConflict(status=409, service="s"))
    's reported a conflict (409)'
    """

    summary = "reported a conflict"


class ServicePayloadTooLarge(ServiceBadRequest):
    """413: the request is larger than the service takes (``limit`` says which, if known).

    >>> str(ServicePayloadTooLarge(status=413, service="s", limit="1048576 bytes"))
    's refused a request too large (413); limit: 1048576 bytes'
    """

    summary = "refused a request too large"


class ServiceUnprocessable(ServiceBadRequest):
    """422: the request was well formed but the service cannot process it.

    >>> issubclass(ServiceUnprocessable, ValueError)
    True
    """

    summary = "could not process the request"


class ServiceAuthError(ServiceError, PermissionError):
    """401 or 403: the credentials are missing, wrong, or may not do this.

    >>> str(ServiceAuthError(status=401, service="openai", detail="Incorrect API key sk-abc"))
    'openai refused the credentials (401)'
    """

    summary = "refused the credentials"


class ServiceNotFound(ServiceError, LookupError):
    """404: the service does not know what was asked for.

    >>> issubclass(ServiceNotFound, LookupError)
    True
    """

    summary = "found no such resource"


class ServiceResponseError(ServiceError, ValueError):
    """The service's answer does not follow its protocol.

    >>> str(ServiceResponseError(service="openai"))
    'openai sent an invalid response'
    """

    summary = "sent an invalid response"


class ServiceRateLimited(TransientServiceError):
    """429: too many requests; ``retry_after`` says how long to wait, when the service said.

    >>> ServiceRateLimited(status=429, retry_after="3").retry_after
    3.0
    """

    summary = "rate-limited the request"


class ServiceUnavailable(TransientServiceError):
    """5xx (but 504): the service failed or is unavailable for now.

    >>> str(ServiceUnavailable(status=502, service="openai", detail="<html>gateway 10.0.0.7</html>"))
    'openai is unavailable (502)'
    """

    summary = "is unavailable"


class ServiceTimeout(TransientServiceError, TimeoutError):
    """408 or 504, or no answer in time.

    >>> issubclass(ServiceTimeout, TimeoutError), str(ServiceTimeout(service="s", limit="5 s"))
    (True, 's timed out; limit: 5 s')
    """

    summary = "timed out"


class ServiceConnectionError(TransientServiceError, ConnectionError):
    """The service could not be reached, or the connection broke mid-answer.

    >>> str(ServiceConnectionError(service="kendra", detail="10.0.0.3:443 refused"))
    'kendra could not be reached'
    """

    summary = "could not be reached"


_BY_STATUS: Final[dict[int, type[ServiceError]]] = {
    400: ServiceBadRequest,
    401: ServiceAuthError,
    403: ServiceAuthError,
    404: ServiceNotFound,
    408: ServiceTimeout,
    409: ServiceConflict,
    413: ServicePayloadTooLarge,
    422: ServiceUnprocessable,
    429: ServiceRateLimited,
    504: ServiceTimeout,
}


def service_error_class(status: int) -> type[ServiceError]:
    """The family class for an HTTP error status (the one mapping every domain uses).

    >>> service_error_class(500).__name__, service_error_class(418).__name__, service_error_class(451).__name__
    ('ServiceUnavailable', 'ServiceError', 'ServiceError')
    """
    found = _BY_STATUS.get(status)
    if found is not None:
        return found
    if 500 <= status <= 599:
        return ServiceUnavailable
    return ServiceError


if not TYPE_CHECKING:
    # Where the two readers of a service's reply went (they are not errors); old imports warn.
    __getattr__ = moved_exports(
        __name__, dict.fromkeys(("parse_retry_after", "safe_name"), Moved("combinators._support.service_replies"))
    )
