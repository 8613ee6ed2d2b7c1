"""The ``openai`` client behind ``ChatOpenAI`` and ``OpenAIEmbeddings``: built lazily.

The package is the optional extra ``openai`` and is imported only when a client is
built. A model value holds its settings; the clients it builds live in a
``ClientCache`` that is not part of its equality and pickles empty, so values stay
comparable and can travel to worker processes.

Settings resolve as the ``openai`` client does, but explicitly: ``base_url`` falls back
to ``OPENAI_BASE_URL``, then to OpenAI itself; the key is read from ``OPENAI_API_KEY``
only when none is given; a server at another address that needs no key (vLLM,
llama.cpp, Ollama) gets the placeholder ``"EMPTY"``.

A model built by ``loads`` (``secrets_from_env=False``) reads no secret from the
environment at all: not ``OPENAI_API_KEY``, and not what the ``openai`` client itself
would add (``OPENAI_ADMIN_KEY``, ``OPENAI_ORG_ID``, ``OPENAI_PROJECT_ID``,
``OPENAI_CUSTOM_HEADERS``): its requests carry only the headers of ``SENT_HEADERS`` and
its own key, because its base URL may have come from the data.

>>> resolve_base_url("http://127.0.0.1:8000/v1/", environ={})
'http://127.0.0.1:8000/v1'
>>> key = resolve_api_key(None, "http://127.0.0.1:8000/v1", environ={})
>>> key.value, key.hint
('EMPTY', 'no API key was given: pass api_key=... or set OPENAI_API_KEY')
"""

from __future__ import annotations

import asyncio
import importlib
import os
import threading
import weakref
from collections.abc import Callable, Generator, Mapping, MutableMapping
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Final, Literal, Protocol, TypedDict, final, overload

import attrs

from combinators.authoring import changed_fields

from combinators.components.secrets import Secret
from combinators.integrations.openai.errors import translate_error
from effects.authoring import is_a
from effects.hooks import install_line

if TYPE_CHECKING:
    from openai import AsyncOpenAI, OpenAI

__all__ = [
    "DEFAULT_BASE_URL",
    "SENT_HEADERS",
    "ApiKey",
    "ClientCache",
    "ClientOptions",
    "ClientSettings",
    "OpenAIConnection",
    "build_client",
    "check_retries",
    "import_openai",
    "preload_openai",
    "only_sent_headers",
    "resolve_api_key",
    "client_options",
    "resolve_base_url",
    "shown_fields",
    "to_body",
    "to_secret",
]

DEFAULT_BASE_URL: Final = "https://api.openai.com/v1"
"""Where requests go when neither ``base_url`` nor ``OPENAI_BASE_URL`` says otherwise."""

_NO_KEY_HINT: Final = "no API key was given: pass api_key=... or set OPENAI_API_KEY"
_LOADED_HINT: Final = (
    "this model was built by loads, which never uses OPENAI_API_KEY: pass its key to "
    "loads(..., secrets={'api_key': Secret(...)}) or set it in code (attrs.evolve(model, api_key=...))"
)

SENT_HEADERS: Final = frozenset(
    {"accept", "accept-encoding", "connection", "content-length", "content-type", "host", "user-agent"}
)
"""The headers a model built by ``loads`` sends (besides ``authorization`` and ``x-stainless-*``)."""


def import_openai() -> ModuleType:
    """The ``openai`` package, or an ImportError naming the extra that brings it.

    >>> import_openai().__name__
    'openai'
    """
    try:
        return importlib.import_module("openai")
    except ImportError as error:
        raise ImportError(
            f"ChatOpenAI and OpenAIEmbeddings need the openai package: {install_line('openai')}"
        ) from error


def preload_openai() -> None:
    """Import the ``openai`` package now, if it is installed: models call this when they are
    built, so the SDK's import (about a second) is not charged to the first call's run.
    Without the extra it does nothing; the first call names the extra.

    >>> preload_openai()
    >>> import sys; "openai" in sys.modules
    True
    """
    try:
        import_openai()
    except ImportError:
        pass


def to_secret(value: Secret | str | None) -> Secret | None:
    """A ``Secret`` from a secret or a plain str (``None`` stays ``None``).

    >>> to_secret("sk-1")
    Secret('**********')
    """
    if value is None or isinstance(value, Secret):
        return value
    if is_a(value, str):
        return Secret(value)
    raise TypeError(f"api_key must be a Secret or a str, got {type(value).__name__}")


def resolve_base_url(base_url: str | None, *, environ: Mapping[str, str] = os.environ) -> str:
    """The server's API root: ``base_url``, else ``OPENAI_BASE_URL``, else OpenAI's.

    >>> resolve_base_url(None, environ={})
    'https://api.openai.com/v1'
    """
    chosen = base_url or environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    return chosen.rstrip("/")


@final
@attrs.frozen
class ApiKey:
    """The key to send, and what to tell the user if the server refuses it."""

    value: str = attrs.field(repr=False)
    hint: str = ""


@final
@attrs.frozen
class ClientSettings:
    """What a client is built from: the key, the API root, the timeout and retries, and
    whether it may read settings from the environment.

    >>> ClientSettings(ApiKey("k"), "http://127.0.0.1:1/v1").max_retries
    2
    """

    api_key: ApiKey
    base_url: str
    timeout: float | None = None
    max_retries: int = 2
    secrets_from_env: bool = True


def resolve_api_key(
    api_key: Secret | None,
    base_url: str,
    *,
    secrets_from_env: bool = True,
    environ: Mapping[str, str] = os.environ,
) -> ApiKey:
    """The key to send: the given one, else ``OPENAI_API_KEY``, else ``"EMPTY"``.

    >>> resolve_api_key(Secret("sk-1"), DEFAULT_BASE_URL).value
    'sk-1'
    >>> resolve_api_key(None, DEFAULT_BASE_URL, environ={"OPENAI_API_KEY": "sk-env"}).value
    'sk-env'
    >>> resolve_api_key(None, DEFAULT_BASE_URL, secrets_from_env=False, environ={"OPENAI_API_KEY": "sk-env"}).value
    'EMPTY'
    """
    if api_key is not None:
        return ApiKey(api_key.get_secret_value())
    if not secrets_from_env:
        return ApiKey("EMPTY", _LOADED_HINT)
    from_env = environ.get("OPENAI_API_KEY")
    if from_env:
        return ApiKey(from_env)
    # OpenAI will answer 401 (with the hint); local servers usually ignore the key.
    return ApiKey("EMPTY", _NO_KEY_HINT)


@final
class ClientCache:
    """The clients one model value built: one sync client, one async client per event loop.

    An ``AsyncOpenAI`` client's connections belong to the loop that opened them, so each
    running loop gets its own. The cache is invisible to equality and pickles empty.

    >>> cache = ClientCache()
    >>> cache == ClientCache(), repr(cache)
    (True, 'ClientCache()')
    """

    __slots__ = ("_lock", "_sync", "_async")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sync: OpenAI | None = None
        self._async: dict[int, tuple[weakref.ref[asyncio.AbstractEventLoop], AsyncOpenAI]] = {}

    def sync_client(self, build: Callable[[], OpenAI]) -> OpenAI:
        """The sync client, built by ``build`` on first use."""
        with self._lock:
            if self._sync is None:
                self._sync = build()
            return self._sync

    def async_client(self, build: Callable[[], AsyncOpenAI]) -> AsyncOpenAI:
        """The async client of the running event loop, built by ``build`` on first use."""
        loop = asyncio.get_running_loop()
        with self._lock:
            entry = self._async.get(id(loop))
            if entry is not None and entry[0]() is loop:
                return entry[1]
            # A client keeps its loop alive through its connections, so clients of
            # closed loops are dropped here rather than left to a weak mapping.
            for key, (ref, _) in list(self._async.items()):
                old = ref()
                if old is None or old.is_closed():
                    del self._async[key]
            client = build()
            self._async[id(loop)] = (weakref.ref(loop), client)
            return client

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClientCache)

    def __hash__(self) -> int:
        return hash(ClientCache)

    def __repr__(self) -> str:
        return "ClientCache()"

    def __reduce__(self) -> tuple[type[ClientCache], tuple[()]]:
        return ClientCache, ()


class ClientOptions(TypedDict, total=False):
    """The keyword arguments ``client_options`` gives the ``openai`` clients.

    >>> options: ClientOptions = {"api_key": "k", "base_url": "http://127.0.0.1:1/v1", "max_retries": 0}
    >>> sorted(options)
    ['api_key', 'base_url', 'max_retries']
    """

    api_key: str
    base_url: str
    max_retries: int
    timeout: float
    admin_api_key: str
    organization: str
    project: str
    webhook_secret: str


class _Request(Protocol):
    @property
    def headers(self) -> MutableMapping[str, str]: ...


def client_options(settings: ClientSettings) -> ClientOptions:
    """The keyword arguments for ``openai.OpenAI`` / ``openai.AsyncOpenAI``.

    Without ``secrets_from_env``, every setting the client would read from the
    environment is given (empty), so it reads none.

    >>> sorted(client_options(ClientSettings(ApiKey("k"), "http://127.0.0.1:1/v1")))
    ['api_key', 'base_url', 'max_retries']
    >>> sorted(client_options(ClientSettings(ApiKey("k"), "http://127.0.0.1:1/v1", secrets_from_env=False)))
    ['admin_api_key', 'api_key', 'base_url', 'max_retries', 'organization', 'project', 'webhook_secret']
    """
    options: ClientOptions = {
        "api_key": settings.api_key.value,
        "base_url": settings.base_url,
        "max_retries": settings.max_retries,
    }
    if settings.timeout is not None:
        options["timeout"] = settings.timeout
    if not settings.secrets_from_env:
        options |= {"admin_api_key": "", "organization": "", "project": "", "webhook_secret": ""}
    return options


def only_sent_headers(headers: MutableMapping[str, str], api_key: ApiKey) -> None:
    """Keep ``SENT_HEADERS``, ``x-stainless-*`` and this key's ``authorization``; drop the rest.

    The ``openai`` client adds headers from the environment (``OPENAI_CUSTOM_HEADERS``,
    even an ``Authorization``) that no argument turns off; a model whose address may
    come from data sends none of them.

    >>> headers = {"Accept": "application/json", "Authorization": "Bearer env", "X-Env": "1"}
    >>> only_sent_headers(headers, ApiKey("k"))
    >>> headers
    {'Accept': 'application/json', 'authorization': 'Bearer k'}
    """
    for name in list(headers):
        lowered = name.lower()
        if lowered not in SENT_HEADERS and not lowered.startswith("x-stainless-"):
            del headers[name]
    headers["authorization"] = f"Bearer {api_key.value}"


@overload
def build_client(settings: ClientSettings, *, asynchronous: Literal[False]) -> OpenAI: ...
@overload
def build_client(settings: ClientSettings, *, asynchronous: Literal[True]) -> AsyncOpenAI: ...
def build_client(settings: ClientSettings, *, asynchronous: bool) -> OpenAI | AsyncOpenAI:
    """An ``openai.OpenAI`` (or ``AsyncOpenAI``) client for these settings.

    >>> settings = ClientSettings(ApiKey("k"), "http://127.0.0.1:1/v1", secrets_from_env=False)
    >>> client = build_client(settings, asynchronous=False)
    >>> type(client).__name__, str(client.base_url)
    ('OpenAI', 'http://127.0.0.1:1/v1/')
    """
    import_openai()  # the ImportError that names the extra
    from openai import AsyncOpenAI, DefaultAsyncHttpxClient, DefaultHttpxClient, OpenAI

    options = client_options(settings)
    secrets_from_env = settings.secrets_from_env

    def strip(request: _Request) -> None:
        only_sent_headers(request.headers, settings.api_key)

    async def astrip(request: _Request) -> None:
        strip(request)

    if asynchronous:
        hooks = None if secrets_from_env else DefaultAsyncHttpxClient(event_hooks={"request": [astrip]})
        return AsyncOpenAI(**options, http_client=hooks)
    return OpenAI(
        **options, http_client=None if secrets_from_env else DefaultHttpxClient(event_hooks={"request": [strip]})
    )


def to_body(value: Mapping[str, object] | None) -> Mapping[str, object]:
    """A model's ``extra_body``: a private copy (``None`` is empty).

    >>> to_body(None), to_body({"seed": 7})
    ({}, {'seed': 7})
    """
    return dict(value or {})


def check_retries(_instance: object, _attribute: object, value: int) -> None:
    """The ``max_retries`` validator: an int >= 0 (a bool is refused).

    >>> check_retries(None, None, True)
    Traceback (most recent call last):
    ...
    ValueError: max_retries must be an int >= 0, got True
    """
    if not is_a(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"max_retries must be an int >= 0, got {value!r}")


def shown_fields(value: object) -> str:
    """The ``name=value`` pairs of an attrs value's fields that differ from their defaults.

    >>> shown_fields(ApiKey("k", hint="h"))
    "hint='h'"
    """
    return ", ".join(changed_fields(value))


class OpenAIConnection:
    """Where a model's requests go and with what key, and its clients: what ``ChatOpenAI``
    and ``OpenAIEmbeddings`` share (a mixin over their attrs fields of the same names).

    >>> from combinators.integrations.openai.chat import ChatOpenAI
    >>> ChatOpenAI(base_url="http://127.0.0.1:11434/v1/").resolved_base_url
    'http://127.0.0.1:11434/v1'
    """

    __slots__ = ()

    base_url: str | None
    api_key: Secret | str | None  # a Secret once built: the field's converter makes one
    timeout: float | None
    max_retries: int
    secrets_from_env: bool
    _clients: ClientCache

    def __attrs_post_init__(self) -> None:
        # The SDK loads when the model is built, not inside its first run.
        preload_openai()

    @property
    def resolved_base_url(self) -> str:
        """Where requests go (``base_url``, ``OPENAI_BASE_URL`` or OpenAI's API)."""
        return resolve_base_url(self.base_url)

    def _api_key(self) -> ApiKey:
        return resolve_api_key(to_secret(self.api_key), self.resolved_base_url, secrets_from_env=self.secrets_from_env)

    def _settings(self) -> ClientSettings:
        base_url = self.resolved_base_url
        return ClientSettings(self._api_key(), base_url, self.timeout, self.max_retries, self.secrets_from_env)

    @contextmanager
    def _typed_errors(self, model: str, *, streaming: bool = False) -> Generator[None]:
        """Raise the client's failures as our typed model errors (others pass unchanged)."""
        try:
            yield
        except Exception as error:
            hint = self._api_key().hint
            typed = translate_error(error, model=model, base_url=self.resolved_base_url, streaming=streaming, hint=hint)
            if typed is None:
                raise
            raise typed from error

    def _sync_client(self) -> OpenAI:
        return self._clients.sync_client(lambda: build_client(self._settings(), asynchronous=False))

    def _async_client(self) -> AsyncOpenAI:
        return self._clients.async_client(lambda: build_client(self._settings(), asynchronous=True))
