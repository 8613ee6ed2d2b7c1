"""Test models shipped for users: scripted, streaming, offline.

A fake that follows a script keeps its place in an explicit ``Script`` object: the
one honest exception to immutability (the model value stays frozen and equal by
its settings; the script moves). Laws hold for deterministic chains, so give each
test its own script. Delays go through the runtime's clock (``use_clock``), so
tests never really sleep.

>>> model = GenericFakeChatModel(Script(["hello there", ValueError("rate limited")]))
>>> [c.text for c in model.stream("hi")]
['hello', ' ', 'there']
>>> model.invoke("again")
Traceback (most recent call last):
...
ValueError: rate limited
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from typing import Any, final

import attrs

from combinators.components.models.chat_model import BaseChatModel
from combinators.components.models.llm import LLM
from combinators.components.messages.values import AIMessage, AIMessageChunk, Message
from combinators.components.models.chunking import apaced, message_chunks, paced
from effects.clock import current_clock

Reply = str | AIMessage | BaseException
"""One scripted reply: text, a whole message, or an error to raise."""


@final
class Script:
    """Scripted replies and the position in them (thread-safe, deliberately mutable).

    >>> s = Script(["a", "b"], cycle=True)
    >>> [s.next() for _ in range(3)]
    ['a', 'b', 'a']
    >>> Script([], cycle=False).next()
    Traceback (most recent call last):
    ...
    IndexError: the fake model's script is exhausted (0 replies)
    """

    __slots__ = ("replies", "cycle", "position", "_lock")

    def __init__(self, replies: Sequence[Reply], *, cycle: bool = False) -> None:
        self.replies: tuple[Reply, ...] = tuple(replies)
        self.cycle = cycle
        self.position = 0
        self._lock = threading.Lock()

    def next(self) -> Reply:
        """The next reply (wrapping around when ``cycle``)."""
        with self._lock:
            if self.position >= len(self.replies):
                if not self.cycle or not self.replies:
                    raise IndexError(
                        f"the fake model's script is exhausted ({len(self.replies)} replies)"
                    )
                self.position = 0
            reply = self.replies[self.position]
            self.position += 1
            return reply

    def __repr__(self) -> str:
        return f"Script({list(self.replies)!r}, cycle={self.cycle})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Script) and (self.replies, self.cycle) == (other.replies, other.cycle)

    def __hash__(self) -> int:
        return hash((tuple(map(repr, self.replies)), self.cycle))


def _cut_at_stop(text: str, stop: list[str] | None) -> str:
    if not stop:
        return text
    cut = min((i for i in (text.find(s) for s in stop) if i >= 0), default=-1)
    return text if cut < 0 else text[:cut]


def _reply_message(reply: Reply, stop: list[str] | None) -> AIMessage:
    if isinstance(reply, BaseException):
        raise reply
    if isinstance(reply, AIMessage):
        return attrs.evolve(reply, content=_cut_at_stop(reply.text, stop)) if stop else reply
    return AIMessage(_cut_at_stop(reply, stop))


@final
@attrs.frozen
class GenericFakeChatModel(BaseChatModel):
    """Replies from a ``Script``, streamed token by token (words and spaces).

    ``token_delay`` seconds pass before each token, on the runtime's clock.
    """

    script: Script
    token_delay: float = 0.0

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return _reply_message(self.script.next(), stop)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        yield from paced(_streamed(_reply_message(self.script.next(), stop)), self.token_delay)

    async def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        async for chunk in apaced(_streamed(_reply_message(self.script.next(), stop)), self.token_delay):
            yield chunk


def _streamed(reply: AIMessage) -> list[AIMessageChunk]:
    # Text word by word, then the tool calls; an empty reply streams nothing (as before).
    if not reply.content and not reply.tool_calls:
        return []
    return message_chunks(reply)


def _texts(values: Iterable[str]) -> tuple[str, ...]:
    # A named, typed converter: attrs' `converter=tuple` leaves the field untyped for mypy.
    return tuple(values)


def _cycling_script(model: FakeListChatModel | FakeListLLM) -> Script:
    return Script(model.responses, cycle=True)


@final
@attrs.frozen
class FakeListChatModel(BaseChatModel):
    """Cycles through ``responses``; streams them character by character.

    ``error_on_chunk_number`` raises after that many chunks (to test mid-stream errors).

    >>> model = FakeListChatModel(("ab", "c"))
    >>> model.invoke("x").text, [c.text for c in model.stream("x")], model.invoke("x").text
    ('ab', ['c'], 'ab')
    """

    responses: tuple[str, ...] = attrs.field(converter=_texts)
    sleep: float = 0.0
    error_on_chunk_number: int | None = None
    script: Script = attrs.field(
        eq=False, repr=False, default=attrs.Factory(_cycling_script, takes_self=True)
    )

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return _reply_message(self.script.next(), stop)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        text = _reply_message(self.script.next(), stop).text
        clock = current_clock()
        for number, char in enumerate(text):
            if self.sleep:
                clock.sleep(self.sleep)
            if self.error_on_chunk_number is not None and number == self.error_on_chunk_number:
                raise RuntimeError(f"scripted failure at chunk {number}")
            yield AIMessageChunk(char)

    async def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        text = _reply_message(self.script.next(), stop).text
        clock = current_clock()
        for number, char in enumerate(text):
            if self.sleep:
                await clock.asleep(self.sleep)
            if self.error_on_chunk_number is not None and number == self.error_on_chunk_number:
                raise RuntimeError(f"scripted failure at chunk {number}")
            yield AIMessageChunk(char)


@final
@attrs.frozen
class FakeListLLM(LLM):
    """A text model cycling through ``responses``.

    >>> llm = FakeListLLM(("one", "two"))
    >>> llm.batch(["a", "b"]) in (["one", "two"], ["two", "one"])
    True
    """

    responses: tuple[str, ...] = attrs.field(converter=_texts)
    script: Script = attrs.field(
        eq=False, repr=False, default=attrs.Factory(_cycling_script, takes_self=True)
    )

    def _call(self, prompt: str, stop: list[str] | None = None) -> str:
        return _reply_message(self.script.next(), stop).text
