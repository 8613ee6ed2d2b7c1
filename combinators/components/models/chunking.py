"""A whole ``AIMessage`` as the chunks a streaming model would send.

Text comes word by word (words and the whitespace between them, so the pieces add
back up to the text), then one chunk per tool call (its name, id and arguments as
JSON text, at its index), the last chunk marked ``chunk_position="last"``. Adding
the chunks up gives the message back (as an ``AIMessageChunk``).

>>> from combinators.components.messages.message_classes import AIMessage, add_ai_message_chunks
>>> chunks = message_chunks(AIMessage("Let me look.", tool_calls=[{"name": "search", "args": {"q": "cats"}, "id": "c1"}]))
>>> [c.text for c in chunks]
['Let', ' ', 'me', ' ', 'look.', '']
>>> chunks[-1].tool_call_chunks
(ToolCallChunk(name='search', args='{"q": "cats"}', id='c1', index=0),)
>>> add_ai_message_chunks(*chunks).to_message()
AIMessage('Let me look.', tool_calls=(ToolCall(name='search', args={'q': 'cats'}, id='c1'),))
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterable, Iterator

import attrs

from combinators.components.messages.message_classes import AIMessage, AIMessageChunk, ToolCallChunk
from effects.clock import current_clock


def text_tokens(text: str) -> list[str]:
    """Words and the whitespace between them: the tokens add back up to ``text``.

    >>> text_tokens("a  b")
    ['a', ' ', ' ', 'b']
    """
    return [token for token in re.split(r"(\s)", text) if token]


def message_chunks(message: AIMessage) -> list[AIMessageChunk]:
    """The chunks a model streaming ``message`` sends (at least one, the last marked).

    Only text content is split; other content (a list of blocks) goes in one chunk.
    """
    pieces: list[AIMessageChunk] = []
    if isinstance(message.content, str):
        pieces.extend(AIMessageChunk(token, id=message.id) for token in text_tokens(message.content))
    elif message.content:
        pieces.append(AIMessageChunk(message.content, id=message.id))
    for index, call in enumerate(message.tool_calls):
        piece = ToolCallChunk(call.name, json.dumps(dict(call.args), ensure_ascii=False), call.id, index)
        pieces.append(AIMessageChunk("", id=message.id, tool_call_chunks=[piece]))
    if not pieces:
        pieces.append(AIMessageChunk("", id=message.id))
    # What the message says beyond its text and tool calls travels on its first chunk.
    pieces[0] = attrs.evolve(
        pieces[0],
        name=message.name,
        additional_kwargs=message.additional_kwargs,
        response_metadata=message.response_metadata,
        usage_metadata=message.usage_metadata,
    )
    pieces[-1] = attrs.evolve(pieces[-1], chunk_position="last")
    return pieces


def paced(chunks: Iterable[AIMessageChunk], delay: float) -> Iterator[AIMessageChunk]:
    """``chunks``, each after ``delay`` seconds of the runtime's clock (none when 0).

    >>> [c.text for c in paced(message_chunks(AIMessage("a b")), 0.0)]
    ['a', ' ', 'b']
    """
    clock = current_clock()
    for chunk in chunks:
        if delay:
            clock.sleep(delay)
        yield chunk


async def apaced(chunks: Iterable[AIMessageChunk], delay: float) -> AsyncIterator[AIMessageChunk]:
    """Async ``paced``."""
    clock = current_clock()
    for chunk in chunks:
        if delay:
            await clock.asleep(delay)
        yield chunk
