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

import re
import threading
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from typing import Any, Final, Protocol, Unpack, final

import attrs

from combinators.authoring import changed_fields, init_fields
from combinators.components.run_fields import RunFieldsKwargs, set_run_fields
from combinators.components.models.chat_model import BaseChatModel
from combinators.components.models.llm import LLM
from combinators.components.messages.message_classes import AIMessage, AIMessageChunk, Message
from combinators.components.models.chunking import apaced, message_chunks, paced
from combinators.nodes.configurable_fields import CONFIGURABLE_AS
from effects.authoring import is_str_mapping
from effects.clock import current_clock

Reply = str | AIMessage | BaseException
"""One scripted reply: text, a whole message, or an error to raise."""


@final
class _Done:
    """The end of a script drawn from an iterator (a sentinel of its own type, so that
    what is not it is a reply)."""


_DONE: Final = _Done()


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

    As the peer's ``FakeListLLM(responses=["foo"], i=1)``, a start past the end raises at
    the first reply (a cycling script wraps only after its last reply):

    >>> Script(["foo"], cycle=True, position=1).next()
    Traceback (most recent call last):
    ...
    IndexError: the fake model's script starts at reply 1, past its 1 replies

    Given an iterator (the peer's ``messages=iter([...])``), replies are drawn from it as
    they are needed (an endless ``itertools.cycle`` works too) and kept in ``replies``.
    """

    __slots__ = ("replies", "cycle", "position", "_lock", "_pending")

    def __init__(self, replies: Iterable[Reply], *, cycle: bool = False, position: int = 0) -> None:
        pending = replies if isinstance(replies, Iterator) else None
        self.replies: tuple[Reply, ...] = () if pending is not None else tuple(replies)
        self._pending: Iterator[Reply] | None = pending
        self.cycle = cycle
        self.position = position
        self._lock = threading.Lock()

    def next(self) -> Reply:
        """The next reply (wrapping around when ``cycle``)."""
        with self._lock:
            if self._pending is not None and self.position >= len(self.replies):
                drawn = next(self._pending, _DONE)
                if isinstance(drawn, _Done):
                    self._pending = None
                else:
                    self.replies += (drawn,)
            if self.position >= len(self.replies):
                if self.cycle and self.replies:
                    # Only a start position past the end gets here: cycling wraps after a reply.
                    raise IndexError(
                        f"the fake model's script starts at reply {self.position}, past its {len(self.replies)} replies"
                    )
                raise IndexError(f"the fake model's script is exhausted ({len(self.replies)} replies)")
            reply = self.replies[self.position]
            # As the peer's fakes: back to the first reply right after the last one.
            wrap = self.cycle and self.position == len(self.replies) - 1 and self._pending is None
            self.position = 0 if wrap else self.position + 1
            return reply

    def __getstate__(self) -> tuple[tuple[Reply, ...], bool, int, Iterator[Reply] | None]:
        # A copy (another process, a Dask worker) goes on from here; a lock never travels.
        return (self.replies, self.cycle, self.position, self._pending)

    def __setstate__(self, state: tuple[tuple[Reply, ...], bool, int, Iterator[Reply] | None]) -> None:
        self.replies, self.cycle, self.position, self._pending = state
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Script({list(self.replies)!r}, cycle={self.cycle})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Script) and (self.replies, self.cycle) == (other.replies, other.cycle)

    def __hash__(self) -> int:
        return hash((tuple(map(repr, self.replies)), self.cycle))


def as_script(replies: Script | Iterable[Reply]) -> Script:
    """A ``Script`` as it is; replies drawn lazily from an iterable (an attrs converter).

    >>> as_script(iter(["a"])).next()
    'a'
    """
    return replies if isinstance(replies, Script) else Script(iter(replies))


def _cut_at_stop(text: str, stop: list[str] | None) -> str:
    if not stop:
        return text
    cut = min((i for i in (text.find(s) for s in stop) if i >= 0), default=-1)
    return text if cut < 0 else text[:cut]


def reply_message(reply: Reply, stop: list[str] | None) -> AIMessage:
    """A scripted reply as a message (cut at the first stop word); an error is raised.

    >>> reply_message("a. b", ["."])
    AIMessage('a')
    """
    if isinstance(reply, BaseException):
        raise reply
    if isinstance(reply, AIMessage):
        return attrs.evolve(reply, content=_cut_at_stop(reply.text, stop)) if stop else reply
    return AIMessage(_cut_at_stop(reply, stop))


@final
@attrs.frozen(init=False)
class GenericFakeChatModel(BaseChatModel):
    """Replies from a ``Script``, streamed token by token (words and spaces).

    ``token_delay`` seconds pass before each token, on the runtime's clock. The peer's
    ``GenericFakeChatModel(messages=iter([...]))`` (messages or strs) works too.

    >>> GenericFakeChatModel(messages=iter(["hi", AIMessage("there")])).batch(["a", "b"])
    [AIMessage('hi', id='lc_run--...'), AIMessage('there', id='lc_run--...')]
    """

    # Named as the peer's field, so ``configurable_fields(messages=...)`` works as there.
    messages: Script = attrs.field(converter=as_script, metadata={CONFIGURABLE_AS: Script | Iterable[Reply]})
    token_delay: float = 0.0

    def __init__(
        self,
        script: Script | None = None,
        token_delay: float = 0.0,
        *,
        messages: Script | Iterable[Reply] | None = None,
        **run_fields: Unpack[RunFieldsKwargs],
    ) -> None:
        if (script is None) == (messages is None):
            raise TypeError("GenericFakeChatModel takes a Script or messages=iter([...]) (one of them)")
        init_fields(self, script if script is not None else messages, token_delay)
        set_run_fields(self, **run_fields)

    @property
    def script(self) -> Script:
        """The replies and the position in them (the ``messages`` field).

        >>> GenericFakeChatModel(Script(["a"])).script
        Script(['a'], cycle=False)
        """
        return self.messages

    @property
    def _llm_type(self) -> str:
        return "generic-fake-chat-model"

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return reply_message(self.script.next(), stop)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        yield from paced(_streamed(reply_message(self.script.next(), stop)), self.token_delay)

    async def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        async for chunk in apaced(_streamed(reply_message(self.script.next(), stop)), self.token_delay):
            yield chunk


def _streamed(reply: AIMessage) -> list[AIMessageChunk]:
    # Text word by word, then the tool calls; an empty reply streams nothing (as before).
    if reply.additional_kwargs:
        return _streamed_with_kwargs(reply)
    if not reply.content and not reply.tool_calls:
        return []
    return message_chunks(reply)


def _streamed_with_kwargs(reply: AIMessage) -> list[AIMessageChunk]:
    # As the peer's fake streams them: the text and tool calls, then each additional kwarg
    # in a chunk of its own (a function call's str fields cut after each comma, as a
    # provider streams its arguments), then an empty last chunk; added up, the reply.
    pieces: list[AIMessageChunk] = []
    if reply.content or reply.tool_calls:
        plain = message_chunks(attrs.evolve(reply, additional_kwargs={}))
        pieces.extend(attrs.evolve(chunk, chunk_position=None) for chunk in plain)
    for key, value in reply.additional_kwargs.items():
        if key == "function_call" and is_str_mapping(value):
            for field, written in value.items():
                parts: list[object] = list(re.split(r"(,)", written)) if isinstance(written, str) else [written]
                pieces.extend(AIMessageChunk("", id=reply.id, additional_kwargs={key: {field: part}}) for part in parts)
        else:
            pieces.append(AIMessageChunk("", id=reply.id, additional_kwargs={key: value}))
    last = AIMessageChunk("", id=reply.id, chunk_position="last")
    if not (reply.content or reply.tool_calls):  # what message_chunks puts on its first chunk
        last = attrs.evolve(
            last,
            name=reply.name,
            response_metadata=reply.response_metadata,
            usage_metadata=reply.usage_metadata,
        )
    return [*pieces, last]


def shown(value: attrs.AttrsInstance) -> str:
    """``Class(name=value, ...)`` with the fields that differ from their defaults.

    >>> shown(FakeListLLM(["a"], i=1))
    "FakeListLLM(responses=('a',), i=1)"
    """
    return f"{type(value).__name__}({', '.join(changed_fields(value))})"


def texts(values: Iterable[str]) -> tuple[str, ...]:
    """Scripted responses as a tuple (a converter).

    >>> texts(["a", "b"])
    ('a', 'b')
    """
    return tuple(values)


def _seconds(value: float | None) -> float:
    return 0.0 if value is None else float(value)


class _Scripted(Protocol):
    @property
    def responses(self) -> Sequence[Reply]: ...
    @property
    def i(self) -> int: ...


def cycling_script(model: _Scripted) -> Script:
    """The script of a fake that cycles through its ``responses`` from ``i``."""
    return Script(model.responses, cycle=True, position=model.i)


@final
@attrs.frozen(repr=False)
class FakeListChatModel(BaseChatModel):
    """Cycles through ``responses``; streams them character by character.

    ``error_on_chunk_number`` raises after that many chunks (to test mid-stream errors);
    ``i`` is where in ``responses`` to start (the peer's keywords all work).

    >>> model = FakeListChatModel(("ab", "c"))
    >>> model.invoke("x").text, [c.text for c in model.stream("x")], model.invoke("x").text
    ('ab', ['c'], 'ab')
    >>> FakeListChatModel(responses=["a", "b"], i=1).invoke("x")
    AIMessage('b', id='lc_run--...')
    """

    # Typed as what the constructor takes: mypy reads these classes' fields through
    # dataclass_transform, which ignores converters.
    responses: Sequence[str] = attrs.field(converter=texts)
    sleep: float | None = attrs.field(default=0.0, converter=_seconds)
    error_on_chunk_number: int | None = None
    i: int = 0
    script: Script = attrs.field(eq=False, repr=False, default=attrs.Factory(cycling_script, takes_self=True))

    @property
    def _llm_type(self) -> str:
        return "fake-list-chat-model"

    def __repr__(self) -> str:
        return shown(self)

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return reply_message(self.script.next(), stop)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        text = reply_message(self.script.next(), stop).text
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
        text = reply_message(self.script.next(), stop).text
        clock = current_clock()
        for number, char in enumerate(text):
            if self.sleep:
                await clock.asleep(self.sleep)
            if self.error_on_chunk_number is not None and number == self.error_on_chunk_number:
                raise RuntimeError(f"scripted failure at chunk {number}")
            yield AIMessageChunk(char)


@attrs.frozen(repr=False)
class CyclingFakeLLM(LLM):
    """What ``FakeListLLM`` and ``FakeStreamingListLLM`` share (the peer's streaming one is
    a subclass of the other): ``responses`` cycled through from ``i``, ``sleep`` seconds
    on the runtime's clock, the peer's kind ``fake-list``, and a repr of the fields set.

    >>> from combinators.language_models import FakeStreamingListLLM
    >>> FakeStreamingListLLM(["a"], sleep=0.5), FakeListLLM(["a"])._llm_type
    (FakeStreamingListLLM(responses=('a',), sleep=0.5), 'fake-list')
    """

    # Typed as what the constructor takes: mypy reads these classes' fields through
    # dataclass_transform, which ignores converters.
    responses: Sequence[str] = attrs.field(converter=texts)
    i: int = 0
    sleep: float | None = None
    # Keyword-only: a subclass's own fields come before it in the positional order.
    script: Script = attrs.field(
        eq=False, repr=False, kw_only=True, default=attrs.Factory(cycling_script, takes_self=True)
    )

    @property
    def _llm_type(self) -> str:
        return "fake-list"

    def __repr__(self) -> str:
        return shown(self)


@final
@attrs.frozen(repr=False)
class FakeListLLM(CyclingFakeLLM):
    """A text model cycling through ``responses``, from ``i`` on.

    >>> llm = FakeListLLM(("one", "two"))
    >>> llm.batch(["a", "b"]) in (["one", "two"], ["two", "one"])
    True
    >>> FakeListLLM(responses=["a", "b", "c"], i=2).invoke("x")
    'c'
    """

    def _call(self, prompt: str, stop: list[str] | None = None) -> str:
        if self.sleep:
            current_clock().sleep(self.sleep)
        return reply_message(self.script.next(), stop).text
