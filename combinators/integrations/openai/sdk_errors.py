"""Model errors that are also the ``openai`` package's own: ``except openai.NotFoundError`` works.

Imported only once a call's failure came from the ``openai`` client (so the SDK is already
loaded); importing the library never imports it. Each class extends the library's model
error and the SDK's class of the same meaning, and keeps the SDK's attributes
(``status_code``, ``response``, ``body``, ``request_id``, ``code``, ``param``, ``type``,
``message``, where ``message`` is the safe message). A served chain shows the library
class's name (``public_type``), never the twin's. They pickle; the HTTP ``response`` and
``request`` do not travel (``None`` after a round trip).

>>> import openai
>>> error = OpenAINotFoundError("no such model", status=404, model="gpt-nope", service="openai")
>>> isinstance(error, openai.NotFoundError), isinstance(error, ModelNotFoundError), error.status_code
(True, True, 404)
>>> error.public_type
'ModelNotFoundError'

One twin per pair of a library class and an SDK class (``sdk_twin`` finds it); each twin
inherits ``sdk_twin = True`` from ``OpenAIModelError``:

>>> for twin in _TWINS:
...     print(f"{twin.__name__:31} {_library_class(twin).__name__:24} openai.{_sdk_class(twin).__name__}")
OpenAIBadRequestError           ModelBadRequestError     openai.BadRequestError
OpenAIConflictError             ModelBadRequestError     openai.ConflictError
OpenAIUnprocessableEntityError  ModelBadRequestError     openai.UnprocessableEntityError
OpenAIRequestTooLargeError      ModelBadRequestError     openai.APIStatusError
OpenAIAuthenticationError       ModelAuthenticationError openai.AuthenticationError
OpenAIPermissionDeniedError     ModelAuthenticationError openai.PermissionDeniedError
OpenAINotFoundError             ModelNotFoundError       openai.NotFoundError
OpenAIRateLimitError            ModelRateLimitError      openai.RateLimitError
OpenAIInternalServerError       ModelServerError         openai.InternalServerError
OpenAIGatewayTimeoutError       ModelTimeoutError        openai.InternalServerError
OpenAITimeoutError              ModelTimeoutError        openai.APITimeoutError
OpenAIConnectionError           ModelConnectionError     openai.APIConnectionError
OpenAIStreamConnectionError     ModelStreamError         openai.APIConnectionError
OpenAIStreamError               ModelStreamError         openai.APIError
OpenAIResponseValidationError   ModelResponseError       openai.APIResponseValidationError
OpenAIAPIStatusError            ModelAPIError            openai.APIStatusError
>>> all(sdk_twin(_library_class(twin), _sdk_class(twin)) is twin and twin.sdk_twin for twin in _TWINS)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, Protocol, TypedDict

import openai

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
from effects.authoring import is_mapping

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "ModelErrorFields",
    "OpenAIAPIStatusError",
    "OpenAIAuthenticationError",
    "OpenAIBadRequestError",
    "OpenAIConflictError",
    "OpenAIConnectionError",
    "OpenAIGatewayTimeoutError",
    "OpenAIInternalServerError",
    "OpenAINotFoundError",
    "OpenAIPermissionDeniedError",
    "OpenAIRateLimitError",
    "OpenAIRequestTooLargeError",
    "OpenAIResponseValidationError",
    "OpenAIStreamConnectionError",
    "OpenAIStreamError",
    "OpenAITimeoutError",
    "OpenAIUnprocessableEntityError",
    "SdkResponse",
    "sdk_error",
    "sdk_twin",
]


class ModelErrorFields(TypedDict, total=False):
    """The keyword fields of a ``ModelAPIError`` (what ``sdk_error`` passes on to it).

    >>> fields: ModelErrorFields = {"model": "m", "status": 429}
    >>> ModelAPIError("slow", **fields).status
    429
    """

    status: int | None
    model: str | None
    base_url: str | None
    code: str | None
    request_id: str | None
    body: object
    service: str
    argument: str | None
    limit: str | None
    retry_after: float | None
    hint: str | None


class SdkResponse(Protocol):
    """What an error keeps of the SDK's HTTP response (``httpx.Response`` or its fork's).

    >>> import httpx
    >>> response: SdkResponse = httpx.Response(200, request=httpx.Request("GET", "http://h/"))
    >>> str(response.request.url)
    'http://h/'
    """

    @property
    def request(self) -> object: ...


def _body_text(body: object, key: str) -> str | None:
    value = body.get(key) if is_mapping(body) else None
    return value if isinstance(value, str) else None


class OpenAIModelError(ModelAPIError):
    """The fields the ``openai`` classes carry, filled without running their ``__init__``
    (which needs a live response). The base of every twin below.

    >>> OpenAIModelError("x", status=418, body={"param": "n"}).param
    'n'
    """

    sdk_twin: ClassVar[bool] = True

    def __init__(
        self,
        message: str = "",
        *,
        response: SdkResponse | None = None,
        request: object = None,
        **fields: Unpack[ModelErrorFields],
    ) -> None:
        super().__init__(message, **fields)
        # The SDK's attribute names, for code written against its classes.
        self.message = str(self)
        # Through __dict__, as status_code below: each SDK class types them as its own.
        self.__dict__["response"] = response
        self.__dict__["request"] = request if request is not None or response is None else response.request
        if self.status is not None:  # the SDK's connection errors have no status_code either
            # Through __dict__: each SDK class types it as the Literal of its own status.
            self.__dict__["status_code"] = self.status
        self.param = _body_text(self.body, "param")
        self.type = _body_text(self.body, "type")


class OpenAIBadRequestError(OpenAIModelError, ModelBadRequestError, openai.BadRequestError):
    """400, also an ``openai.BadRequestError``."""


class OpenAIConflictError(OpenAIModelError, ModelBadRequestError, openai.ConflictError):
    """409, also an ``openai.ConflictError``."""


class OpenAIUnprocessableEntityError(OpenAIModelError, ModelBadRequestError, openai.UnprocessableEntityError):
    """422, also an ``openai.UnprocessableEntityError``."""


class OpenAIRequestTooLargeError(OpenAIModelError, ModelBadRequestError, openai.APIStatusError):
    """413, also an ``openai.APIStatusError``."""


class OpenAIAuthenticationError(OpenAIModelError, ModelAuthenticationError, openai.AuthenticationError):
    """401, also an ``openai.AuthenticationError``."""


class OpenAIPermissionDeniedError(OpenAIModelError, ModelAuthenticationError, openai.PermissionDeniedError):
    """403, also an ``openai.PermissionDeniedError``."""


class OpenAINotFoundError(OpenAIModelError, ModelNotFoundError, openai.NotFoundError):
    """404, also an ``openai.NotFoundError``."""


class OpenAIRateLimitError(OpenAIModelError, ModelRateLimitError, openai.RateLimitError):
    """429, also an ``openai.RateLimitError``."""


class OpenAIInternalServerError(OpenAIModelError, ModelServerError, openai.InternalServerError):
    """5xx (but 504), also an ``openai.InternalServerError``."""


class OpenAIGatewayTimeoutError(OpenAIModelError, ModelTimeoutError, openai.InternalServerError):
    """504: a ``ModelTimeoutError`` that is also an ``openai.InternalServerError``."""


class OpenAIAPIStatusError(OpenAIModelError, openai.APIStatusError):
    """Any other status, also an ``openai.APIStatusError``."""


class OpenAITimeoutError(OpenAIModelError, ModelTimeoutError, openai.APITimeoutError):
    """No answer within ``timeout``, also an ``openai.APITimeoutError``."""


class OpenAIConnectionError(OpenAIModelError, ModelConnectionError, openai.APIConnectionError):
    """The server could not be reached, also an ``openai.APIConnectionError``."""


class OpenAIStreamConnectionError(OpenAIModelError, ModelStreamError, openai.APIConnectionError):
    """A stream's connection broke, also an ``openai.APIConnectionError``."""


class OpenAIStreamError(OpenAIModelError, ModelStreamError, openai.APIError):
    """An error event inside a stream, also an ``openai.APIError``."""


class OpenAIResponseValidationError(OpenAIModelError, ModelResponseError, openai.APIResponseValidationError):
    """An answer that breaks the protocol, also an ``openai.APIResponseValidationError``."""


_TWINS: Final[tuple[type[OpenAIModelError], ...]] = (
    OpenAIBadRequestError,
    OpenAIConflictError,
    OpenAIUnprocessableEntityError,
    OpenAIRequestTooLargeError,
    OpenAIAuthenticationError,
    OpenAIPermissionDeniedError,
    OpenAINotFoundError,
    OpenAIRateLimitError,
    OpenAIInternalServerError,
    OpenAIGatewayTimeoutError,
    OpenAITimeoutError,
    OpenAIConnectionError,
    OpenAIStreamConnectionError,
    OpenAIStreamError,
    OpenAIResponseValidationError,
    OpenAIAPIStatusError,
)


def _library_class(twin: type[OpenAIModelError]) -> type[ModelAPIError]:
    for base in twin.__bases__:
        if issubclass(base, ModelAPIError) and base is not OpenAIModelError:
            return base
    return ModelAPIError


def _sdk_class(twin: type[OpenAIModelError]) -> type[BaseException]:
    return next(b for b in twin.__bases__ if issubclass(b, openai.OpenAIError))


_BY_PAIR: Final[dict[tuple[type[ModelAPIError], type[BaseException]], type[OpenAIModelError]]] = {
    (_library_class(t), _sdk_class(t)): t for t in _TWINS
}


def sdk_twin(ours: type[ModelAPIError], raised: type[BaseException]) -> type[ModelAPIError]:
    """The class that is both ``ours`` and the nearest ``openai`` class of ``raised``
    (``ours`` itself when there is none).

    >>> sdk_twin(ModelNotFoundError, openai.NotFoundError).__name__
    'OpenAINotFoundError'
    >>> sdk_twin(ModelNotFoundError, KeyError).__name__
    'ModelNotFoundError'
    """
    for sdk in raised.__mro__:
        found = _BY_PAIR.get((ours, sdk))
        if found is not None:
            return found
    return ours


def sdk_error(
    ours: type[ModelAPIError],
    raised: type[BaseException],
    message: str,
    *,
    response: SdkResponse | None = None,
    request: object = None,
    **fields: Unpack[ModelErrorFields],
) -> ModelAPIError:
    """An error of class ``ours`` that is also the ``openai`` class of ``raised`` when there
    is such a twin (the SDK's ``response`` and ``request`` kept on it), else plain ``ours``.

    >>> type(sdk_error(ModelTimeoutError, openai.APIStatusError, "late", status=408)).__name__
    'ModelTimeoutError'
    >>> type(sdk_error(ModelRateLimitError, openai.RateLimitError, "slow", status=429)).__name__
    'OpenAIRateLimitError'
    """
    twin = sdk_twin(ours, raised)
    if issubclass(twin, OpenAIModelError):
        return twin(message, response=response, request=request, **fields)
    return twin(message, **fields)
