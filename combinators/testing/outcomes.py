"""What a call gave: a value or an error, compared the way the laws compare them.

Two outcomes agree when both returned equal values (``same``, by default ``==``
after a streamed ``AIMessageChunk`` is read as the ``AIMessage`` it adds up to), or
both raised errors of the same type (messages may differ: concurrent branches can
fail in either order).

>>> agree(Returned(1), Returned(1)), agree(Returned(1), Raised(ValueError("x")))
(True, False)
>>> agree(Raised(KeyError("a")), Raised(KeyError("b")))
True
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, Final, TypeVar, final

import attrs

from combinators.components.messages.message_classes import AIMessage, AIMessageChunk
from effects.guards import is_dict, is_list, is_list_or_tuple, is_mapping

T = TypeVar("T")

Same = Callable[[Any, Any], bool]
"""How the laws compare two output values."""

Total = Callable[[Iterable[Any]], object]
"""How the laws make a stream's output from its chunks (``sum_of_chunks`` or ``last_chunk``)."""


@final
@attrs.frozen
class Returned:
    """A call returned ``value``."""

    value: object


@final
@attrs.frozen
class Raised:
    """A call raised ``error``."""

    error: BaseException


Outcome = Returned | Raised


RUN_MADE_ID: Final = "lc_run--"
"""The start of a message id a model run made from its run id (only watched runs have one)."""


def _run_made(message_id: object) -> bool:
    return isinstance(message_id, str) and message_id.startswith(RUN_MADE_ID)


def settle(value: object) -> object:
    """``value`` with streamed message chunks read as messages (inside lists, tuples and
    dicts too), without the message ids a watched model run made from its run id.

    >>> settle([AIMessageChunk("hi", id="lc_run--1")])
    [AIMessage('hi')]
    """
    if isinstance(value, AIMessageChunk):
        value = value.to_message()
    if isinstance(value, AIMessage):
        return attrs.evolve(value, id=None) if _run_made(value.id) else value
    if is_list_or_tuple(value):
        items = [settle(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if is_mapping(value):
        return {k: settle(v) for k, v in value.items()}
    return value


def settle_json(value: object) -> object:
    """``settle`` for the JSON form of values (a run log's state).

    >>> settle_json({"type": "AIMessageChunk", "content": "hi", "id": "lc_run--1"})
    {'type': 'AIMessageChunk', 'content': 'hi', 'id': None}
    """
    if is_list(value):
        return [settle_json(v) for v in value]
    if is_dict(value):
        node = {k: settle_json(v) for k, v in value.items()}
        if node.get("type") in ("AIMessage", "AIMessageChunk") and _run_made(node.get("id")):
            node["id"] = None
        return node
    return value


def same_value(left: object, right: object) -> bool:
    """The default ``same``: equal once settled.

    >>> from combinators.components.messages.message_classes import AIMessage
    >>> same_value(AIMessage("ok"), AIMessageChunk("o") + AIMessageChunk("k"))
    True
    """
    return bool(settle(left) == settle(right))


def agree(left: Outcome, right: Outcome, same: Same = same_value) -> bool:
    """Whether two outcomes agree (equal values, or errors of the same type)."""
    if isinstance(left, Returned) and isinstance(right, Returned):
        return same(left.value, right.value)
    if isinstance(left, Raised) and isinstance(right, Raised):
        return type(left.error) is type(right.error)
    return False


def describe(outcome: Outcome) -> str:
    """How an outcome reads in a law's verdict.

    >>> describe(Returned([1])), describe(Raised(ValueError("no")))
    ('returned [1]', "raised ValueError('no')")
    """
    if isinstance(outcome, Returned):
        return f"returned {outcome.value!r}"
    return f"raised {outcome.error!r}"


def outcome_of(call: Callable[[], object]) -> Outcome:
    """Call ``call`` and keep what it gave.

    >>> outcome_of(lambda: 1 // 0)
    Raised(error=ZeroDivisionError('integer division or modulo by zero'))
    """
    try:
        return Returned(call())
    except Exception as error:
        return Raised(error)


def as_outcome(result: object) -> Outcome:
    """An item of ``batch(..., return_exceptions=True)`` as an outcome."""
    return Raised(result) if isinstance(result, Exception) else Returned(result)


class NoChunks:
    """The total of a stream that gave no chunk (``invoke`` raises ``EmptyStreamError`` there)."""

    def __repr__(self) -> str:
        return "<no chunks>"


NO_CHUNKS: Final = NoChunks()


class ChunksDoNotAdd(Exception):
    """Two chunks of a stream could not be added with ``+``."""


def sum_of_chunks(chunks: Iterable[object]) -> object:
    """A stream's output as the laws expect it by default: its chunks added with ``+``
    (strictly: chunks that do not add are an error).

    >>> sum_of_chunks(["a", "b"]), sum_of_chunks([])
    ('ab', <no chunks>)
    >>> sum_of_chunks([{"a": 1}, {"b": 2}])
    Traceback (most recent call last):
    ...
    combinators.testing.outcomes.ChunksDoNotAdd: chunks do not add up: {'a': 1} + {'b': 2}
    """
    total: Any = NO_CHUNKS  # chunks of any type that adds (str, messages, dicts)
    for chunk in chunks:
        if total is NO_CHUNKS:
            total = chunk
            continue
        try:
            total = total + chunk
        except TypeError:
            raise ChunksDoNotAdd(f"chunks do not add up: {total!r} + {chunk!r}") from None
    return total


def last_chunk(chunks: Iterable[object]) -> object:
    """A stream's output when each chunk is the whole value so far (a JSON parser's
    partial objects): the last chunk.

    >>> last_chunk([{}, {"a": 1}, {"a": 1, "b": 2}]), last_chunk([])
    ({'a': 1, 'b': 2}, <no chunks>)
    """
    total: object = NO_CHUNKS
    for chunk in chunks:
        total = chunk
    return total


async def collect(chunks: AsyncIterator[T]) -> list[T]:
    """All chunks of an async stream."""
    return [chunk async for chunk in chunks]


@final
@attrs.frozen
class Comparison:
    """How a law compares output values (``same``) and totals a stream (``total``)."""

    same: Same = same_value
    total: Total = sum_of_chunks


def run_async(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion, also when called from inside a running event loop.

    >>> async def two() -> int:
    ...     return 2
    >>> run_async(two)
    2
    """

    async def main() -> T:
        return await make()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    context = contextvars.copy_context()  # the clock in force, for one
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(context.run, asyncio.run, main()).result()


def aoutcome_of(make: Callable[[], Awaitable[object]]) -> Outcome:
    """``outcome_of`` for a coroutine, run to completion."""
    return outcome_of(lambda: run_async(make))
