"""Hooks: the slots an optional integration fills, so the core never imports it.

A ``Hook`` names the feature, the optional extra that brings it, and the module that
fills it. The first ``get`` imports that module by name (it calls ``hook.fill(...)`` as
it loads); when the extra is not installed, ``get`` raises ``MissingExtraError``
naming it. Anyone may fill a hook first (tests, or an alternative implementation).

Three hooks ship: ``TRACING`` (OpenTelemetry spans, extra ``otel``), ``PROGRESS``
(a progress bar over a batch, extra ``progress``) and ``CALLBACKS`` (LangChain callback
handlers given as ``config["callbacks"]``, extra ``langchain``). Each provider hands the runtime an
``ObserverFactory``: an observer is a projection of the effect stream like any other.

>>> hook: Hook[str] = Hook("greeting", extra="greet", module="no_such_module_here")
>>> hook.fill("hello")
>>> hook.get("say_hello()")
'hello'
>>> Hook("greeting", extra="greet", module="no_such_module_here").get("say_hello()")
Traceback (most recent call last):
...
effects.hooks.MissingExtraError: say_hello() needs the optional extra 'greet': pip install 'lcel-combinators[greet]' (missing module: no_such_module_here)
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from typing import TYPE_CHECKING, Final, Generic, Protocol, TypeVar, final


from effects.errors import CombinatorsError

from effects.step import ObserverFactory

if TYPE_CHECKING:
    from effects.effect_values import Effect

P = TypeVar("P")

DISTRIBUTION: Final = "lcel-combinators"
"""The distribution on the package index that provides ``combinators`` and ``effects``
(the index's own ``combinators`` and ``effects`` are unrelated projects)."""


def install_line(extra: str) -> str:
    """The command that installs an optional extra, as every missing-extra error spells it.

    >>> install_line("otel")
    "pip install 'lcel-combinators[otel]'"
    """
    return f"pip install '{DISTRIBUTION}[{extra}]'"


class MissingExtraError(CombinatorsError, ImportError):
    """A feature was asked for whose optional extra is not installed; the message names it.

    >>> issubclass(MissingExtraError, ImportError)
    True
    """


def _missing_extra(feature: str, extra: str, module: str) -> MissingExtraError:
    return MissingExtraError(
        f"{feature} needs the optional extra {extra!r}: {install_line(extra)} (missing module: {module})"
    )


def require_extra(feature: str, extra: str, *modules: str) -> None:
    """Raise ``MissingExtraError`` naming ``extra`` unless each of ``modules`` is installed
    (found, not imported: an SDK's import cost is paid when it is first used). An
    integration's package calls it first, before anything of it loads.

    >>> require_extra("combinators.integrations.example", "greet", "json")
    >>> require_extra("combinators.integrations.example", "greet", "no_such_sdk_here")
    Traceback (most recent call last):
    ...
    effects.hooks.MissingExtraError: combinators.integrations.example needs the optional extra 'greet': pip install 'lcel-combinators[greet]' (missing module: no_such_sdk_here)
    """
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise _missing_extra(feature, extra, module)


class FailureCount:
    """How many times a provider's observer failed and logged instead of failing the run
    (thread-safe; the process's count): the callback handlers' errors, tracing's drops.

    >>> failures = FailureCount()
    >>> failures.add()
    >>> failures.count
    1
    """

    __slots__ = ("count", "_lock")

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def add(self) -> None:
        """Count one more failure."""
        with self._lock:
            self.count += 1


@final
class Hook(Generic[P]):
    """A slot for an integration's provider (see the module docstring).

    >>> TRACING
    Hook('tracing', extra='otel', module='combinators.integrations.otel')
    """

    __slots__ = ("name", "extra", "module", "_provider", "_lock")

    def __init__(self, name: str, *, extra: str, module: str) -> None:
        self.name = name
        self.extra = extra
        self.module = module
        self._provider: P | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Hook({self.name!r}, extra={self.extra!r}, module={self.module!r})"

    def fill(self, provider: P) -> None:
        """Put ``provider`` in the slot (the filling module calls this as it loads)."""
        self._provider = provider

    def get(self, feature: str) -> P:
        """The provider; imports the filling module on first use.

        ``feature`` names what asked (``"with_tracing"``) in the error raised when the
        extra is missing.
        """
        provider = self._provider
        if provider is not None:
            return provider
        with self._lock:
            if self._provider is None:
                self._load(feature)
            provider = self._provider
        if provider is None:
            raise CombinatorsError(f"{self.module} was imported but did not fill the {self.name!r} hook")
        return provider

    def _load(self, feature: str) -> None:
        try:
            importlib.import_module(self.module)
        except ModuleNotFoundError as error:
            missing = error.name or ""
            ours = missing.split(".")[0] in ("combinators", "effects") and missing != self.module
            if ours:
                raise  # a broken install of this library, not a missing extra
            raise _missing_extra(feature, self.extra, missing) from error


class TracingOptions(Protocol):
    """What ``with_tracing``'s ``config`` is: the otel integration's ``OtelConfig``."""

    @property
    def capture(self) -> str:
        """Where content goes (``"none"`` by default)."""
        ...


class TracingProvider(Protocol):
    """What the ``otel`` integration fills ``TRACING`` with."""

    def tracing(self, tracer: object = None, config: object = None, meter: object = None) -> ObserverFactory:
        """The observer factory that traces (and measures) the runs it watches."""
        ...


class ProgressView(Protocol):
    """An observer that shows progress, closed by the call that made it."""

    def emit(self, effect: Effect) -> None: ...

    def close(self) -> None: ...


class ProgressProvider(Protocol):
    """What the ``progress`` integration fills ``PROGRESS`` with."""

    def view(self, total: int | None, description: str) -> ProgressView:
        """A progress bar over ``total`` root runs (or over a stream's chunks, with None)."""
        ...


class CallbacksProvider(Protocol):
    """What the ``langchain`` integration fills ``CALLBACKS`` with."""

    def callbacks(self, entry: object) -> ObserverFactory:
        """The observer factory that tells LangChain callback handlers about the runs it watches."""
        ...


TRACING: Final[Hook[TracingProvider]] = Hook("tracing", extra="otel", module="combinators.integrations.otel")
PROGRESS: Final[Hook[ProgressProvider]] = Hook("progress", extra="progress", module="combinators.integrations.progress")
CALLBACKS: Final[Hook[CallbacksProvider]] = Hook(
    "callbacks", extra="langchain", module="combinators.integrations.langchain.handlers"
)


def tracing_observer_factory(entry: object, feature: str) -> ObserverFactory | None:
    """The observer factory a config's ``tracing`` entry asks for (None when off).

    ``True`` traces with the global tracer provider and default options; an observer
    factory (``OtelTracing(...)``) is used as is; anything else is handed to the
    integration as its options (``OtelConfig(...)``).

    >>> tracing_observer_factory(None, "invoke") is None
    True
    """
    if entry is None or entry is False:
        return None
    if isinstance(entry, ObserverFactory):
        return entry
    provider = TRACING.get(feature)
    return provider.tracing() if entry is True else provider.tracing(config=entry)


def callbacks_observer_factory(entry: object, feature: str) -> ObserverFactory | None:
    """The observer factory a config's ``callbacks`` entry asks for (None when there is none).

    An empty list asks for nothing, and nothing of the ``langchain`` extra is loaded then.

    >>> callbacks_observer_factory(None, "invoke") is None, callbacks_observer_factory([], "invoke") is None
    (True, True)
    """
    if entry is None or entry == [] or entry == ():
        return None
    return CALLBACKS.get(feature).callbacks(entry)
