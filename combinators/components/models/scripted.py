"""``ScriptedChatModel``: a chat model that follows a script, tool calls included.

Each call takes the next entry of the script: an ``AIMessage`` (text and/or tool
calls), a ``str`` (a text answer), an exception to raise, or a function of the
messages the model was given that returns one of those. Streaming sends the text
word by word, then one chunk per tool call (name, id and arguments as JSON), as a
provider would. Every reply gets a fresh message id; scripted tool-call ids are kept
as written, and a call without one gets a fresh one. When the script runs out, the
call fails with ``ScriptExhaustedError``. ``calls`` records what each call was given
(its messages and the names of the tools bound to it).

>>> from combinators.messages import AIMessage, ToolCall
>>> model = ScriptedChatModel([AIMessage("", tool_calls=[ToolCall("search", {"q": "cats"})]), "Cats purr."])
>>> asked = model.invoke("tell me about cats")
>>> asked.tool_calls[0].name, asked.tool_calls[0].id.startswith("call_"), asked.id.startswith("scripted-")
('search', True, True)
>>> [chunk.text for chunk in model.stream("and?")]
['Cats', ' ', 'purr.']
>>> model.invoke("more?")
Traceback (most recent call last):
...
combinators.components.models.scripted.ScriptExhaustedError: ScriptedChatModel was called 3 times but its script has 2 replies (last message: 'more?')
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeAlias, final

import attrs

from combinators.components.models.chat_model import BaseChatModel
from combinators.components.messages.message_classes import AIMessage, AIMessageChunk, Message
from combinators.components.models.chunking import apaced, message_chunks, paced
from combinators.components.messages.ai_fields import fresh_id
from combinators.components.tools.specs import bound_functions
from effects.errors import CombinatorsError
from effects.authoring import is_a

ScriptReply: TypeAlias = "AIMessage | str | BaseException"
"""What one scripted call gives: a message, a text answer, or an error to raise."""

ScriptEntry: TypeAlias = "ScriptReply | Callable[[list[Message]], ScriptReply]"
"""One entry of the script: a reply, or a function of the messages that makes one."""


class ScriptExhaustedError(CombinatorsError, IndexError):
    """A scripted model was called once more than its script has replies."""


@final
@attrs.frozen
class ScriptedCall:
    """What one call of a ``ScriptedChatModel`` was given.

    >>> ScriptedCall((), ("search",)).tools
    ('search',)
    """

    messages: tuple[Message, ...]
    tools: tuple[str, ...]


@final
class _Cursor:
    """The position in the script and the calls so far: the model's one moving part."""

    __slots__ = ("position", "calls", "_lock")

    def __init__(self) -> None:
        self.position = 0
        self.calls: list[ScriptedCall] = []
        self._lock = threading.Lock()

    def take(self, size: int, call: ScriptedCall) -> int:
        with self._lock:
            self.calls.append(call)
            at = self.position
            self.position += 1
            return at if at < size else -1

    def __reduce__(self) -> tuple[type[_Cursor], tuple[()]]:
        return (_Cursor, ())  # a copy starts the script afresh


def _tool_names(kwargs: Mapping[str, object]) -> tuple[str, ...]:
    names = (function.get("name") for function in bound_functions(kwargs))
    return tuple(name for name in names if isinstance(name, str))


def _entries(entries: Iterable[ScriptEntry]) -> tuple[ScriptEntry, ...]:
    return tuple(entries)


@final
@attrs.frozen
class ScriptedChatModel(BaseChatModel):
    """A chat model replying from ``script`` (see the module), for tests and examples.

    ``token_delay`` seconds pass before each streamed chunk, on the runtime's clock.
    """

    # Typed as what the constructor takes: mypy reads these classes' fields through
    # dataclass_transform, which ignores converters.
    script: Sequence[ScriptEntry] = attrs.field(converter=_entries)
    token_delay: float = 0.0
    _cursor: _Cursor = attrs.field(init=False, factory=_Cursor, eq=False, repr=False)

    @property
    def calls(self) -> tuple[ScriptedCall, ...]:
        """What each call so far was given, in call order."""
        return tuple(self._cursor.calls)

    def _reply(self, messages: list[Message], kwargs: Mapping[str, object]) -> AIMessage:
        at = self._cursor.take(len(self.script), ScriptedCall(tuple(messages), _tool_names(kwargs)))
        if at < 0:
            last = messages[-1].text if messages else ""
            raise ScriptExhaustedError(
                f"{self.name} was called {len(self._cursor.calls)} times but its script has "
                f"{len(self.script)} replies (last message: {last!r})"
            )
        entry = self.script[at]
        reply = entry(list(messages)) if callable(entry) else entry
        if isinstance(reply, BaseException):
            raise reply
        message = AIMessage(reply) if isinstance(reply, str) else reply
        if not is_a(message, AIMessage):  # user functions
            raise TypeError(f"{self.name}'s script entry {at} gave a {type(message).__name__}, not an AIMessage or str")
        calls = [c if c.id else attrs.evolve(c, id=fresh_id("call_")) for c in message.tool_calls]
        return attrs.evolve(message, id=fresh_id("scripted-"), tool_calls=calls)

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return self._reply(messages, kwargs)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        yield from paced(message_chunks(self._reply(messages, kwargs)), self.token_delay)

    async def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        async for chunk in apaced(message_chunks(self._reply(messages, kwargs)), self.token_delay):
            yield chunk
