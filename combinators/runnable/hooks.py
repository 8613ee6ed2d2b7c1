"""``RunnableHooks``: the author base of every runnable, apart from what users call.

A runnable is an immutable description; building one never runs anything, the runtime in
``effects`` runs it through these hooks. To write your own, subclass ``Runnable`` and
implement ``step_invoke`` (and optionally ``step_ainvoke``, ``step_stream``,
``step_astream``); run children through the ``scope`` you are given. The names defined
here are the author surface (a test keeps them apart from the user API: ``dir(Runnable)``
less these names is exactly what users call).

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

import typing
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final, Generic, Literal, Never, Protocol, TypeVar, cast

from types import MappingProxyType

from combinators.runnable import fluent
from effects.lazy import deferred

if TYPE_CHECKING:
    from combinators.graph import Fragment, GraphBuilder, RunPlace
    from combinators.runnable.composing import AnyRunnable
    from combinators.runnable.draws import InputDraw
    from effects.authoring import Scope, aiter_of, arun_on_total, atotal_of, in_worker, run_on_total, total_of
    from effects import config
    from effects.config import RunConfig
    from effects.step import StepBinding
else:
    # The runtime loads when a default hook first runs, not when a runnable is defined.
    deferred(
        globals(),
        "effects.authoring",
        "aiter_of",
        "arun_on_total",
        "atotal_of",
        "in_worker",
        "run_on_total",
        "total_of",
    )
    deferred(globals(), "effects.config")  # the module, as `config`

_NO_PARAMS: Final[Mapping[str, object]] = MappingProxyType({})


In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
# The step types of the typed ladders (``a | b``, ``RunnableSequence(a, ..., f)``,
# ``parallel(a, ..., e)`` over one input ``X``): declared once, here, beside ``In``/``Out``.
A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
E = TypeVar("E")
F = TypeVar("F")
X = TypeVar("X")


class _Printer(Protocol):
    """What IPython and hypothesis hand to ``_repr_pretty_``."""

    def text(self, text: str) -> None: ...


class RunnableHooks(Generic[In, Out]):
    """The hooks the runtime calls on a step, with their defaults (the author surface).

    >>> from combinators import RunnableLambda
    >>> from combinators.runnable.hooks import RunnableHooks
    >>> isinstance(RunnableLambda(abs), RunnableHooks), RunnableLambda(abs).run_type
    (True, 'chain')
    """

    __slots__ = ()

    run_type: str = "chain"
    """How events and logs classify this step's runs."""
    is_leaf: bool = True
    """Leaves take a ``max_concurrency`` permit; containers (sequences, maps) do not."""
    input_known_at_start: bool = True
    """Whether, when streamed, this step takes its whole input before it starts (so its
    start event shows the input); stream transforms (lambdas, generators, parsers,
    containers) set False and report their input at their end."""
    streams_in_place: bool = False
    """Whether, streamed inside a run, this step is no run of its own: the runs it starts
    take its place (its step tag, its parent), as the peer's retry when streamed."""
    relays_chunks: bool = False
    """Whether this step's stream only relays a child's chunks (fallbacks): inside a chain
    its run shows no stream events of its own (the child's run shows them), and the
    chunks still flow on as they come."""

    if TYPE_CHECKING:
        # Declared for the checkers only: the runtime's ``StepBinding`` is not loaded with
        # ``import combinators``, and ``typing.get_type_hints(Runnable)`` must still resolve.
        step_binding: StepBinding[In, Out] | None
    step_binding = None
    """Set by nodes that adjust how another runs instead of being a run themselves
    (a class attribute, read on every step: cheaper than a property)."""

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

    # ------------------------------------------------------------------ running hooks

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        """Hook: compute the output for one input (default: add up ``step_stream``, or
        call the ``invoke`` a subclass wrote in the peer's way)."""
        if _overrides(self, "invoke"):
            written: Out = getattr(self, "invoke")(input, _peer_config(scope), **kwargs)
            return written
        if not _overrides(self, "step_stream") and not _overrides(self, "stream"):
            raise NotImplementedError(f"{type(self).__name__} must implement step_invoke or step_stream (or invoke)")
        return total_of(self.step_stream(iter((input,)), scope, kwargs), _name(self))

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        """Hook: async ``step_invoke`` (default: the async stream added up, else the sync
        one; a peer-style ``invoke`` without ``ainvoke`` runs on a thread, as the peer's)."""
        if _overrides(self, "ainvoke"):
            written: Out = await getattr(self, "ainvoke")(input, _peer_config(scope), **kwargs)
            return written
        if _overrides(self, "step_astream") or _overrides(self, "astream"):
            return await atotal_of(self.step_astream(aiter_of((input,)), scope, kwargs), _name(self))
        if _overrides(self, "invoke"):
            # The library's own daemon pool, not the loop's default executor: asyncio.run
            # never waits for a thread that a time limit abandoned.
            return await in_worker(scope, self.step_invoke, input, scope, kwargs)
        return self.step_invoke(input, scope, kwargs)

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        """Hook: a stream transform (default: add the input up with ``+``, then invoke, or
        the ``stream`` a subclass wrote in the peer's way)."""
        return run_on_total(inputs, lambda total: _stream_total(self, total, scope, kwargs))

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        """Hook: async ``step_stream`` (default: add up, then ``step_ainvoke``; a peer-style
        ``astream`` if a subclass wrote one)."""
        return arun_on_total(inputs, lambda total: _astream_total(self, total, scope, kwargs))

    # ------------------------------------------------------------------ describing hooks

    def describe_input(self, input: In) -> object:
        """How events show this step's input (as is, unless a component says otherwise)."""
        return input

    def describe_output(self, output: Out) -> object:  # type: ignore[misc]
        """How end events show this step's output."""
        return output

    def describe_params(self, kwargs: Mapping[str, object]) -> Mapping[str, object]:
        """What traces show of a call (a model's name and options); nothing by default."""
        return _NO_PARAMS

    def tool_call_id(self, input: In) -> str | None:
        """The id of the tool call ``input`` is, for a tool run's error events (else None)."""
        return None

    def check_config(self, config: RunConfig) -> None:
        """Refuse, at the root of a call, configurable ids or values this chain does not take.

        >>> from combinators import ConfigurableField, pure
        >>> answer = pure("yes").configurable_fields(value=ConfigurableField(id="answer"))
        >>> answer.invoke("?", {"configurable": {"anwser": "no"}})
        Traceback (most recent call last):
        ...
        combinators.nodes.configurable.ConfigurableError: pure has no configurable id 'anwser'; its ids are: 'answer'
        """
        fluent.check_config(cast("AnyRunnable", self), config.configurable)

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """Hook: add this runnable's part of a graph (default: one step). Every container
        of the library overrides it in its own module (a sequence draws its steps in
        series, a parallel a fork); override it to expand a runnable of your own, or to
        mark it: ``graph.step(self, place, kind="remote")``.

        >>> from combinators import RunnableLambda
        >>> from combinators.graph import GraphBuilder, RunPlace
        >>> builder = GraphBuilder()
        >>> RunnableLambda(abs).graph_fragment(builder, RunPlace((), None, "abs"))
        Fragment(entry='n0', exit='n0')
        """
        return graph.step(cast("AnyRunnable", self), place)

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """Hook: the type this runnable takes (``"input"``) or gives (``"output"``), which
        its JSON Schemas are drawn from; ``Any`` when it does not say. Default: what its
        class binds ``Runnable[In, Out]`` to. A container answers from its parts (a
        sequence from its first and last steps), a lambda from its function's hints.

        >>> from combinators import Runnable
        >>> class Shout(Runnable[str, str]):
        ...     pass
        >>> Shout.declared_type(Shout(), "input")
        <class 'str'>
        """
        return fluent.declared_type(type(self), which)

    def input_schema_before(self, following: Callable[[], Mapping[str, object]]) -> dict[str, object]:
        """Hook: the input schema of a sequence that starts with this step, ``following``
        giving the rest's (called only if needed). Default: this step's ``input_schema()``;
        an assign answers the rest's object less the keys it assigns, as the peer's.

        >>> from combinators import RunnableLambda
        >>> def size(text: str) -> int:
        ...     return len(text)
        >>> RunnableLambda(size).input_schema_before(dict)
        {'title': 'size_input', 'type': 'string'}
        """
        return cast("AnyRunnable", self).input_schema()

    def input_draw(self) -> InputDraw:
        """Hook: what a property test draws as this runnable's input (the answers are in
        ``combinators.runnable.draws``; ``combinators.testing.inputs_for`` asks, runs never
        do). Default: values of its ``declared_type("input")``; a type variable that is
        also its output gives what it takes (``DrawFromNext()``: the steps after it
        decide), ``Any`` or another type variable cannot say (``DrawUnknown()``). A node
        built on others points at them in its own module (``DrawThrough``,
        ``DrawFirstKnown``, ``DrawListOf``); a component says what its inputs are (a
        model ``str``, a retriever ``DrawText()``, a prompt ``DrawVariables``).

        >>> from combinators import Runnable
        >>> class Shout(Runnable[str, str]):
        ...     pass
        >>> Shout().input_draw()
        DrawValues(type=<class 'str'>)
        """
        from combinators.runnable.draws import DrawFromNext, DrawUnknown, DrawValues  # loaded when asked

        declared = self.declared_type("input")
        if declares(self, "input"):
            return DrawValues(declared)
        passes_on = isinstance(declared, TypeVar) and self.declared_type("output") is declared
        return DrawFromNext() if passes_on else DrawUnknown()


def first_declared(candidates: Iterable[RunnableHooks[Never, object]], which: Literal["input", "output"]) -> object:
    """The first type one of ``candidates`` declares (``Any`` if none does), for a node that
    answers ``declared_type`` from its parts. A type variable says nothing: a generic
    runnable (a passthrough, ``(x: T) -> T``) takes what it is given.

    >>> from combinators import RunnableLambda, RunnablePassthrough
    >>> def size(text: str) -> int:
    ...     return len(text)
    >>> first_declared([RunnablePassthrough(), RunnableLambda(size)], "input")
    <class 'str'>
    """
    declared = (candidate.declared_type(which) for candidate in candidates)
    return next((found for found in declared if found is not Any and not isinstance(found, TypeVar)), Any)


def declares(runnable: RunnableHooks[Never, object], which: Literal["input", "output"]) -> bool:
    """Whether ``runnable`` says what it takes or gives (``first_declared`` finds a type).

    >>> from combinators import RunnableLambda, RunnablePassthrough
    >>> def size(text: str) -> int:
    ...     return len(text)
    >>> declares(RunnableLambda(size), "output"), declares(RunnablePassthrough(), "output")
    (True, False)
    """
    return first_declared((runnable,), which) is not Any


def union_declared(candidates: Iterable[RunnableHooks[Never, object]], which: Literal["input", "output"]) -> object:
    """The union of the types ``candidates`` declare, ``Any`` unless each declares one: what
    a node that runs one of them gives (a branch, a router).

    >>> from combinators import RunnableLambda
    >>> def size(text: str) -> int:
    ...     return len(text)
    >>> def shout(text: str) -> str:
    ...     return text.upper()
    >>> union_declared([RunnableLambda(size), RunnableLambda(shout), RunnableLambda(size)], "output")
    typing.Union[int, str]
    """
    found: list[object] = []
    for candidate in candidates:
        declared = first_declared((candidate,), which)
        if declared is Any:
            return Any
        if declared not in found:
            found.append(declared)
    # A union of a tuple built at run time: no type expression, so read off the module.
    union: object = getattr(typing, "Union")[tuple(found)] if found else Any
    return union


def _name(runnable: RunnableHooks[Never, object]) -> str:
    name: str = getattr(runnable, "name", type(runnable).__name__)
    return name


def _peer_config(scope: Scope) -> dict[str, object]:
    """The config a method written in the peer's way (``invoke(self, input, config)``)
    receives: a plain dict, as the peer's merged config (``tags``, ``metadata`` and
    ``configurable`` always, the other keys once set). Our own hooks keep the ``RunConfig``."""
    shown: dict[str, object] = dict(scope.config.for_children().to_dict())
    if shown["recursion_limit"] == config.DEFAULT_RECURSION_LIMIT:
        del shown["recursion_limit"]
    return shown


def _stream_total(runnable: RunnableHooks[A, B], total: A, scope: Scope, kwargs: Mapping[str, object]) -> Iterator[B]:
    if _overrides(runnable, "stream"):
        yield from getattr(runnable, "stream")(total, _peer_config(scope), **kwargs)
        return
    yield runnable.step_invoke(total, scope, kwargs)


async def _astream_total(
    runnable: RunnableHooks[A, B], total: A, scope: Scope, kwargs: Mapping[str, object]
) -> AsyncIterator[B]:
    if _overrides(runnable, "astream"):
        async for chunk in getattr(runnable, "astream")(total, _peer_config(scope), **kwargs):
            yield chunk
        return
    if _overrides(runnable, "step_stream") and not _overrides(runnable, "step_ainvoke"):
        # A sync-only stream transform: run its generator over the collected input.
        for out in runnable.step_stream(iter((total,)), scope, kwargs):
            yield out
        return
    yield await runnable.step_ainvoke(total, scope, kwargs)


_STREAM_HOOKS: Final = frozenset({"step_stream", "step_astream", "stream", "astream"})

_DEFAULTS: Final[dict[str, object]] = {}
"""Each hook's default definition (filled by ``Runnable``'s module: the peer-style
``invoke`` and friends are defined in ``RunnableCalls``, not here)."""

_OWN_HOOKS: Final[dict[type, frozenset[str]]] = {}


def default_hooks(*owners: type) -> None:
    """Record the definitions on ``owners`` as the defaults ``_overrides`` compares with."""
    for hook in ("invoke", "ainvoke", "stream", "astream", "step_stream", "step_astream", "step_ainvoke"):
        for owner in owners:
            if hook in vars(owner):
                _DEFAULTS[hook] = vars(owner)[hook]


def _own_hooks(cls: type) -> frozenset[str]:
    """The hooks ``cls`` implements itself (not the defaults), worked out once per class:
    the default hooks ask on every run."""
    found = _OWN_HOOKS.get(cls)
    if found is None:
        found = _OWN_HOOKS[cls] = frozenset(
            hook for hook, default in _DEFAULTS.items() if getattr(cls, hook, default) is not default
        )
    return found


def _overrides(runnable: RunnableHooks[Never, object], hook: str) -> bool:
    """Whether ``runnable``'s class implements ``hook`` itself (not the default)."""
    return hook in _own_hooks(type(runnable))


__all__ = ["RunnableHooks", "default_hooks", "first_declared", "union_declared"]
