"""``agent_loop``: a tool-calling agent as a fixpoint over a model step and tool steps.

The loop's decisions (call the model, run the tools it asked for, stop at a limit)
are one plain generator, ``AgentLoop.decide``, that yields requests; a sync and an
async driver carry them out through the run's ``scope``. So every model call and
every tool call is an ordinary child run of the agent's run: events, the run log,
listeners, recordings, retries, timeouts and ``max_concurrency`` apply to them
unchanged, and the agent has no execution machinery of its own.

>>> from combinators.language_models import ScriptedChatModel
>>> from combinators.tools import tool
>>> from combinators.messages import AIMessage, ToolCall
>>> @tool
... def add(a: int, b: int) -> int:
...     '''Add two integers.'''
...     return a + b
>>> model = ScriptedChatModel([AIMessage("", tool_calls=[ToolCall("add", {"a": 2, "b": 3}, id="c1")]), "It is 5."])
>>> result = agent_loop(model, [add]).invoke("What is 2 + 3?")
>>> result.output, result.stop, [o.output for o in result.steps[0].outcomes]
('It is 5.', Finished(), [5])
>>> [type(m).__name__ for m in result.messages]
['HumanMessage', 'AIMessage', 'ToolMessage', 'AIMessage']
"""

from __future__ import annotations

import asyncio
import copy
import functools
import sys
from contextlib import contextmanager
from collections.abc import AsyncIterator, Callable, Generator, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeAlias, Unpack, final

import attrs

from combinators.graph import Fragment, GraphBuilder, RunPlace
from combinators.components.agents.policy import LoopPolicy
from combinators.components.agents.progress import Progress, remember
from combinators.components.agents.steps import Finished, MaxIterations, ReturnedDirect, StopReason, TimedOut
from combinators.components.agents.tool_calls import (
    PlannedCall,
    Slots,
    arun_calls,
    filled,
    plan,
    run_calls,
)
from combinators.components.agents.transcript import AGENT_LOOP_INPUT, AgentInput, read_input, sealed
from combinators.components.agents.steps import AgentResult, AgentStep, ToolOutcome
from combinators.components.models.chat_model import BaseChatModel, LanguageModelInput
from combinators.components.messages.message_classes import AIMessage, AIMessageChunk
from combinators.components.messages.ai_fields import fresh_id
from combinators.components.run_fields import NamedRunFields, RunFieldsKwargs
from combinators import AnyRunnable, Runnable
from combinators import RunnableTool
from combinators.components.tools.base_tool import BaseTool
from combinators.components.tools.message_tools import tool
from effects.errors import InputError, InputValueError
from effects.authoring import Scope
from effects.authoring import arun_on_total, run_on_total

Prompt: TypeAlias = "Runnable[Mapping[str, object], LanguageModelInput]"
"""A prompt the loop fills with the input's variables and ``agent_scratchpad`` (the
run's messages so far), for example a ``ChatPromptTemplate``."""


@final
@attrs.frozen
class CallModel:
    """Request: call the model (``with_tools=False``: the tools unbound, for a last answer)."""

    with_tools: bool


@final
@attrs.frozen
class RunTools:
    """Request: run the calls of ``message``; the answer is ``(outcomes, timed_out)``."""

    message: AIMessage


@final
@attrs.frozen
class Emit:
    """Request: stream ``piece`` (a new part of the result)."""

    piece: AgentResult


Request: TypeAlias = "CallModel | RunTools | Emit"


AgentTool: TypeAlias = "RunnableTool[object] | BaseTool | Callable[..., object]"
"""What an agent takes as a tool: a ``RunnableTool`` (``@tool``, ``StructuredTool``, a
runnable's or retriever's ``as_tool()``), a ``BaseTool`` subclass's instance, or a plain
function (made a tool as ``@tool`` makes it)."""


def runnable_tool(given: AgentTool) -> RunnableTool[object]:
    """The ``RunnableTool`` an agent runs for ``given`` (see ``AgentTool``).

    >>> def add(a: int, b: int) -> int:
    ...     "Add two numbers."
    ...     return a + b
    >>> runnable_tool(add).name
    'add'
    """
    if isinstance(given, RunnableTool):
        found: RunnableTool[object] = given
        return found
    if isinstance(given, BaseTool):
        return given.as_structured_tool()
    if not _is_plain_function(given):
        raise InputError(
            "an agent's tools are functions, @tool or StructuredTool tools, BaseTool subclasses or"
            f" as_tool() of a runnable; got {type(given).__name__} (make a runnable a tool with .as_tool())"
        )
    return tool(given)


def _is_plain_function(value: object) -> bool:
    # Untyped callers may pass a runnable (callable too) or anything else.
    return callable(value) and not isinstance(value, Runnable)


def tools_tuple(tools: Iterable[AgentTool]) -> tuple[RunnableTool[object], ...]:
    """The tools as a tuple of ``RunnableTool`` (an attrs converter; see ``runnable_tool``)."""
    return tuple(runnable_tool(t) for t in tools)


def _with_call_ids(message: AIMessage) -> AIMessage:
    # Every call needs an id for its answer to refer to; a model that gave none gets one.
    if all(c.id for c in message.tool_calls) and all(c.id for c in message.invalid_tool_calls):
        return message
    return attrs.evolve(
        message,
        tool_calls=[c if c.id else attrs.evolve(c, id=fresh_id("call_")) for c in message.tool_calls],
        invalid_tool_calls=[c if c.id else attrs.evolve(c, id=fresh_id("call_")) for c in message.invalid_tool_calls],
    )


def _asks_for_tools(message: AIMessage) -> bool:
    return bool(message.tool_calls or message.invalid_tool_calls)


def _prompt_variables(prompt: object) -> tuple[str, ...] | None:
    # Optional ones count: the peer's usual ("placeholder", "{agent_scratchpad}") is optional.
    names: list[str] = []
    for attribute in ("input_variables", "optional_variables"):
        found = getattr(prompt, attribute, None)
        if isinstance(found, Sequence) and not isinstance(found, str):
            listed: Sequence[object] = found  # pyright: ignore[reportUnknownVariableType]
            names += [str(n) for n in listed]
        elif attribute == "input_variables":
            return None
    return tuple(names)


@final
@attrs.frozen(repr=False)
class AgentLoop(NamedRunFields, Runnable[AgentInput, AgentResult]):
    """The agent loop as a runnable (build it with ``agent_loop``; ``name=``, ``tags=``,
    ``metadata=``, ``verbose=`` and ``callbacks=`` as every component takes them)."""

    model: BaseChatModel
    tools: tuple[RunnableTool[object], ...] = attrs.field(converter=tools_tuple)
    prompt: Prompt | None = None
    policy: LoopPolicy = LoopPolicy()

    is_leaf = False

    def input_schema(self) -> dict[str, Any]:
        """Without a prompt, the union it accepts (``AGENT_LOOP_INPUT``); with one, its type's."""
        return copy.deepcopy(AGENT_LOOP_INPUT) if self.prompt is None else super().input_schema()

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """Its inside (``draw_loop``), under its own node."""
        return draw_loop(self, self, graph, place)

    def __attrs_post_init__(self) -> None:
        names = [t.name for t in self.tools]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise InputValueError(f"agent_loop got two tools with the same name: {', '.join(twice)}")
        variables = _prompt_variables(self.prompt)
        if variables is not None and not {"agent_scratchpad", "messages"} & set(variables):
            raise InputValueError(
                "the agent's prompt needs an 'agent_scratchpad' (or 'messages') placeholder for the"
                f" run's messages; its variables are {list(variables)}"
            )

    def __repr__(self) -> str:
        shown = [repr(self.model), repr(list(self.tools))]
        if self.prompt is not None:
            shown.append(f"prompt={self.prompt!r}")
        if self.policy != LoopPolicy():
            shown.append(f"policy={self.policy!r}")
        return f"agent_loop({', '.join(shown)})"

    @functools.cached_property
    def tools_by_name(self) -> dict[str, RunnableTool[Any]]:
        """The tools the loop runs, by name, returning their raw result: the loop answers
        calls itself (so a tool's end event shows its result, as the peer's AgentExecutor)."""
        return {t.name: attrs.evolve(t, reply=None) for t in self.tools}

    @functools.cached_property
    def _bound_model(self) -> Runnable[LanguageModelInput, object]:
        return self.model.bind_tools(list(self.tools)) if self.tools else self.model

    # ------------------------------------------------------------------ the decisions

    def decide(self, progress: Progress, started: float, now: Any) -> Generator[Request, Any, None]:
        """The loop itself: what to do next, given the answers to its requests."""
        policy = self.policy
        deadline = None if policy.timeout is None else started + policy.timeout
        while True:
            stop: StopReason | None = None
            if progress.calls >= policy.max_iterations:
                stop = MaxIterations(progress.calls)
            elif deadline is not None and now() >= deadline:
                stop = TimedOut(policy.timeout or 0.0)
            if stop is not None:
                yield from self._at_limit(progress, stop)
                return
            message: AIMessage | None = yield CallModel(with_tools=True)
            if message is None:  # the time limit ran out while the model was called
                yield from self._at_limit(progress, TimedOut(policy.timeout or 0.0))
                return
            if not _asks_for_tools(message):
                yield Emit(progress.piece((message,), output=message.text, stop=Finished()))
                return
            yield Emit(progress.piece((message,)))
            outcomes, timed_out = yield RunTools(message)
            step = AgentStep(message, tuple(outcomes))
            yield Emit(progress.piece(step.tool_messages, step))
            direct = self._returned_direct(outcomes)
            if timed_out:
                yield from self._at_limit(progress, TimedOut(policy.timeout or 0.0))
                return
            if direct is not None:
                yield Emit(progress.piece(output=direct.message.text, stop=ReturnedDirect(direct.call.name)))
                return

    def _at_limit(self, progress: Progress, stop: StopReason) -> Generator[Request, Any, None]:
        if self.policy.on_limit == "stop":
            yield Emit(progress.piece(stop=stop))
            return
        message: AIMessage | None = yield CallModel(with_tools=False)
        assert message is not None  # a last call is never cut short by the loop's own limit
        # A last answer that still asks for tools gets its calls answered, not run.
        answered = sealed([message], f"{type(stop).__name__}: the agent asked for a final answer")
        yield Emit(progress.piece(tuple(answered), output=message.text, stop=stop))

    def _returned_direct(self, outcomes: Sequence[ToolOutcome]) -> ToolOutcome | None:
        names = self.policy.return_direct
        if outcomes and all(o.ok and o.call.name in names for o in outcomes):
            return outcomes[-1]
        return None

    # ------------------------------------------------------------------ model and tools

    def _variables(self, progress: Progress) -> dict[str, object]:
        variables: dict[str, object] = dict(progress.conversation.variables)
        variables["agent_scratchpad"] = list(progress.messages)
        if "messages" in variables:
            variables["messages"] = progress.transcript
        return variables

    def _model(self, with_tools: bool) -> Runnable[LanguageModelInput, object]:
        return self._bound_model if with_tools else self.model

    def _reply(self, reply: object) -> AIMessage:
        if isinstance(reply, AIMessageChunk):
            reply = reply.to_message()
        if not isinstance(reply, AIMessage):
            raise InputError(f"{self.name}: the model returned a {type(reply).__name__}, not an AIMessage")
        return _with_call_ids(reply)

    def _call_model(self, scope: Scope, progress: Progress, with_tools: bool) -> AIMessage:
        if self.prompt is None:
            model_input: LanguageModelInput = progress.transcript
        else:
            model_input = scope.invoke(self.prompt, self._variables(progress))
        reply = self._reply(scope.invoke(self._model(with_tools), model_input))
        progress.calls += 1
        return reply

    async def _acall_model(self, scope: Scope, progress: Progress, with_tools: bool) -> AIMessage:
        if self.prompt is None:
            model_input: LanguageModelInput = progress.transcript
        else:
            model_input = await scope.ainvoke(self.prompt, self._variables(progress))
        reply = self._reply(await scope.ainvoke(self._model(with_tools), model_input))
        progress.calls += 1
        return reply

    def _check_sync(self) -> None:
        for t in self.tools:
            if t.func is None and t.runnable is None:
                raise InputError(
                    f"{self.name}: tool {t.name!r} has only an async function; run the agent with ainvoke or astream"
                )

    # ------------------------------------------------------------------ drivers

    def pieces(self, input: AgentInput, scope: Scope) -> Iterator[AgentResult]:
        """The result's pieces as the run makes them, in ``scope`` (for nodes built on the loop)."""
        self._check_sync()
        run = _Driving(self, input, scope)
        with run.sealed_on_error():
            request = run.after(None)
            while request is not None:
                answer: object = None
                if isinstance(request, Emit):
                    yield request.piece
                elif isinstance(request, CallModel):
                    answer = self._call_model(scope, run.progress, request.with_tools)
                else:
                    planned, slots = run.step(request.message)
                    answer = run.stepped(planned, slots, run_calls(scope, planned, self.policy, slots, run.deadline))
                request = run.after(answer)

    async def apieces(self, input: AgentInput, scope: Scope) -> AsyncIterator[AgentResult]:
        """Async ``pieces``."""
        run = _Driving(self, input, scope)
        with run.sealed_on_error():
            request = run.after(None)
            while request is not None:
                answer: object = None
                if isinstance(request, Emit):
                    yield request.piece
                elif isinstance(request, CallModel):
                    answer = await self._acall_model_until(scope, run.progress, request.with_tools, run.deadline)
                else:
                    planned, slots = run.step(request.message)
                    late = await arun_calls(scope, planned, self.policy, slots, run.deadline)
                    answer = run.stepped(planned, slots, late)
                request = run.after(answer)

    async def _acall_model_until(
        self, scope: Scope, progress: Progress, with_tools: bool, deadline: float | None
    ) -> AIMessage | None:
        if deadline is None or not with_tools:
            return await self._acall_model(scope, progress, with_tools)
        window = asyncio.timeout(max(deadline - scope.clock.monotonic(), 0.0))
        try:
            async with window:
                return await self._acall_model(scope, progress, with_tools)
        except TimeoutError:
            if not window.expired():
                raise
            progress.calls += 1  # the call was made (its run shows the cancellation)
            return None

    # ------------------------------------------------------------------ runnable hooks

    def step_stream(
        self, inputs: Iterator[AgentInput], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[AgentResult]:
        return run_on_total(inputs, lambda total: self.pieces(total, scope))

    def step_astream(
        self, inputs: AsyncIterator[AgentInput], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[AgentResult]:
        return arun_on_total(inputs, lambda total: self.apieces(total, scope))

    def step_invoke(self, input: AgentInput, scope: Scope, kwargs: Mapping[str, object]) -> AgentResult:
        result = AgentResult()
        for piece in self.pieces(input, scope):
            result = result + piece
        return result

    async def step_ainvoke(self, input: AgentInput, scope: Scope, kwargs: Mapping[str, object]) -> AgentResult:
        result = AgentResult()
        async for piece in self.apieces(input, scope):
            result = result + piece
        return result


@final
class _Driving:
    """One run of the loop as a driver carries it out: its progress, its decisions, its
    deadline, and the step whose tools are running (sealed if the run stops there)."""

    __slots__ = ("loop", "progress", "decisions", "deadline")

    def __init__(self, loop: AgentLoop, input: AgentInput, scope: Scope) -> None:
        self.loop = loop
        self.progress = Progress(read_input(input, loop.name, prompted=loop.prompt is not None))
        clock = scope.clock
        started = clock.monotonic()
        self.decisions = loop.decide(self.progress, started, clock.monotonic)
        self.deadline = None if loop.policy.timeout is None else started + loop.policy.timeout

    @contextmanager
    def sealed_on_error(self) -> Generator[None]:
        """Whatever ends the run early leaves its sealed transcript with the error."""
        try:
            yield
        except BaseException as error:
            remember(error, self.progress.partial(error))
            raise

    def after(self, answer: object) -> Request | None:
        """The next request, given the answer to the last one (None: the run is over)."""
        try:
            return self.decisions.send(answer)
        except StopIteration:
            return None

    def step(self, message: AIMessage) -> tuple[list[PlannedCall], Slots]:
        """The calls of ``message`` and their slots, remembered until the step ends."""
        planned = plan(message, self.loop.tools_by_name)
        slots: Slots = [None] * len(planned)
        self.progress.interrupted = (message, slots)
        return planned, slots

    def stepped(self, planned: list[PlannedCall], slots: Slots, late: bool) -> tuple[list[ToolOutcome], bool]:
        """The answer to a ``RunTools`` request: every call's outcome, and whether time ran out."""
        self.progress.interrupted = None
        reason = f"the agent's time limit ({self.loop.policy.timeout} s) ran out" if late else "the step ended"
        return filled(planned, slots, reason), late


def draw_loop(loop: AgentLoop, agent: AnyRunnable, graph: GraphBuilder, place: RunPlace) -> Fragment:
    """The picture of ``loop`` run by ``agent`` (the loop itself, or an ``AgentExecutor``):
    the agent's node (drawn as an agent in every picture), then, in a group that says
    the loop and its bound, the prompt, the model it asks and a conditional fork into
    the tools the model may call (all are runs inside the agent's, repeated until the
    model answers).

    >>> from combinators.graph import GraphBuilder, RunPlace
    >>> from combinators.language_models import ScriptedChatModel
    >>> graph = GraphBuilder()
    >>> loop = agent_loop(ScriptedChatModel(["hi"]), [])
    >>> draw_loop(loop, loop, graph, RunPlace((), None, "AgentLoop"))
    Fragment(entry='n0', exit='n1')
    >>> drawn = graph.graph()
    >>> [(g.label, [drawn.node(i).name for i in g.nodes]) for g in drawn.groups]
    [('loop (until the model answers, at most 15 model calls)', ['ScriptedChatModel'])]
    """
    node = graph.step(agent, place, kind="agent")
    bound = loop.policy.max_iterations
    label = "loop (until the model answers" + (f", at most {bound} model calls)" if bound < sys.maxsize else ")")
    with graph.grouped(label, "loop"):
        inside = [] if loop.prompt is None else [graph.child(loop.prompt, place)]
        inside.append(graph.child(loop.model, place))
        if loop.tools:
            tools = [(t.name, graph.child(t, place)) for t in loop.tools]
            inside.append(graph.fork(loop, None, tools, conditional=True, name="tools"))
    return graph.series([node, *inside])


def agent_loop(
    model: BaseChatModel,
    tools: Sequence[AgentTool],
    *,
    prompt: Prompt | None = None,
    policy: LoopPolicy = LoopPolicy(),
    **run_fields: Unpack[RunFieldsKwargs],
) -> Runnable[AgentInput, AgentResult]:
    """A tool-calling agent: call the model, run the tools it asks for, until it answers.

    See the module's example; ``policy`` bounds the loop (``LoopPolicy``). ``name=``,
    ``tags=``, ``metadata=``, ``verbose=`` and ``callbacks=`` act on the loop's own run, as
    LangChain's components take them (``combinators.components.run_fields``).

    >>> from combinators.language_models import FakeListChatModel
    >>> helper = agent_loop(FakeListChatModel(responses=["Done."]), [], name="helper", tags=["a"])
    >>> helper.name, next(iter(helper.stream_events("hi")))["tags"]
    ('helper', ['a'])
    """
    return AgentLoop(model, tools_tuple(tools), prompt, policy, **run_fields)
