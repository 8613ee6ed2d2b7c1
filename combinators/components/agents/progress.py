"""The state of one agent run as it goes, and the pieces of result it streams.

``Progress`` belongs to one run (it is never shared): the conversation it started
from, the messages and steps so far, the model calls made. It makes the streamed
``AgentResult`` pieces (the first carries the input's conversation) and, when the run
is interrupted, the sealed partial result.
"""

from __future__ import annotations

from typing import final

from combinators.components.agents.steps import Halted, StopReason
from combinators.components.agents.transcript import Conversation, sealed
from combinators.components.agents.steps import AgentResult, AgentStep, ToolOutcome
from combinators.components.messages.message_classes import AIMessage, Message

_PARTIAL = "_combinators_agent_result"


@final
class Progress:
    """One run's messages, steps and model calls so far (private to that run)."""

    __slots__ = ("conversation", "messages", "steps", "calls", "_shown", "interrupted")

    def __init__(self, conversation: Conversation) -> None:
        self.conversation = conversation
        self.messages: list[Message] = []
        """The run's own messages (after the input's)."""
        self.steps: list[AgentStep] = []
        self.calls = 0
        """Model calls made."""
        self._shown = False
        self.interrupted: tuple[AIMessage, list[ToolOutcome | None]] | None = None
        """The step whose tools were running when the run stopped (sealed on the way out)."""

    @property
    def transcript(self) -> list[Message]:
        return [*self.conversation.messages, *self.messages]

    def piece(
        self,
        messages: tuple[Message, ...] = (),
        step: AgentStep | None = None,
        output: str | None = None,
        stop: StopReason | None = None,
    ) -> AgentResult:
        """Record ``messages`` (and ``step``) and return them as a streamed piece."""
        self.messages.extend(messages)
        steps = () if step is None else (step,)
        self.steps.extend(steps)
        if not self._shown:
            self._shown = True
            messages = (*self.conversation.messages, *messages)
        return AgentResult(output, messages, steps, stop)

    def partial(self, error: BaseException) -> AgentResult:
        """The sealed result so far, for a run that ended with ``error``."""
        messages = self.transcript
        steps = list(self.steps)
        if self.interrupted is not None:
            message, slots = self.interrupted
            outcomes = [outcome for outcome in slots if outcome is not None]
            steps.append(AgentStep(message, tuple(outcomes)))
            messages.extend(outcome.message for outcome in outcomes)
        reason = f"the run ended with {type(error).__name__}"
        return AgentResult(None, tuple(sealed(messages, reason)), tuple(steps), Halted(error))


def remember(error: BaseException, result: AgentResult) -> None:
    """Keep ``result`` with ``error`` for ``partial_result`` (the outermost agent's wins)."""
    try:
        setattr(error, _PARTIAL, result)
    except AttributeError:  # an exception type with slots and no dict: nothing to keep
        pass


def partial_result(error: BaseException) -> AgentResult | None:
    """The sealed transcript of an agent run that ended with ``error`` (``stop`` is
    ``Halted(error)``), or None when no agent run ended with it.

    Every tool call it asked for is answered (calls cut short get an error
    ``ToolMessage``), so its ``messages`` can start the next turn.

    >>> partial_result(ValueError("not from an agent")) is None
    True
    """
    found = getattr(error, _PARTIAL, None)
    return found if isinstance(found, AgentResult) else None
