"""The running half of ``Runnable``: the step hooks and the calls that run them.

``combinators.runnable.composing.Runnable`` adds the combinators on top. A runnable is an
immutable description; building one never runs anything. The runtime in
``effects`` runs it. To write your own, subclass ``Runnable`` and implement
``step_invoke`` (and optionally ``step_ainvoke``, ``step_stream``,
``step_astream``); run children through the ``scope`` you are given.

>>> import attrs
>>> from combinators import Runnable
>>> @attrs.frozen
... class Shout(Runnable[str, str]):
...     def step_invoke(self, input, scope, kwargs):
...         return input.upper() + "!"
>>> Shout().invoke("hi")
'HI!'
>>> list(Shout().stream("hey"))
['HEY!']
"""

from __future__ import annotations

from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Coroutine,
    Iterable,
    Iterator,
    Mapping,
)
from typing import TYPE_CHECKING, Any, Final, Generic, Never, Protocol, TypeVar, cast

from combinators.runnable import fluent
from effects._runtime import calls as entry
from effects.config import ConfigLike, RunConfig
from effects._runtime.scope import Scope
from effects.step import StepBinding
from effects._runtime.closing import aiter_of
from effects._runtime.total import aadd_up, add_up, arun_on_total, run_on_total
from effects.values import NO_PARAMS

if TYPE_CHECKING:
    from combinators.runnable import Runnable


In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
A = TypeVar("A")
B = TypeVar("B")


class _Printer(Protocol):
    """What IPython and hypothesis hand to ``_repr_pretty_``."""

    def text(self, text: str) -> None: ...


class RunnableCore(Generic[In, Out]):
    """The hooks and the running methods of every runnable."""

    __slots__ = ()

    run_type: str = "chain"
    """How events and logs classify this step's runs."""
    is_leaf: bool = True
    """Leaves take a ``max_concurrency`` permit; containers (sequences, maps) do not."""
    input_known_at_start: bool = True
    """Whether, when streamed, this step takes its whole input before it starts (so its
    start event shows the input); stream transforms (lambdas, generators, parsers,
    containers) set False and report their input at their end."""

    @property
    def name(self) -> str:
        """The run name in events and logs (the class name unless a node says otherwise)."""
        return type(self).__name__

    @property
    def emits_stream_events(self) -> bool:
        """Whether this step's chunks show as stream events when it runs inside a chain:
        only a step that streams by itself (it implements ``step_stream``, or ``stream``
        in the peer's way) does."""
        return not _STREAM_HOOKS.isdisjoint(_own_hooks(type(self)))

    def receiver_repr(self) -> str:
        """``repr`` as the receiver of a method call (``x.with_retry()``): a chain of
        ``|`` gets parentheses, so the text still reads as the value it is."""
        return repr(self)

    def _repr_pretty_(self, printer: _Printer, cycle: bool) -> None:
        # IPython and hypothesis print values with this: show the expression, not fields.
        printer.text(repr(self))

    step_binding: StepBinding[In, Out] | None = None
    """Set by nodes that adjust how another runs instead of being a run themselves
    (a class attribute, read on every step: cheaper than a property)."""

    # ------------------------------------------------------------------ hooks

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        """Hook: compute the output for one input (default: add up ``step_stream``, or
        call the ``invoke`` a subclass wrote in the peer's way)."""
        if _overrides(self, "invoke"):
            written: Out = self.invoke(input, scope.config.for_children(), **kwargs)
            return written
        if not _overrides(self, "step_stream") and not _overrides(self, "stream"):
            raise NotImplementedError(f"{type(self).__name__} must implement step_invoke or step_stream (or invoke)")
        return add_up(self.step_stream(iter((input,)), scope, kwargs), self.name)

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        """Hook: async ``step_invoke`` (default: the async stream added up, else the sync
        one; a peer-style ``invoke`` without ``ainvoke`` runs on a thread, as the peer's)."""
        if _overrides(self, "ainvoke"):
            written: Out = await self.ainvoke(input, scope.config.for_children(), **kwargs)
            return written
        if _overrides(self, "step_astream") or _overrides(self, "astream"):
            return await aadd_up(self.step_astream(aiter_of((input,)), scope, kwargs), self.name)
        if _overrides(self, "invoke"):
            import asyncio

            return await asyncio.to_thread(self.step_invoke, input, scope, kwargs)
        return self.step_invoke(input, scope, kwargs)

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        """Hook: a stream transform (default: add the input up with ``+``, then invoke, or
        the ``stream`` a subclass wrote in the peer's way)."""
        return run_on_total(inputs, lambda total: _stream_total(self, total, scope, kwargs))

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        """Hook: async ``step_stream`` (default: add up, then ``step_ainvoke``; a peer-style
        ``astream`` if a subclass wrote one)."""
        return arun_on_total(inputs, lambda total: _astream_total(self, total, scope, kwargs))

    def describe_input(self, input: In) -> object:
        """How events show this step's input (as is, unless a component says otherwise)."""
        return input

    def describe_output(self, output: Out) -> object:  # type: ignore[misc]
        """How end events show this step's output."""
        return output

    def check_config(self, config: RunConfig) -> None:
        """Refuse, at the root of a call, configurable ids or values this chain does not take.

        >>> from combinators import ConfigurableField, pure
        >>> answer = pure("yes").configurable_fields(value=ConfigurableField(id="answer"))
        >>> answer.invoke("?", {"configurable": {"anwser": "no"}})
        Traceback (most recent call last):
        ...
        combinators.nodes.configurable.ConfigurableError: pure has no configurable id 'anwser'; its ids are: 'answer'
        """
        fluent.check_config(cast("Runnable[Any, Any]", self), config.configurable)

    def describe_params(self, kwargs: Mapping[str, object]) -> Mapping[str, object]:
        """What traces show of a call (a model's name and options); nothing by default."""
        return NO_PARAMS

    def tool_call_id(self, input: In) -> str | None:
        """The id of the tool call ``input`` is, for a tool run's error events (else None)."""
        return None

    # ------------------------------------------------------------------ running

    def invoke(self, input: In, config: ConfigLike = None, **kwargs: object) -> Out:
        """Run once on ``input``.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: x + 1).invoke(1)
        2
        """
        return entry.invoke(self, input, config, kwargs)

    def ainvoke(self, input: In, config: ConfigLike = None, **kwargs: object) -> Coroutine[Any, Any, Out]:
        """Run once on ``input`` in the running event loop (a coroutine, as from ``async def``).

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> asyncio.run(RunnableLambda(lambda x: x * 2).ainvoke(4))
        8
        """
        return entry.ainvoke(self, input, config, kwargs)

    def stream(self, input: In, config: ConfigLike = None, **kwargs: object) -> Iterator[Out]:
        """Stream output chunks for one input.

        >>> from combinators import RunnableLambda
        >>> def words(text: str):
        ...     yield from text.split()
        >>> list(RunnableLambda(words).stream("a b c"))
        ['a', 'b', 'c']
        """
        return entry.stream(self, input, config, kwargs)

    def astream(self, input: In, config: ConfigLike = None, **kwargs: object) -> AsyncIterator[Out]:
        """Async ``stream``. Use ``contextlib.aclosing`` when you ``break`` out early.

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> async def main():
        ...     return [c async for c in RunnableLambda(str.upper).astream("hi")]
        >>> asyncio.run(main())
        ['HI']
        """
        return entry.astream(self, input, config, kwargs)

    def transform(self, inputs: Iterable[In], config: ConfigLike = None, **kwargs: object) -> Iterator[Out]:
        """Stream output over a stream of input chunks.

        >>> from combinators import RunnableLambda
        >>> list(RunnableLambda(str.upper).transform(["a", "b"]))
        ['AB']
        """
        return entry.transform(self, inputs, config, kwargs)

    def atransform(self, inputs: AsyncIterable[In], config: ConfigLike = None, **kwargs: object) -> AsyncIterator[Out]:
        """Async ``transform``.

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> async def chunks():
        ...     yield "a"; yield "b"
        >>> async def main():
        ...     return [c async for c in RunnableLambda(str.upper).atransform(chunks())]
        >>> asyncio.run(main())
        ['AB']
        """
        return entry.atransform(self, inputs, config, kwargs)


def _stream_total(runnable: RunnableCore[A, B], total: A, scope: Scope, kwargs: Mapping[str, object]) -> Iterator[B]:
    if _overrides(runnable, "stream"):
        yield from runnable.stream(total, scope.config.for_children(), **kwargs)
        return
    yield runnable.step_invoke(total, scope, kwargs)


async def _astream_total(
    runnable: RunnableCore[A, B], total: A, scope: Scope, kwargs: Mapping[str, object]
) -> AsyncIterator[B]:
    if _overrides(runnable, "astream"):
        async for chunk in runnable.astream(total, scope.config.for_children(), **kwargs):
            yield chunk
        return
    if _overrides(runnable, "step_stream") and not _overrides(runnable, "step_ainvoke"):
        # A sync-only stream transform: run its generator over the collected input.
        for out in runnable.step_stream(iter((total,)), scope, kwargs):
            yield out
        return
    yield await runnable.step_ainvoke(total, scope, kwargs)


_HOOKS: Final = ("invoke", "ainvoke", "stream", "astream", "step_stream", "step_astream", "step_ainvoke")
_STREAM_HOOKS: Final = frozenset({"step_stream", "step_astream", "stream", "astream"})


_OWN_HOOKS: Final[dict[type, frozenset[str]]] = {}


def _own_hooks(cls: type) -> frozenset[str]:
    """The hooks ``cls`` implements itself (not ``RunnableCore``'s defaults), worked out
    once per class: the default hooks ask on every run."""
    found = _OWN_HOOKS.get(cls)
    if found is None:
        found = _OWN_HOOKS[cls] = frozenset(
            hook for hook in _HOOKS if getattr(cls, hook) is not getattr(RunnableCore, hook)
        )
    return found


def _overrides(runnable: RunnableCore[Never, object], hook: str) -> bool:
    """Whether ``runnable``'s class implements ``hook`` itself (not the default)."""
    return hook in _own_hooks(type(runnable))


__all__ = ["RunConfig", "RunnableCore"]
