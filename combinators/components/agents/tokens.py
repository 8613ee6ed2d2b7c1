"""The final answer's tokens, picked out of an agent run's events.

Users of agents want the answer as it is typed, not the steps: these helpers read
the events of ``astream_events`` / ``stream_events`` (v1 or v2) and give the text of
the model's token chunks, leaving out every model call that asks for a tool (its
tool-call chunks have empty content) and, in v2, the model calls of nested runs (a
model inside a tool, an agent used as a tool). A model that writes some text and
then asks for a tool has had that text given already: nobody can know in advance.

>>> from combinators.language_models import ScriptedChatModel
>>> from combinators.tools import tool
>>> from combinators.agents import agent_loop
>>> from combinators.messages import AIMessage, ToolCall
>>> @tool
... def clock() -> str:
...     '''The time.'''
...     return "noon"
>>> model = ScriptedChatModel([AIMessage("", tool_calls=[ToolCall("clock", {})]), "It is noon."])
>>> list(final_answer_tokens(agent_loop(model, [clock]).stream_events("time?")))
['It', ' ', 'is', ' ', 'noon.']
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping
from typing import final

from effects.authoring import is_list_or_tuple, is_mapping


@final
class FinalAnswerTokens:
    """The fold behind ``final_answer_tokens``: ``feed`` one event, get its tokens.

    >>> FinalAnswerTokens().feed({"event": "on_chain_start", "run_id": "r", "parent_ids": [], "data": {}})
    []
    """

    __slots__ = ("_root", "_asking")

    def __init__(self) -> None:
        self._root: str | None = None
        self._asking: set[str] = set()

    def feed(self, event: Mapping[str, object]) -> list[str]:
        """The answer tokens in ``event`` (none for any other event)."""
        kind = event.get("event")
        run_id = str(event.get("run_id"))
        if self._root is None:
            self._root = run_id
        if kind in ("on_chat_model_end", "on_chat_model_error"):
            self._asking.discard(run_id)
            return []
        if kind != "on_chat_model_stream" or run_id in self._asking:
            return []
        parents: object = event.get("parent_ids")
        if is_list_or_tuple(parents) and parents and str(parents[-1]) != self._root:
            return []
        data: object = event.get("data")
        chunk = data.get("chunk") if is_mapping(data) else None
        if getattr(chunk, "tool_call_chunks", None):
            self._asking.add(run_id)
            return []
        text = getattr(chunk, "text", "")
        return [text] if isinstance(text, str) and text else []


def final_answer_tokens(events: Iterable[Mapping[str, object]]) -> Iterator[str]:
    """The final answer's tokens among ``events`` (see the module), as they come."""
    fold = FinalAnswerTokens()
    for event in events:
        yield from fold.feed(event)


async def afinal_answer_tokens(events: AsyncIterable[Mapping[str, object]]) -> AsyncIterator[str]:
    """Async ``final_answer_tokens``.

    >>> import asyncio
    >>> from combinators.language_models import ScriptedChatModel
    >>> from combinators.agents import agent_loop
    >>> async def main():
    ...     agent = agent_loop(ScriptedChatModel(["Hi there."]), [])
    ...     return [t async for t in afinal_answer_tokens(agent.astream_events("hello"))]
    >>> asyncio.run(main())
    ['Hi', ' ', 'there.']
    """
    fold = FinalAnswerTokens()
    async for event in events:
        for token in fold.feed(event):
            yield token
