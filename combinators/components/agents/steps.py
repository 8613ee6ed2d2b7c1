"""What an agent run gives: tool outcomes, steps, the result that its chunks add up to,
and why it stopped (a closed union of values: ``Finished``, ``MaxIterations``, ``TimedOut``,
``ReturnedDirect``, ``Halted``).

A limit is never passed off as an answer: ``MaxIterations`` and ``TimedOut`` say so,
whatever the output (``None``, or the answer of one last call without tools when the
policy asks for it).

An ``AgentResult`` is what ``invoke`` returns, and what ``stream`` yields pieces of:
each streamed chunk is an ``AgentResult`` holding only what is new (the model asking
for tools, a step of tool results, the final answer), and the chunks add up with ``+``
to the result ``invoke`` gives. Messages and steps are concatenated; the output and
the stop reason are the last ones given.

>>> from combinators.messages import AIMessage, HumanMessage
>>> asked = AgentResult(messages=(HumanMessage("hi"), AIMessage("Hello!")), output="Hello!", stop=Finished())
>>> (AgentResult() + asked) == asked
True
>>> asked.output, asked.stop
('Hello!', Finished())
>>> MaxIterations(3), isinstance(Finished(), STOP_TYPES)
(MaxIterations(n=3), True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias, final

import attrs
from returns.result import Result, Success

from combinators.components.agents.transcript import unanswered
from combinators.components.messages.message_classes import AIMessage, Message, ToolCall, ToolMessage
from effects.authoring import is_a


# -- why a run stopped: a closed union of values ----------------------------------------


@final
@attrs.frozen
class Finished:
    """The model answered without asking for a tool.

    >>> Finished() == Finished()
    True
    """


@final
@attrs.frozen
class MaxIterations:
    """The model was called ``n`` times (the policy's ``max_iterations``) and still asked for tools.

    >>> MaxIterations(15).n
    15
    """

    n: int


@final
@attrs.frozen
class TimedOut:
    """The policy's ``timeout`` (in seconds) ran out; tool calls in flight were cancelled.

    >>> TimedOut(2.5).seconds
    2.5
    """

    seconds: float


@final
@attrs.frozen
class ReturnedDirect:
    """Every call of the last step went to a ``return_direct`` tool: its result is the output.

    >>> ReturnedDirect("search").tool
    'search'
    """

    tool: str


@final
@attrs.frozen(eq=False)
class Halted:
    """The run ended with ``error`` (a tool's error under ``tool_errors="raise"``, the
    model's error, a cancellation): the stop of ``partial_result(error)``.

    Equal when they hold the same error object.

    >>> error = ValueError("boom")
    >>> Halted(error) == Halted(error), Halted(error) == Halted(ValueError("boom"))
    (True, False)
    """

    error: BaseException

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Halted) and other.error is self.error

    def __hash__(self) -> int:
        return id(self.error)


StopReason: TypeAlias = "Finished | MaxIterations | TimedOut | ReturnedDirect | Halted"
"""Why an agent run stopped (a closed union)."""

STOP_TYPES: Final = (Finished, MaxIterations, TimedOut, ReturnedDirect, Halted)
"""The classes of ``StopReason``, for ``isinstance``."""


# -- what a run gives -------------------------------------------------------------------


def _outcomes(values: Iterable[ToolOutcome]) -> tuple[ToolOutcome, ...]:
    return tuple(values)


def _messages(values: Iterable[Message]) -> tuple[Message, ...]:
    return tuple(values)


def _steps(values: Iterable[AgentStep]) -> tuple[AgentStep, ...]:
    return tuple(values)


def _result_repr(result: Result[object, Exception]) -> str:
    if isinstance(result, Success):
        return f"Success({result.unwrap()!r})"
    return f"Failure({result.failure()!r})"


@final
@attrs.frozen(repr=False)
class ToolOutcome:
    """One tool call answered: the call, what the tool returned (a ``returns`` ``Result``:
    ``Success(output)`` or ``Failure(error)``), and the ``ToolMessage`` the model gets.

    >>> call = ToolCall("add", {"a": 1, "b": 2}, id="c1")
    >>> done = ToolOutcome(call, Success(3), ToolMessage("3", tool_call_id="c1", name="add"))
    >>> done
    ToolOutcome(ToolCall(name='add', args={'a': 1, 'b': 2}, id='c1'), Success(3), ToolMessage('3', name='add', tool_call_id='c1'))
    >>> done.ok, done.output
    (True, 3)
    """

    call: ToolCall
    result: Result[object, Exception]
    message: ToolMessage

    @property
    def ok(self) -> bool:
        """Whether the tool returned (rather than failed or was not run)."""
        return isinstance(self.result, Success)

    @property
    def output(self) -> object:
        """What the tool returned, or None when it failed.

        >>> from returns.result import Failure
        >>> ToolOutcome(ToolCall("f", id="c"), Failure(ValueError("x")),
        ...             ToolMessage("ValueError: x", tool_call_id="c", status="error")).output is None
        True
        """
        return self.result.value_or(None)

    def __repr__(self) -> str:
        return f"ToolOutcome({self.call!r}, {_result_repr(self.result)}, {self.message!r})"


@final
@attrs.frozen
class AgentStep:
    """One iteration that used tools: the model's message and the outcome of each call, in call order.

    >>> call = ToolCall("add", {"a": 1}, id="c1")
    >>> step = AgentStep(AIMessage("", tool_calls=[call]), (ToolOutcome(call, Success(1), ToolMessage("1", tool_call_id="c1")),))
    >>> [o.output for o in step.outcomes], step.tool_messages[0].content
    ([1], '1')
    """

    message: AIMessage
    outcomes: tuple[ToolOutcome, ...] = attrs.field(converter=_outcomes)

    @property
    def tool_messages(self) -> tuple[ToolMessage, ...]:
        """The answers the model gets, one per call."""
        return tuple(outcome.message for outcome in self.outcomes)


@final
@attrs.frozen
class AgentResult:
    """An agent run's result, or (streamed) a piece of it; pieces add up with ``+``.

    ``output`` is the final answer's text (None when a limit stopped the run without
    one); ``messages`` is the conversation: the input's messages, then every message of
    the run, every tool call answered (a valid next-turn input for a model); ``steps``
    are the iterations that used tools; ``stop`` says why the run ended (None only in
    a streamed piece before the last).

    >>> from combinators.messages import HumanMessage
    >>> call = ToolCall("add", {"a": 1}, id="c1")
    >>> piece = AgentResult(messages=(HumanMessage("1+?"), AIMessage("", tool_calls=[call])))
    >>> piece.actions
    (ToolCall(name='add', args={'a': 1}, id='c1'),)
    """

    output: str | None = None
    messages: tuple[Message, ...] = attrs.field(default=(), converter=_messages)
    steps: tuple[AgentStep, ...] = attrs.field(default=(), converter=_steps)
    stop: StopReason | None = None

    @property
    def actions(self) -> tuple[ToolCall, ...]:
        """The tool calls asked for in these messages and not answered in them (a streamed
        piece announcing what runs next; empty for a whole result, which is sealed)."""
        return tuple(unanswered(self.messages))

    def __add__(self, other: AgentResult) -> AgentResult:
        if not is_a(other, AgentResult):
            return NotImplemented
        return AgentResult(
            other.output if other.output is not None else self.output,
            self.messages + other.messages,
            self.steps + other.steps,
            other.stop if other.stop is not None else self.stop,
        )
