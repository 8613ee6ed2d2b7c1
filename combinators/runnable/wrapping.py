"""Wrapping a runnable: the methods that keep ``[In, Out]`` and only change how it runs
(config, keyword arguments, declared types, listeners, a timeout, retries, fallbacks,
configurable fields and alternatives).

``RunnableWrappers`` is one of ``Runnable``'s sibling bases (beside ``RunnableCalls`` and
``RunnableHooks``). Every wrapper is a node built through ``fluent`` (see there why).

>>> from combinators import RunnableLambda
>>> RunnableLambda(abs).with_config(tags=["t"]).with_retry(stop_after_attempt=2).invoke(-1)
1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, Unpack, cast

from combinators.runnable import fluent
from effects.lazy import deferred

if TYPE_CHECKING:
    # Annotations only: the otel extra (opentelemetry-api) is optional.
    from opentelemetry.metrics import Meter
    from opentelemetry.trace import Tracer

    from combinators.nodes.binding import ListenerFn, RunnableBinding
    from combinators.nodes.configurable import ConfigurableField, ConfigurableFieldSpec
    from combinators.retry_policy import RetryPolicy
    from combinators.runnable.composing import Runnable
    from effects.config import ConfigLike, RunConfig, RunConfigDict
    from effects.hooks import TRACING, TracingOptions
else:
    # Loaded when a wrapper is first built, not with ``import combinators``.
    deferred(globals(), "effects.config", "RunConfig")
    deferred(globals(), "effects.hooks", "TRACING")

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)


class RunnableWrappers(Generic[In, Out]):
    """The wrappers of every runnable: each returns a new runnable of the same type."""

    __slots__ = ()

    @property
    def _runnable(self) -> Runnable[In, Out]:
        # ``Runnable`` is the only class with this base: every instance is one.
        return cast("Runnable[In, Out]", self)

    # ------------------------------------------------------------------ wrappers keep [In, Out]

    def with_config(self, config: ConfigLike = None, **fields: Unpack[RunConfigDict]) -> RunnableBinding[In, Out]:
        """Bind config (tags, metadata, run_name, max_concurrency, timeout, ...).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(abs).with_config(run_name="absolute").invoke(-2)
        2
        """
        merged = {**RunConfig.coerce(config).to_dict(), **fields} if fields else config
        return fluent.bound(self._runnable, config=RunConfig.coerce(merged))

    def with_kwargs(self, **kwargs: object) -> RunnableBinding[In, Out]:
        """Bind keyword arguments for every call (LangChain's ``.bind(**kwargs)``).

        >>> from combinators import RunnableLambda
        >>> def scale(x: int, *, by: int = 1) -> int:
        ...     return x * by
        >>> RunnableLambda(scale).with_kwargs(by=3).invoke(2)
        6
        """
        return fluent.bound(self._runnable, kwargs=kwargs)

    def with_types(
        self, *, input_type: type[object] | None = None, output_type: type[object] | None = None
    ) -> Runnable[In, Out]:
        """Declare the input and output types for schemas (no runtime effect).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: x).with_types(input_type=int).input_schema()
        {'title': 'RunnableLambdaInput', 'type': 'integer'}
        """
        return fluent.bound(self._runnable, input_type=input_type, output_type=output_type)

    def with_listeners(
        self,
        *,
        on_start: ListenerFn | None = None,
        on_end: ListenerFn | None = None,
        on_error: ListenerFn | None = None,
    ) -> Runnable[In, Out]:
        """Call listeners with a ``Run`` value when this runnable's run starts, ends or fails.

        >>> from combinators import RunnableLambda
        >>> seen = []
        >>> r = RunnableLambda(abs).with_listeners(on_end=lambda run: seen.append(run.outputs))
        >>> r.invoke(-5), seen
        (5, [{'output': 5}])
        """
        return fluent.listening(self._runnable, on_start, on_end, on_error)

    def with_tracing(
        self, tracer: Tracer | None = None, config: TracingOptions | None = None, *, meter: Meter | None = None
    ) -> Runnable[In, Out]:
        """Trace every run as OpenTelemetry spans, one per run (the optional extra ``otel``).

        ``tracer`` defaults to the global tracer provider's; while none is installed the
        runs cost what untraced runs cost. ``config`` (an ``OtelConfig``) chooses what is
        recorded (content is not, by default). Model runs also record the GenAI client
        metrics (operation duration, token usage) with ``meter``, which defaults to the
        global meter provider's. The integration (``combinators.integrations.otel``) loads
        on first use; without the extra this raises ``MissingExtraError``.

        >>> from combinators import RunnableLambda
        >>> traced = RunnableLambda(abs).with_tracing()
        >>> traced, traced.invoke(-1)
        (RunnableLambda(abs).with_tracing(), 1)
        """
        factory = TRACING.get("with_tracing").tracing(tracer, config, meter)
        return fluent.observing(self._runnable, factory)

    def with_timeout(self, seconds: float) -> Runnable[In, Out]:
        """Fail with ``StepTimeout`` naming this runnable when it runs longer than ``seconds``.

        Async work is cancelled at the deadline. Sync work cannot be interrupted:
        the deadline is checked before each leaf step starts, so a step already
        running finishes and the next one raises.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(abs).with_timeout(5.0).invoke(-1)
        1
        """
        return fluent.bound(self._runnable, config=RunConfig(timeout=seconds))

    def with_retry(
        self,
        policy: RetryPolicy | None = None,
        *,
        retry_if_exception_type: tuple[type[BaseException], ...] | Callable[[BaseException], bool] = (Exception,),
        wait_exponential_jitter: bool = True,
        exponential_jitter_params: Mapping[str, float] | None = None,
        stop_after_attempt: int = 3,
        on_failed_attempt: Callable[[BaseException, object, int], None] | None = None,
    ) -> Runnable[In, Out]:
        """Retry failures by a ``RetryPolicy`` (or LangChain's arguments, mapped onto one).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(abs).with_retry(stop_after_attempt=2).invoke(-3)
        3
        """
        return fluent.retrying(
            self._runnable,
            policy,
            on_failed_attempt,
            retry_if_exception_type=retry_if_exception_type,
            wait_exponential_jitter=wait_exponential_jitter,
            exponential_jitter_params=exponential_jitter_params,
            stop_after_attempt=stop_after_attempt,
        )

    def with_fallbacks(
        self,
        fallbacks: Sequence[Runnable[In, Out]],
        *,
        exceptions_to_handle: tuple[type[BaseException], ...] = (Exception,),
        exception_key: str | None = None,
    ) -> Runnable[In, Out]:
        """Try ``fallbacks`` in order, on the original input, when this one fails.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: 1 // x).with_fallbacks([RunnableLambda(lambda x: -1)]).invoke(0)
        -1
        """
        return fluent.falling_back(self._runnable, fallbacks, exceptions_to_handle, exception_key)

    # ------------------------------------------------------------------ configurable

    def configurable_fields(self, **fields: ConfigurableField) -> Runnable[In, Out]:
        """Let a call replace these fields of this (attrs) runnable by configurable id.

        >>> from combinators import ConfigurableField, RunnablePick
        >>> pick = RunnablePick("a").configurable_fields(keys=ConfigurableField(id="key"))
        >>> pick.invoke({"a": 1, "b": 2}), pick.invoke({"a": 1, "b": 2}, {"configurable": {"key": "b"}})
        (1, 2)
        """
        return fluent.configurable_fields(self._runnable, fields)

    def configurable_alternatives(
        self, which: ConfigurableField, *, default_key: str = "default", **alternatives: Runnable[In, Out]
    ) -> Runnable[In, Out]:
        """Let a call choose this runnable (``default_key``) or an alternative, by ``which.id``.

        >>> from combinators import ConfigurableField, RunnableLambda
        >>> r = RunnableLambda(abs).configurable_alternatives(ConfigurableField(id="op"), neg=RunnableLambda(lambda x: -x))
        >>> r.invoke(-2), r.invoke(-2, {"configurable": {"op": "neg"}})
        (2, 2)
        """
        return fluent.configurable_alternatives(self._runnable, which, alternatives, default_key)

    def with_config_specs(self, *specs: ConfigurableFieldSpec) -> Runnable[In, Out]:
        """Declare configurable ids that this runnable's own functions read (for checking and schemas).

        >>> from combinators import ConfigurableFieldSpec, RunnableLambda
        >>> def greet(name: str, config) -> str:
        ...     return f"{config.configurable.get('greeting', 'hi')} {name}"
        >>> r = RunnableLambda(greet).with_config_specs(ConfigurableFieldSpec(id="greeting", annotation=str))
        >>> r.invoke("ann", {"configurable": {"greeting": "hello"}})
        'hello ann'
        >>> r.invoke("ann", {"configurable": {"greeting": 3}})
        Traceback (most recent call last):
        ...
        combinators.nodes.configurable.ConfigurableError: configurable 'greeting' of greet takes str, got 3
        """
        return fluent.declaring(self._runnable, specs)

    def config_specs(self) -> list[ConfigurableFieldSpec]:
        """Every configurable id declared anywhere in this chain.

        >>> from combinators import ConfigurableField, RunnableLambda
        >>> r = RunnableLambda(abs).configurable_alternatives(ConfigurableField(id="op"), neg=RunnableLambda(abs))
        >>> [(s.id, s.default) for s in r.config_specs()]
        [('op', 'default')]
        """
        return fluent.config_specs(self._runnable)

    def config_schema(self) -> dict[str, Any]:
        """JSON Schema of the config's ``configurable`` ids (defaults, descriptions, alternatives as an enum).

        >>> from combinators import ConfigurableField, RunnableLambda
        >>> r = RunnableLambda(abs).configurable_alternatives(ConfigurableField(id="op"), neg=RunnableLambda(abs))
        >>> r.config_schema()["properties"]["configurable"]["properties"]
        {'op': {'title': 'op', 'default': 'default', 'enum': ['default', 'neg']}}
        """
        return fluent.config_schema(self._runnable)


__all__ = ["RunnableWrappers"]
