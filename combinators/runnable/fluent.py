"""The nodes that ``Runnable``'s fluent methods build, imported when first called.

Every node is a subclass of ``Runnable``, so the module that defines ``Runnable`` cannot
import the node modules while it is being defined: they would import it back before it
exists. The fluent methods (``|``, ``map``, ``pick``, ``with_retry``, ...) therefore
reach the nodes through this module, the only place where those imports wait for the
first call (Python caches each module after that, so the cost is one dictionary lookup).

>>> from combinators import RunnableLambda
>>> then(RunnableLambda(str.split), RunnableLambda(len)).invoke("a b")
2
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    from returns.result import Failure, Success

    from combinators.graph import Graph
    from combinators.nodes.assign import Mapper
    from combinators.nodes.binding import ListenerFn, RunnableBinding
    from combinators.nodes.configurable import ConfigurableField, ConfigurableFieldSpec
    from combinators.nodes.tool import RunnableTool
    from typing import TypedDict, Unpack

    from combinators.retry_policy import RetryOn, RetryPolicy
    from combinators.runnable.composing import AnyRunnable, Runnable
    from effects.config import RunConfig
    from effects.step import ObserverFactory, Step

    class BindingFields(TypedDict, total=False):
        """``RunnableBinding.over``'s keyword parameters."""

        config: RunConfig
        kwargs: Mapping[str, object] | None
        observers: tuple[ObserverFactory, ...]
        input_type: type[object] | None
        output_type: type[object] | None

    class LangChainRetry(TypedDict, total=False):
        """``RetryPolicy.from_langchain``'s keyword parameters (the peer's ``with_retry``)."""

        retry_if_exception_type: RetryOn
        wait_exponential_jitter: bool
        exponential_jitter_params: Mapping[str, float] | None
        stop_after_attempt: int

    class ToolOptions(TypedDict, total=False):
        """``Runnable.as_tool``'s keyword parameters (``tool_from_runnable``'s), as the
        ``SyncCalls`` mirror of ``as_tool`` takes them."""

        name: str | None
        description: str | None
        args_schema: Mapping[str, object] | type[object] | None
        arg_types: Mapping[str, object] | None


A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")


def runnable(step: Step[A, B]) -> Runnable[A, B]:
    """``step`` as the ``Runnable`` it is (the generated calls type ``self`` as a ``Step``;
    every step that reaches them is a ``Runnable``)."""
    return cast("Runnable[A, B]", step)


def as_result(outcome: A | Exception) -> Success[A] | Failure[Exception]:
    """A batch outcome as a ``returns`` ``Result`` (``returns`` loads on first use)."""
    from returns.result import Failure, Success

    if isinstance(outcome, Exception):
        return Failure(outcome)
    return Success(outcome)


def coerce(other: object) -> Runnable[Any, Any]:
    """``other`` as a runnable (runnables, callables and dicts, as ``|`` takes them)."""
    from combinators._support.coerce import coerce_to_runnable

    return coerce_to_runnable(other)


def then(first: Runnable[A, B], second: Runnable[B, C], name: str | None = None) -> Runnable[A, C]:
    """``first`` then ``second``: a flat sequence."""
    from combinators.nodes.sequence import RunnableSequence

    return RunnableSequence.join(first, second, name=name)


def function(f: Callable[..., object]) -> Runnable[Any, Any]:
    """The function given to ``map``, as a step that runs inline (no worker-thread hop)."""
    from combinators.nodes.lambda_ import RunnableLambda

    # map's function reshapes an output (cheap plumbing, like retry predicates and
    # listeners), so under async it runs in the loop instead of paying a thread hop.
    return RunnableLambda(f, in_thread=False)


def bind(runnable: Runnable[A, B], f: Callable[[B], Runnable[A, C]]) -> Runnable[A, C]:
    """The reader-monad bind node."""
    from combinators.nodes.reader import RunnableBind

    return RunnableBind(runnable, f)


def each(runnable: Runnable[A, B]) -> Runnable[Sequence[A], list[B]]:
    """``runnable`` over every element of a list."""
    from combinators.nodes.each import RunnableEach

    return RunnableEach(runnable)


def pick(keys: str | Sequence[str], required: bool = False) -> Runnable[Mapping[str, object], Any]:
    """Keep one key, or some keys, of a dict (``required``: a missing key is an error)."""
    from combinators.nodes.pick import RunnablePick

    return RunnablePick(keys, required)


def assign(mappers: Mapping[str, Mapper]) -> Runnable[Mapping[str, Any], dict[str, Any]]:
    """Pass a dict through with keys added by a parallel map."""
    from combinators.nodes.assign import RunnableAssign

    return RunnableAssign.of(mappers)


def bound(runnable: Runnable[A, B], **fields: Unpack[BindingFields]) -> RunnableBinding[A, B]:
    """``runnable`` with config, keyword arguments, types or observers bound."""
    from combinators.nodes.binding import RunnableBinding

    return RunnableBinding.over(runnable, **fields)


def listening(
    runnable: Runnable[A, B],
    on_start: ListenerFn | None,
    on_end: ListenerFn | None,
    on_error: ListenerFn | None,
) -> Runnable[A, B]:
    """``runnable`` with listeners called at its start, end and error."""
    from combinators.nodes.binding import RunnableBinding, listeners

    return RunnableBinding.over(runnable, observers=(listeners(on_start, on_end, on_error),))


def observing(runnable: Runnable[A, B], factory: ObserverFactory) -> Runnable[A, B]:
    """``runnable`` watched by the observers ``factory`` makes (tracing, for one)."""
    from combinators.nodes.binding import RunnableBinding

    return RunnableBinding.over(runnable, observers=(factory,))


def retrying(
    runnable: Runnable[A, B],
    policy: RetryPolicy | None,
    on_failed_attempt: Callable[[BaseException, object, int], None] | None,
    **langchain_style: Unpack[LangChainRetry],
) -> Runnable[A, B]:
    """``runnable`` run again by ``policy`` (or one built from the peer's keywords)."""
    from combinators.nodes.retry import RunnableRetry
    from combinators.retry_policy import RetryPolicy

    return RunnableRetry(runnable, policy or RetryPolicy.from_langchain(**langchain_style), on_failed_attempt)


def falling_back(
    runnable: Runnable[A, B],
    fallbacks: Sequence[Runnable[A, B]],
    exceptions_to_handle: tuple[type[BaseException], ...],
    exception_key: str | None,
) -> Runnable[A, B]:
    """``runnable``, then each fallback, on the original input."""
    from combinators.nodes.fallbacks import RunnableWithFallbacks

    return RunnableWithFallbacks(runnable, tuple(fallbacks), exceptions_to_handle, exception_key)


def as_tool(runnable: Runnable[Any, B], **options: Unpack[ToolOptions]) -> RunnableTool[B]:
    """``runnable`` as a tool a model can call."""
    from combinators._support.tool_schema import tool_from_runnable

    return tool_from_runnable(runnable, **options)


def declared_type(cls: type, which: str) -> object:
    """What ``cls`` binds ``Runnable[In, Out]``'s input or output to (``Any`` if nothing)."""
    from combinators._support.runnable_schema import class_argument

    return class_argument(cls, 0 if which == "input" else 1)


def schema(runnable: AnyRunnable, which: str) -> dict[str, object]:
    """The JSON Schema of ``runnable``'s input or output."""
    from combinators._support.runnable_schema import input_schema, output_schema

    return input_schema(runnable) if which == "input" else output_schema(runnable)


def graph(runnable: AnyRunnable) -> Graph:
    """The graph of ``runnable``, containers expanded."""
    from combinators.graph.derive import graph_of

    return graph_of(runnable)


def configurable_fields(runnable: Runnable[A, B], fields: Mapping[str, ConfigurableField]) -> Runnable[A, B]:
    """``runnable`` with fields a call may replace by configurable id."""
    from combinators.nodes.configurable_fields import RunnableConfigurableFields

    return RunnableConfigurableFields.of(runnable, fields)


def configurable_alternatives(
    runnable: Runnable[A, B],
    which: ConfigurableField,
    alternatives: Mapping[str, Runnable[A, B]],
    default_key: str,
) -> Runnable[A, B]:
    """``runnable`` or one of ``alternatives``, chosen by configurable id."""
    from combinators.nodes.configurable_alternatives import RunnableConfigurableAlternatives

    return RunnableConfigurableAlternatives.of(runnable, which, alternatives, default_key)


def declaring(runnable: Runnable[A, B], specs: tuple[ConfigurableFieldSpec, ...]) -> Runnable[A, B]:
    """``runnable`` declaring configurable ids its own functions read."""
    from combinators.nodes.configurable_fields import RunnableConfigurableFields

    return RunnableConfigurableFields.declaring(runnable, specs)


def config_specs(runnable: AnyRunnable) -> list[ConfigurableFieldSpec]:
    """Every configurable id declared anywhere in ``runnable``."""
    from combinators._support.config_specs import config_specs as specs

    return specs(runnable)


def config_schema(runnable: AnyRunnable) -> dict[str, object]:
    """JSON Schema of the configurable ids of ``runnable``."""
    from combinators._support.config_specs import config_schema as schema

    return schema(runnable)


def check_config(runnable: AnyRunnable, configurable: Mapping[str, object]) -> None:
    """Refuse configurable ids or values ``runnable`` does not take."""
    from combinators._support.config_specs import check_configurable

    check_configurable(runnable, configurable)
