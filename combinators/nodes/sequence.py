"""``RunnableSequence``: steps run one after another, each on the previous output.

Joining with ``|`` is O(1): a sequence keeps the two parts it was built from and
flattens them once, on first use, so building a 1000-step chain is linear.

>>> from combinators import RunnableLambda, RunnableSequence
>>> def inc(x: int) -> int:
...     return x + 1
>>> seq = RunnableSequence(RunnableLambda(inc), RunnableLambda(inc), RunnableLambda(inc))
>>> seq.invoke(0), len(seq.steps)
(3, 3)
>>> (seq | inc) == RunnableSequence(*seq.steps, RunnableLambda(inc))
True
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any, Final, Literal, Never, TYPE_CHECKING, TypeAlias, final, overload

import attrs

from combinators._support.declared import init_fields
from combinators.runnable.composing import AnyRunnable, Runnable
from combinators.runnable.hooks import A, B, C, D, E, F, In, Out
from effects.authoring import Scope, attrs_built

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw
    from combinators.graph import Fragment, GraphBuilder, RunPlace


RunnableLike: TypeAlias = "AnyRunnable | Callable[..., object] | Mapping[str, object]"
"""A step as ``|`` takes it: a runnable, a function, or a dict of steps (a parallel)."""

_NO_KWARGS: Final[Mapping[str, object]] = {}  # the call's kwargs reach the first step only


def _flatten(parts: tuple[AnyRunnable, ...]) -> tuple[AnyRunnable, ...]:
    # Iterative, so a left-deep chain of thousands of `|` never hits the recursion limit.
    out: list[AnyRunnable] = []
    stack = list(reversed(parts))
    while stack:
        part = stack.pop()
        if isinstance(part, RunnableSequence) and part.label is None:
            stack.extend(reversed(part.parts))
        else:
            out.append(part)
    return tuple(out)


def _coerced(steps: Sequence[RunnableLike]) -> tuple[AnyRunnable, ...]:
    # Functions and dicts become steps exactly as `|` makes them.
    if len(steps) < 2:
        raise ValueError(f"RunnableSequence needs at least 2 steps, got {len(steps)}")
    from combinators._support.coerce import coerce_to_runnable

    return tuple(coerce_to_runnable(step) for step in steps)


def _built(parts: tuple[AnyRunnable, ...], name: str | None) -> RunnableSequence[Never, object]:
    # Parts already coerced: the overloaded __init__ is skipped (effects._fast).
    kind: type[RunnableSequence[Never, object]] = RunnableSequence
    return attrs_built(kind, parts, name)


def _joined(first: Runnable[A, B], second: Runnable[B, C], name: str | None) -> RunnableSequence[A, C]:
    # The parts' types fit (A to B to C), so the sequence runs A to C.
    kind: type[RunnableSequence[A, C]] = RunnableSequence
    return attrs_built(kind, (first, second), name)


@final
@attrs.frozen(init=False, repr=False, eq=False)
class RunnableSequence(Runnable[In, Out]):
    """Steps in order; keyword arguments of a call reach the first step only."""

    parts: tuple[AnyRunnable, ...]
    label: str | None
    _layout: _Layout | None = attrs.field(default=None, init=False, repr=False, eq=False, hash=False)
    """Its steps as it runs them, worked out on first use (``_laid_out``). A slot, not a
    ``functools.cached_property``: attrs gives a slotted class with one a ``__getattr__``,
    and every attribute read of an instance then misses the interpreter's fast paths."""

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """Its first step's input, its last step's output."""
        return (self.steps[0] if which == "input" else self.steps[-1]).declared_type(which)

    def input_draw(self) -> InputDraw:
        """What its first step that does not pass its input on draws."""
        from combinators.runnable.draws import DrawThrough  # loaded when asked

        return DrawThrough(self.steps)

    def input_schema(self) -> dict[str, Any]:
        """Its first step's input schema, as the peer's (a prompt's variables, required).

        >>> from combinators.prompts import PromptTemplate
        >>> (PromptTemplate("{topic}") | str).input_schema()["required"]
        ['topic']
        """
        return _input_schema(self.steps)

    def output_schema(self) -> dict[str, Any]:
        """Its last step's output schema, title included, as the peer's.

        >>> from combinators.output_parsers import StrOutputParser
        >>> from combinators.prompts import PromptTemplate
        >>> (PromptTemplate("{topic}") | str | StrOutputParser()).output_schema()
        {'title': 'StrOutputParserOutput', 'type': 'string'}
        """
        return self.steps[-1].output_schema()

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """Its steps one after another."""
        return graph.series([graph.child(s, place, f"seq:step:{i}") for i, s in enumerate(self.steps, 1)])

    @overload
    def __init__(
        self: RunnableSequence[A, C],
        s1: Runnable[A, B],
        s2: Runnable[B, C],
        /,
        *,
        name: str | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableSequence[A, D],
        s1: Runnable[A, B],
        s2: Runnable[B, C],
        s3: Runnable[C, D],
        /,
        *,
        name: str | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableSequence[A, E],
        s1: Runnable[A, B],
        s2: Runnable[B, C],
        s3: Runnable[C, D],
        s4: Runnable[D, E],
        /,
        *,
        name: str | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableSequence[A, F],
        s1: Runnable[A, B],
        s2: Runnable[B, C],
        s3: Runnable[C, D],
        s4: Runnable[D, E],
        s5: Runnable[E, F],
        /,
        *,
        name: str | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self: RunnableSequence[Any, Any],
        s1: AnyRunnable,
        s2: AnyRunnable,
        s3: AnyRunnable,
        s4: AnyRunnable,
        s5: AnyRunnable,
        s6: AnyRunnable,
        /,
        *steps: AnyRunnable,
        name: str | None = None,
    ) -> None: ...

    def __init__(self, *steps: RunnableLike, name: str | None = None) -> None:
        init_fields(self, _coerced(steps), name)

    @staticmethod
    def join(first: Runnable[A, B], second: Runnable[B, C], *, name: str | None = None) -> RunnableSequence[A, C]:
        """``first | second`` in O(1) (flattened lazily); both are runnables already.

        >>> from combinators import RunnableLambda
        >>> RunnableSequence.join(RunnableLambda(str), RunnableLambda(len)).invoke(123)
        3
        """
        return _joined(first, second, name)

    @overload
    @staticmethod
    def from_(steps: tuple[Runnable[A, B], Runnable[B, C]], *, name: str | None = None) -> RunnableSequence[A, C]: ...

    @overload
    @staticmethod
    def from_(
        steps: tuple[Runnable[A, B], Runnable[B, C], Runnable[C, D]], *, name: str | None = None
    ) -> RunnableSequence[A, D]: ...

    @overload
    @staticmethod
    def from_(
        steps: tuple[Runnable[A, B], Runnable[B, C], Runnable[C, D], Runnable[D, E]],
        *,
        name: str | None = None,
    ) -> RunnableSequence[A, E]: ...

    @overload
    @staticmethod
    def from_(
        steps: tuple[Runnable[A, B], Runnable[B, C], Runnable[C, D], Runnable[D, E], Runnable[E, F]],
        *,
        name: str | None = None,
    ) -> RunnableSequence[A, F]: ...

    @overload
    @staticmethod
    def from_(steps: list[RunnableLike], *, name: str | None = None) -> RunnableSequence[Any, Any]: ...

    @staticmethod
    def from_(steps: Sequence[RunnableLike], *, name: str | None = None) -> RunnableSequence[Never, object]:
        """Build from a list of steps (LangChain.js's ``RunnableSequence.from``); functions
        and dicts are coerced as ``|`` coerces them.

        >>> from combinators import RunnableLambda
        >>> RunnableSequence.from_([RunnableLambda(str), RunnableLambda(len)]).invoke(123)
        3
        >>> RunnableSequence.from_([{"n": len}, RunnableLambda(str)]).invoke("abc")
        "{'n': 3}"
        """
        return _built(_coerced(steps), name)

    @property
    def steps(self) -> tuple[AnyRunnable, ...]:
        """The flat list of steps (nested unnamed sequences are spliced in)."""
        return self._laid_out().runs

    def _laid_out(self) -> _Layout:
        layout = self._layout
        if layout is None:
            layout = _layout_of(self.parts)
            object.__setattr__(self, "_layout", layout)
        return layout

    @property
    def first(self) -> Runnable[In, object]:
        """The first step."""
        return self._laid_out().runs[0]

    @property
    def last(self) -> Runnable[Never, Out]:
        """The last step."""
        return self._laid_out().runs[-1]

    @property
    def name(self) -> str:
        return self.label or "RunnableSequence"

    is_leaf = False
    input_known_at_start = False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunnableSequence):
            return NotImplemented
        return self.label == other.label and self.steps == other.steps

    def __hash__(self) -> int:
        return hash((self.label, self.steps))

    def __repr__(self) -> str:
        body = " | ".join(_repr_step(s) for s in self.steps)
        if self.label is None:
            return body
        return f"RunnableSequence({', '.join(map(repr, self.steps))}, name={self.label!r})"

    def receiver_repr(self) -> str:
        return f"({self!r})"

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        layout = self._layout or self._laid_out()
        steps = layout.runs
        tags = layout.tags
        value = scope.invoke(steps[0], input, tags[0], kwargs)
        for i in range(1, len(steps)):
            value = scope.invoke(steps[i], value, tags[i])
        output: Out = value  # the steps fit: the constructor's overloads say so
        return output

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        layout = self._layout or self._laid_out()
        steps = layout.runs
        tags = layout.tags
        value = await scope.ainvoke(steps[0], input, tags[0], kwargs)
        for i in range(1, len(steps)):
            value = await scope.ainvoke(steps[i], value, tags[i])
        output: Out = value
        return output

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        layout = self._layout or self._laid_out()
        steps = layout.runs
        if layout.unbound and scope.plain:
            # No child is a run of its own: the stream's first chunk touches only the steps.
            chunks = steps[0].step_stream(inputs, scope, kwargs)
            for i in range(1, len(steps)):
                chunks = steps[i].step_stream(chunks, scope, _NO_KWARGS)
            return chunks
        tags = layout.tags
        chunks = scope.stream(steps[0], inputs, tags[0], kwargs)
        for i in range(1, len(steps)):
            chunks = scope.stream(steps[i], chunks, tags[i])
        return chunks

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        layout = self._layout or self._laid_out()
        steps = layout.runs
        if layout.unbound and scope.plain:
            chunks = steps[0].step_astream(inputs, scope, kwargs)
            for i in range(1, len(steps)):
                chunks = steps[i].step_astream(chunks, scope, _NO_KWARGS)
            return chunks
        tags = layout.tags
        chunks = scope.astream(steps[0], inputs, tags[0], kwargs)
        for i in range(1, len(steps)):
            chunks = scope.astream(steps[i], chunks, tags[i])
        return chunks


@final
@attrs.frozen
class _Layout:
    """What a sequence works out from its parts once, on first use (``|`` stays O(1))."""

    runs: tuple[Runnable[Any, Any], ...]
    """The flat steps as the sequence runs them: each on the output of the one before,
    whose type only the constructor's overloads knew."""
    tags: tuple[str, ...]
    """Each step's tag in the sequence's run: ``seq:step:1``, ``seq:step:2``, ..."""
    unbound: bool
    """Whether no step has a binding: under a plain scope each step then runs by a direct
    call of its own hook, which is what ``scope.stream`` would do. (A binding is made with
    its step, which is frozen after: this holds for good.)"""


def _layout_of(parts: tuple[AnyRunnable, ...]) -> _Layout:
    runs = _flatten(parts)
    tags = tuple(f"seq:step:{i}" for i in range(1, len(runs) + 1))
    return _Layout(runs, tags, all(s.step_binding is None for s in runs))


def _repr_step(step: AnyRunnable) -> str:
    text = repr(step)
    return f"({text})" if isinstance(step, RunnableSequence) else text


def _input_schema(steps: Sequence[AnyRunnable]) -> dict[str, object]:
    # Each step answers through its hook, the rest's schema asked only when it needs it.
    if not steps:
        return {}
    return steps[0].input_schema_before(lambda: _input_schema(steps[1:]))
