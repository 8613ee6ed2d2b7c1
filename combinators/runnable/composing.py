"""``Runnable[In, Out]``: the value every chain is, with its pure combinators.

Each combinator returns a new, fully parameterised runnable; a wrong pipe is a
type error at the ``|``.

>>> from combinators import RunnableLambda
>>> def parse(s: str) -> int:
...     return int(s)
>>> def half(n: int) -> float:
...     return n / 2
>>> chain = RunnableLambda(parse) | half
>>> chain
RunnableLambda(parse) | RunnableLambda(half)
>>> chain.invoke("8")
4.0
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload

from combinators.runnable import fluent
from combinators.runnable.watching import RunnableWatching
from effects.config import ConfigLike, RunConfig
from effects.hooks import TRACING, TracingOptions

if TYPE_CHECKING:
    # Annotations only: the otel extra (opentelemetry-api) is optional.
    from opentelemetry.trace import Tracer

    from combinators.nodes.binding import ListenerFn
    from combinators.graph import Fragment, Graph, GraphBuilder, RunPlace
    from combinators.nodes.configurable import ConfigurableField, ConfigurableFieldSpec
    from combinators.retry_policy import RetryPolicy
    from combinators.nodes.tool import RunnableTool
    from effects.executors import Executor

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
V = TypeVar("V")

class Runnable(RunnableWatching[In, Out]):
    """A typed step of a pipeline: ``In`` in, ``Out`` out (``Out`` chunks when streamed)."""

    __slots__ = ()

    # ------------------------------------------------------------------ pipe

    @overload
    def __or__(self, other: Runnable[Out, C]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], Awaitable[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], Runnable[Out, C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], AsyncIterator[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], Iterator[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], C]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Iterator[Out]], Iterator[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(
        self, other: Callable[[AsyncIterator[Out]], AsyncIterator[C]]
    ) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out, RunConfig], Awaitable[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out, RunConfig], C]) -> Runnable[In, C]: ...

    @overload
    def __or__(
        self, other: Mapping[str, Runnable[Out, Any] | Callable[[Out], Any]]
    ) -> Runnable[In, dict[str, Any]]: ...

    def __or__(self, other: object) -> Runnable[In, Any]:
        """``a | b`` runs ``a`` then ``b`` on its output (callables and dicts are coerced)."""
        return fluent.then(self, fluent.coerce(other))

    @overload
    def __ror__(self, other: Callable[[Iterator[A]], Iterator[In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(
        self, other: Callable[[AsyncIterator[A]], AsyncIterator[In]]
    ) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A], Awaitable[In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A], Runnable[A, In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A], In]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A, RunConfig], Awaitable[In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A, RunConfig], In]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(
        self: Runnable[dict[str, Any], Out],
        other: Mapping[str, Runnable[A, Any] | Callable[[A], Any]],
    ) -> Runnable[A, Out]: ...

    def __ror__(self, other: object) -> Runnable[Any, Out]:
        """``f | r`` and ``{"k": f} | r``: the left side is coerced to a runnable."""
        return fluent.then(fluent.coerce(other), self)

    @overload
    def pipe(self, other: Runnable[Out, C], /, *, name: str | None = None) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self, other: Callable[[Out], Awaitable[C]], /, *, name: str | None = None
    ) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self, other: Callable[[Out], Runnable[Out, C]], /, *, name: str | None = None
    ) -> Runnable[In, C]: ...

    @overload
    def pipe(self, other: Callable[[Out], C], /, *, name: str | None = None) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self, other: Callable[[Iterator[Out]], Iterator[C]], /, *, name: str | None = None
    ) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self,
        other: Callable[[AsyncIterator[Out]], AsyncIterator[C]],
        /,
        *,
        name: str | None = None,
    ) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self, other: Callable[[Out, RunConfig], Awaitable[C]], /, *, name: str | None = None
    ) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self, other: Callable[[Out, RunConfig], C], /, *, name: str | None = None
    ) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self,
        other: Mapping[str, Runnable[Out, Any] | Callable[[Out], Any]],
        /,
        *,
        name: str | None = None,
    ) -> Runnable[In, dict[str, Any]]: ...

    def pipe(self, other: object, /, *, name: str | None = None) -> Runnable[In, Any]:
        """The method form of ``|`` (one step; chain calls for more), with an optional name.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.strip).pipe(len, name="length").invoke(" ab ")
        2
        """
        return fluent.then(self, fluent.coerce(other), name=name)

    # ------------------------------------------------------------------ functor / monad

    @overload
    def map(self, f: Callable[[Out], AsyncIterator[C]]) -> Runnable[In, C]: ...

    @overload
    def map(self, f: Callable[[Out], Iterator[C]]) -> Runnable[In, C]: ...

    @overload
    def map(self, f: Callable[[Out], Awaitable[C]]) -> Runnable[In, C]: ...

    @overload
    def map(self, f: Callable[[Out], Runnable[Out, C]]) -> Runnable[In, C]: ...

    @overload
    def map(self, f: Callable[[Out], C]) -> Runnable[In, C]: ...

    @overload
    def map(self, f: Callable[[Out, RunConfig], Awaitable[C]]) -> Runnable[In, C]: ...

    @overload
    def map(self, f: Callable[[Out, RunConfig], C]) -> Runnable[In, C]: ...

    def map(self, f: Callable[..., Any]) -> Runnable[In, Any]:
        """Functor map over the output (LangChain's ``.map()`` is ``.each()`` here).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.split).map(len).invoke("a b c")
        3
        """
        return fluent.then(self, fluent.function(f))

    def bind(self, f: Callable[[Out], Runnable[In, C]]) -> Runnable[In, C]:
        """Reader-monad bind: ``x`` maps to ``f(self(x))(x)``.

        >>> from combinators import RunnableLambda, pure
        >>> def pick_op(n: int) -> Runnable[int, int]:
        ...     return RunnableLambda(lambda x: x * 10) if n > 0 else pure(0)
        >>> RunnableLambda(lambda x: x - 1).bind(pick_op).batch([5, 1])
        [50, 0]
        """
        return fluent.bind(self, f)

    def each(self, *, executor: Executor | None = None) -> Runnable[Sequence[In], list[Out]]:
        """Element-wise over a list (LangChain's ``.map()``); with an ``executor``, the
        elements run on its workers (as they do when the config names one).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: x + 1).each().invoke([1, 2, 3])
        [2, 3, 4]
        """
        each = fluent.each(self)
        return each if executor is None else each.with_config(executor=executor)

    # ------------------------------------------------------------------ dict outputs

    @overload
    def pick(  # type: ignore[overload-overlap]  # a str is also a Sequence[str]; str wins
        self: Runnable[In, Mapping[str, V]], keys: str
    ) -> Runnable[In, V | None]: ...

    @overload
    def pick(
        self: Runnable[In, Mapping[str, V]], keys: Sequence[str]
    ) -> Runnable[In, dict[str, V] | None]: ...

    def pick(self: Runnable[In, Mapping[str, V]], keys: str | Sequence[str]) -> Runnable[In, Any]:
        """Keep one key's value, or a dict of the listed keys that are present.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: {"a": x, "b": 2}).pick("a").invoke(1)
        1
        """
        return fluent.then(self, fluent.pick(keys))

    def assign(
        self: Runnable[In, Mapping[str, Any]],
        **mappers: Runnable[Mapping[str, Any], Any] | Callable[[Mapping[str, Any]], Any],
    ) -> Runnable[In, dict[str, Any]]:
        """Add keys computed from the output dict to it.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: {"n": x}).assign(sq=lambda d: d["n"] ** 2).invoke(3)
        {'n': 3, 'sq': 9}
        """
        return fluent.then(self, fluent.assign(mappers))

    # ------------------------------------------------------------------ wrappers keep [In, Out]

    def with_config(self, config: ConfigLike = None, **fields: Any) -> Runnable[In, Out]:
        """Bind config (tags, metadata, run_name, max_concurrency, timeout, ...).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(abs).with_config(run_name="absolute").invoke(-2)
        2
        """
        merged = {**RunConfig.coerce(config).to_dict(), **fields} if fields else config
        return fluent.bound(self, config=RunConfig.coerce(merged))

    def with_kwargs(self, **kwargs: Any) -> Runnable[In, Out]:
        """Bind keyword arguments for every call (LangChain's ``.bind(**kwargs)``).

        >>> from combinators import RunnableLambda
        >>> def scale(x: int, *, by: int = 1) -> int:
        ...     return x * by
        >>> RunnableLambda(scale).with_kwargs(by=3).invoke(2)
        6
        """
        return fluent.bound(self, kwargs=kwargs)

    def with_types(
        self, *, input_type: type[Any] | None = None, output_type: type[Any] | None = None
    ) -> Runnable[In, Out]:
        """Declare the input and output types for schemas (no runtime effect).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: x).with_types(input_type=int).input_schema()
        {'title': 'RunnableLambdaInput', 'type': 'integer'}
        """
        return fluent.bound(self, input_type=input_type, output_type=output_type)

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
        return fluent.listening(self, on_start, on_end, on_error)

    def with_tracing(
        self, tracer: Tracer | None = None, config: TracingOptions | None = None
    ) -> Runnable[In, Out]:
        """Trace every run as OpenTelemetry spans, one per run (the optional extra ``otel``).

        ``tracer`` defaults to the global tracer provider's; while none is installed the
        runs cost what untraced runs cost. ``config`` (an ``OtelConfig``) chooses what is
        recorded (content is not, by default). The integration (``combinators.integrations.otel``) loads
        on first use; without the extra this raises ``MissingExtraError``.

        >>> from combinators import RunnableLambda
        >>> traced = RunnableLambda(abs).with_tracing()
        >>> traced, traced.invoke(-1)
        (RunnableLambda(abs).with_tracing(), 1)
        """
        factory = TRACING.get("with_tracing").tracing(tracer, config)
        return fluent.observing(self, factory)

    def with_timeout(self, seconds: float) -> Runnable[In, Out]:
        """Fail with ``StepTimeout`` naming this runnable when it runs longer than ``seconds``.

        Async work is cancelled at the deadline. Sync work cannot be interrupted:
        the deadline is checked before each leaf step starts, so a step already
        running finishes and the next one raises.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(abs).with_timeout(5.0).invoke(-1)
        1
        """
        return fluent.bound(self, config=RunConfig(timeout=seconds))

    def with_retry(
        self,
        policy: RetryPolicy | None = None,
        *,
        retry_if_exception_type: tuple[type[BaseException], ...]
        | Callable[[BaseException], bool] = (Exception,),
        wait_exponential_jitter: bool = True,
        exponential_jitter_params: Mapping[str, float] | None = None,
        stop_after_attempt: int = 3,
        on_failed_attempt: Callable[[BaseException, Any, int], None] | None = None,
    ) -> Runnable[In, Out]:
        """Retry failures by a ``RetryPolicy`` (or LangChain's arguments, mapped onto one).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(abs).with_retry(stop_after_attempt=2).invoke(-3)
        3
        """
        return fluent.retrying(
            self,
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
        return fluent.falling_back(self, fallbacks, exceptions_to_handle, exception_key)

    # ------------------------------------------------------------------ tools

    def as_tool(
        self,
        *,
        name: str | None = None,
        description: str | None = None,
        args_schema: Mapping[str, Any] | type[Any] | None = None,
        arg_types: Mapping[str, Any] | None = None,
    ) -> RunnableTool[Out]:
        """This runnable as a tool: arguments validated against a JSON Schema, then run.

        The schema is ``args_schema`` (a JSON Schema dict, or a TypedDict / attrs class),
        else built from ``arg_types`` (argument name -> type), else derived from the input
        type: an object type gives a tool taking those arguments as a dict, a ``str`` (or
        other plain) input a single-input tool. The description defaults to the peer's
        ``"Takes <input schema>."``. A tool call gives the raw output here;
        the components' ``@tool`` tools answer it with a ``ToolMessage``.

        >>> from typing import TypedDict
        >>> from combinators import RunnableLambda
        >>> class Pair(TypedDict):
        ...     a: int
        ...     b: int
        >>> def add(p: Pair) -> int:
        ...     return p["a"] + p["b"]
        >>> adder = RunnableLambda(add).as_tool(name="add", description="Add a and b.")
        >>> adder.invoke({"a": 1, "b": 2}), adder.args
        (3, {'a': {'type': 'integer'}, 'b': {'type': 'integer'}})
        """
        return fluent.as_tool(
            self, name=name, description=description, args_schema=args_schema, arg_types=arg_types
        )

    # ------------------------------------------------------------------ schemas

    def input_schema(self) -> dict[str, Any]:
        """JSON Schema of the input, derived from the types.

        >>> from combinators import RunnableLambda
        >>> def add(x: int) -> int:
        ...     return x + 1
        >>> RunnableLambda(add).input_schema()
        {'title': 'add_input', 'type': 'integer'}
        """
        return fluent.schema(self, "input")

    def output_schema(self) -> dict[str, Any]:
        """JSON Schema of the output, derived from the types.

        >>> from combinators import RunnableLambda
        >>> def add(x: int) -> int:
        ...     return x + 1
        >>> RunnableLambda(add).output_schema()
        {'title': 'add_output', 'type': 'integer'}
        """
        return fluent.schema(self, "output")


    # ------------------------------------------------------------------ graphs

    def get_graph(self) -> Graph:
        """The graph of this runnable: its steps as nodes, containers expanded.

        >>> from combinators import RunnableLambda
        >>> [n.name for n in (RunnableLambda(abs) | RunnableLambda(str)).get_graph().nodes]
        ['RunnableSequenceInput', 'abs', 'str', 'RunnableSequenceOutput']
        """
        return fluent.graph(self)

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """Hook: add this runnable's part of a graph (default: the library's rule for its
        type, else one step). Override it to expand a runnable of your own, or to mark
        it: ``graph.step(self, place, kind="remote")``.

        >>> from combinators import RunnableLambda
        >>> from combinators.graph import GraphBuilder, RunPlace
        >>> builder = GraphBuilder()
        >>> RunnableLambda(abs).graph_fragment(builder, RunPlace((), None, "abs"))
        Fragment(entry='n0', exit='n0')
        """
        return fluent.graph_fragment(self, graph, place)

    # ------------------------------------------------------------------ configurable

    def configurable_fields(self, **fields: ConfigurableField) -> Runnable[In, Out]:
        """Let a call replace these fields of this (attrs) runnable by configurable id.

        >>> from combinators import ConfigurableField, RunnablePick
        >>> pick = RunnablePick("a").configurable_fields(keys=ConfigurableField(id="key"))
        >>> pick.invoke({"a": 1, "b": 2}), pick.invoke({"a": 1, "b": 2}, {"configurable": {"key": "b"}})
        (1, 2)
        """
        return fluent.configurable_fields(self, fields)

    def configurable_alternatives(
        self, which: ConfigurableField, *, default_key: str = "default", **alternatives: Runnable[In, Out]
    ) -> Runnable[In, Out]:
        """Let a call choose this runnable (``default_key``) or an alternative, by ``which.id``.

        >>> from combinators import ConfigurableField, RunnableLambda
        >>> r = RunnableLambda(abs).configurable_alternatives(ConfigurableField(id="op"), neg=RunnableLambda(lambda x: -x))
        >>> r.invoke(-2), r.invoke(-2, {"configurable": {"op": "neg"}})
        (2, 2)
        """
        return fluent.configurable_alternatives(self, which, alternatives, default_key)

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
        return fluent.declaring(self, specs)

    def config_specs(self) -> list[ConfigurableFieldSpec]:
        """Every configurable id declared anywhere in this chain.

        >>> from combinators import ConfigurableField, RunnableLambda
        >>> r = RunnableLambda(abs).configurable_alternatives(ConfigurableField(id="op"), neg=RunnableLambda(abs))
        >>> [(s.id, s.default) for s in r.config_specs()]
        [('op', 'default')]
        """
        return fluent.config_specs(self)

    def config_schema(self) -> dict[str, Any]:
        """JSON Schema of the config's ``configurable`` ids (defaults, descriptions, alternatives as an enum).

        >>> from combinators import ConfigurableField, RunnableLambda
        >>> r = RunnableLambda(abs).configurable_alternatives(ConfigurableField(id="op"), neg=RunnableLambda(abs))
        >>> r.config_schema()["properties"]["configurable"]["properties"]
        {'op': {'title': 'op', 'default': 'default', 'enum': ['default', 'neg']}}
        """
        return fluent.config_schema(self)
