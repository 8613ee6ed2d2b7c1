"""The call surface of ``Runnable``, written once, as data.

Every call a user makes on a runnable (``invoke`` ... ``astream_log``, the batches, and
``bind`` with its two forms) is one ``Call`` here: its parameters, its overloads (the
axes a literal argument chooses the result type by: ``return_exceptions``, ``version``,
``encoding``, ``diff``), its body and its doctest. ``python -m combinators.runnable._generate``
writes them into ``calls.py`` (the typed methods of ``RunnableCalls``) and ``sync_calls.py``
(their ``SyncIn`` mirrors); a test fails when those files are stale. Nothing imports this
module at run time: it is read by the generator only.

Annotations are text. ``{In}`` stands for the input type (``In`` on ``Runnable``,
``SyncIn`` on the mirrors); ``{T}`` in a return template is filled by each overload.

>>> [c.name for c in CALLS][:4]
['invoke', 'ainvoke', 'stream', 'astream']
>>> [p.name for p in FILTERS]
['include_names', 'include_types', 'include_tags', 'exclude_names', 'exclude_types', 'exclude_tags']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

ParamKind = Literal["positional", "positional_only", "keyword"]


@dataclass(frozen=True)
class Param:
    """One parameter: ``name: annotation = default``.

    >>> Param("config", "ConfigLike", "None", "positional").name
    'config'
    """

    name: str
    annotation: str
    default: str | None = None
    kind: ParamKind = "keyword"


@dataclass(frozen=True)
class Overload:
    """One overload of a call: the parameters it narrows, and what it returns.

    ``fill`` fills the call's return template (``{T}``); ``self_input`` is the input the
    runnable must take for this overload to apply (the ``str`` overload of the batches);
    ``deprecated`` makes it a ``@deprecated`` overload, reported by both checkers.

    >>> Overload({"T": "Out"}).fill
    {'T': 'Out'}
    """

    fill: Mapping[str, str]
    narrow: tuple[Param, ...] = ()
    self_input: str | None = None
    deprecated: str | None = None
    returns: str | None = None
    """The whole return annotation, when the template does not fit (it then ignores ``fill``)."""
    drop: tuple[str, ...] = ()
    """Parameters this overload does not take."""
    kwargs: bool | None = None
    """Whether it takes ``**kwargs`` (None: as the call does)."""


@dataclass(frozen=True)
class Call:
    """One method of the call surface.

    ``returns`` is the return annotation (a template filled by each overload's ``{T}``, and
    then the implementation returns their union; else the implementation's own); ``body``
    the implementation (``self`` is the runnable); ``is_async`` writes ``async def``;
    ``mirrored`` restates it on ``SyncCalls`` with ``SyncIn`` (the sync calls);
    ``mirror_only`` puts it on ``SyncCalls`` only (``Runnable`` defines it by hand);
    ``kwargs`` is whether it takes ``**kwargs: object``, or the text of its own ``**`` parameter.

    >>> Call("x", (), "Out", "return 1", "").is_async
    False
    """

    name: str
    params: tuple[Param, ...]
    returns: str
    body: str
    doc: str
    overloads: tuple[Overload, ...] = ()
    is_async: bool = False
    kwargs: bool | str = True
    mirrored: bool = False
    mirror_only: bool = False


# ---------------------------------------------------------------------- shared parameters

INPUT = Param("input", "{In}", kind="positional")
CONFIG = Param("config", "ConfigLike", "None", "positional")
BATCH_INPUTS = Param("inputs", "Sequence[{In}]", kind="positional")
BATCH_CONFIG = Param("config", "ConfigLike | Sequence[ConfigLike]", "None", "positional")
PROGRESS = Param("progress", "bool", "False")
EXECUTOR = Param("executor", "Executor | None", "None")

FILTERS = tuple(
    Param(f"{which}_{what}", "RunTypes | None" if what == "types" else "Names | None", "None")
    for which in ("include", "exclude")
    for what in ("names", "types", "tags")
)
"""The six event-filter keywords of ``stream_events`` and ``stream_log``, spelled once."""

FILTER_ARGS = ", ".join(p.name for p in FILTERS)

# ---------------------------------------------------------------------- overload axes

RETURN_EXCEPTIONS = Param("return_exceptions", "bool", "False")
RETURN_EXCEPTIONS_AXIS = (
    Overload({"T": "Out"}, (Param("return_exceptions", "Literal[False]", "False"),)),
    Overload({"T": "Out | Exception"}, (Param("return_exceptions", "Literal[True]"),)),
    Overload({"T": "Out | Exception"}, (Param("return_exceptions", "bool"),)),
)
"""``return_exceptions=True`` puts the exceptions in the results, and says so in their type."""

STR_INPUTS = "a str is a sequence of characters: this runs once per character; pass a list of inputs ([text])"
"""Why ``batch("abc")`` is flagged: the str overload is ``@deprecated``, so both checkers
report the call (mypy's ``deprecated`` code, pyright's ``reportDeprecated``)."""


def _str_batch(fill: Mapping[str, str]) -> Overload:
    """The overload that catches a ``str`` passed where a sequence of inputs is expected."""
    return Overload(fill, (Param("inputs", "str", kind="positional"),), self_input="str", deprecated=STR_INPUTS)


VERSION = Param("version", "EventsVersion", '"v2"')
ENCODING = Param("encoding", 'Literal["text/event-stream"] | None', "None")
NO_ENCODING = Param("encoding", "None", "None")
EVENTS_AXIS = (
    Overload({"T": "StreamEvent"}, (Param("version", 'Literal["v2"]', '"v2"'), NO_ENCODING)),
    Overload({"T": "V1StreamEvent"}, (Param("version", 'Literal["v1"]'), NO_ENCODING)),
    Overload({"T": "StreamEvent | V1StreamEvent"}, (Param("version", "EventsVersion"), NO_ENCODING)),
    Overload({"T": "bytes"}, (Param("encoding", 'Literal["text/event-stream"]'),)),
)
"""``version`` chooses the event schema; ``encoding="text/event-stream"`` gives the SSE
frames of the same events as bytes (one overload, whatever the version)."""

DIFF = Param("diff", "bool", "True")
STREAMED_OUTPUT_LIST = Param("with_streamed_output_list", "bool", "True")
DIFF_AXIS = (
    Overload({"T": "RunLogPatch"}, (Param("diff", "Literal[True]", "True"),)),
    Overload({"T": "RunLog"}, (Param("diff", "Literal[False]"),)),
)
"""``diff=True`` streams JSON-patch ``RunLogPatch``es, ``diff=False`` the accumulated ``RunLog``s."""


MAP_FUNCTIONS = (
    # A function that never returns, first of all on purpose: when none fits, mypy's error
    # names the first overload, so it reads 'expected "Callable[[int], Never]"': this
    # runnable's output against the function's parameter.
    ("Callable[[Out], Never]", "Never"),
    ("Callable[[Out], AsyncIterator[C]]", "C"),
    ("Callable[[Out], Iterator[C]]", "C"),
    ("Callable[[Out], Awaitable[C]]", "C"),
    ("Callable[[Out], Runnable[Out, C]]", "C"),
    ("Callable[[Out], C]", "C"),
    ("Callable[[Out, RunConfig], Awaitable[C]]", "C"),
    ("Callable[[Out, RunConfig], C]", "C"),
    # No catch-all union last (as pipe has): mypy then types an inline lambda as Any. pyright
    # names the last overload, and its error still reads 'Parameter 1: type "int" is
    # incompatible with type "str"'.
)
"""``map``'s overloads: what ``f`` may be, and what the mapped runnable gives."""


# ---------------------------------------------------------------------- the calls

_ONE = (INPUT, CONFIG)


def _doc(text: str) -> str:
    return text.strip("\n")


def _twins(
    name: str,
    params: tuple[Param, ...],
    returns: tuple[str, str],
    body: str,
    docs: tuple[str, str],
    overloads: tuple[Overload, ...] = (),
    *,
    async_def: bool = False,
) -> tuple[Call, Call]:
    """A sync call and its async twin ``a<name>``, which take the same parameters, on the
    same overload axes, and run the same body: in the twin's, ``{a}`` is ``a`` (the runtime's
    ``a<function>``), and ``{await}`` awaits when the twin is an ``async def``. They differ
    in what they return and in their docs; the sync one is mirrored on ``SyncCalls``.

    >>> sync, twin = _twins("f", _ONE, ("Out", "Out"), "return {await}runtime.{a}f()", ("", ""), async_def=True)
    >>> sync.body, twin.body, twin.name, twin.is_async, sync.mirrored
    ('return runtime.f()', 'return await runtime.af()', 'af', True, True)
    """

    def call(a: str, which: int) -> Call:
        awaits = "await " if a and async_def else ""
        text = body.replace("{a}", a).replace("{await}", awaits)
        return Call(a + name, params, returns[which], text, _doc(docs[which]), overloads, bool(awaits), mirrored=not a)

    return call("", 0), call("a", 1)


_BATCH = (BATCH_INPUTS, BATCH_CONFIG, RETURN_EXCEPTIONS, PROGRESS, EXECUTOR)
_BATCH_AXES = (_str_batch({"T": "Out | Exception"}), *RETURN_EXCEPTIONS_AXIS)
_EVENTS_BODY = (
    "from effects.projections.filters import EventFilter\n\n"
    "runtime.check_encoding(encoding)\n"
    f"event_filter = EventFilter({FILTER_ARGS})\n"
    "if encoding is None:\n"
    "    return runtime.{a}events(self, input, config, kwargs, version, event_filter)\n"
    "return runtime.{a}event_stream_bytes(self, input, config, kwargs, version, event_filter)"
)
_LOG_BODY = (
    "from effects.projections.filters import EventFilter\n\n"
    f"event_filter = EventFilter({FILTER_ARGS})\n"
    "return runtime.{a}log(  # type: ignore[return-value]\n"
    "    self, input, config, kwargs, diff, with_streamed_output_list, event_filter\n"
    ")"
)


CALLS: tuple[Call, ...] = (
    *_twins(
        "invoke",
        _ONE,
        ("Out", "Coroutine[Any, Any, Out]"),
        "return runtime.{a}invoke(self, input, config, kwargs)",
        (
            """
Run once on ``input``.

>>> from combinators import RunnableLambda
>>> RunnableLambda(lambda x: x + 1).invoke(1)
2
""",
            """
Run once on ``input`` in the running event loop (a coroutine, as from ``async def``).

>>> import asyncio
>>> from combinators import RunnableLambda
>>> asyncio.run(RunnableLambda(lambda x: x * 2).ainvoke(4))
8
""",
        ),
    ),
    *_twins(
        "stream",
        _ONE,
        ("Iterator[Out]", "AsyncIterator[Out]"),
        "return runtime.{a}stream(self, input, config, kwargs)",
        (
            """
Stream output chunks for one input.

>>> from combinators import RunnableLambda
>>> def words(text: str):
...     yield from text.split()
>>> list(RunnableLambda(words).stream("a b c"))
['a', 'b', 'c']
""",
            """
Async ``stream``. Use ``contextlib.aclosing`` when you ``break`` out early.

>>> import asyncio
>>> from combinators import RunnableLambda
>>> async def main():
...     return [c async for c in RunnableLambda(str.upper).astream("hi")]
>>> asyncio.run(main())
['HI']
""",
        ),
    ),
    Call(
        "transform",
        (Param("inputs", "Iterable[{In}]", kind="positional"), CONFIG),
        "Iterator[Out]",
        "return runtime.transform(self, inputs, config, kwargs)",
        _doc("""
Stream output over a stream of input chunks.

>>> from combinators import RunnableLambda
>>> list(RunnableLambda(str.upper).transform(["a", "b"]))
['AB']
"""),
        mirrored=True,
    ),
    Call(
        "atransform",
        (Param("inputs", "AsyncIterable[{In}]", kind="positional"), CONFIG),
        "AsyncIterator[Out]",
        "return runtime.atransform(self, inputs, config, kwargs)",
        _doc("""
Async ``transform``.

>>> import asyncio
>>> from combinators import RunnableLambda
>>> async def chunks():
...     yield "a"; yield "b"
>>> async def main():
...     return [c async for c in RunnableLambda(str.upper).atransform(chunks())]
>>> asyncio.run(main())
['AB']
"""),
    ),
    *_twins(
        "batch",
        _BATCH,
        ("list[{T}]", "list[{T}]"),
        "return {await}runtime.{a}batch(self, list(inputs), config, kwargs, return_exceptions, progress, executor)",
        (
            """
Run on every input (shared thread pool, or ``executor``'s workers); one result
per input, in order.

``progress=True`` (or the config flag ``progress``) shows a progress bar over the
items (the optional extra ``progress``). A ``str`` is not a batch of inputs: both
checkers flag ``batch("abc")`` (it runs once per character).

>>> from combinators import RunnableLambda
>>> RunnableLambda(lambda x: 10 // x).batch([5, 0], return_exceptions=True)
[2, ZeroDivisionError('integer division or modulo by zero')]
""",
            """
Run on every input concurrently (structured: a failure cancels the rest).

>>> import asyncio
>>> from combinators import RunnableLambda
>>> asyncio.run(RunnableLambda(lambda x: -x).abatch([1, 2]))
[-1, -2]
""",
        ),
        _BATCH_AXES,
        async_def=True,
    ),
    *_twins(
        "batch_results",
        (BATCH_INPUTS, BATCH_CONFIG, EXECUTOR),
        ("list[Success[Out] | Failure[Exception]]", "list[Success[Out] | Failure[Exception]]"),
        "outcomes = {await}runtime.{a}batch(self, list(inputs), config, kwargs, True, False, executor)\n"
        "return [fluent.as_result(r) for r in outcomes]",
        (
            """
``batch`` with every outcome as a ``returns`` ``Result``: ``Success(output)`` or
``Failure(error)``, to ``match`` exhaustively (``case Success(v): ... case Failure(e): ...``).

>>> from combinators import RunnableLambda
>>> RunnableLambda(lambda x: 1 // x).batch_results([1, 0])
[<Success: 1>, <Failure: integer division or modulo by zero>]
""",
            """
Async ``batch_results``.

>>> import asyncio
>>> from combinators import RunnableLambda
>>> asyncio.run(RunnableLambda(lambda x: x).abatch_results([7]))
[<Success: 7>]
""",
        ),
        (_str_batch({}), Overload({})),
        async_def=True,
    ),
    *_twins(
        "batch_as_completed",
        _BATCH,
        ("Iterator[tuple[int, {T}]]", "AsyncIterator[tuple[int, {T}]]"),
        "return runtime.{a}batch_as_completed(self, list(inputs), config, kwargs, return_exceptions, progress, executor)",
        (
            """
Yield ``(index, output)`` as each input finishes.

>>> from combinators import RunnableLambda
>>> sorted(RunnableLambda(lambda x: x * x).batch_as_completed([1, 2, 3]))
[(0, 1), (1, 4), (2, 9)]
""",
            """
Async ``batch_as_completed``; leaving the loop early cancels the rest.

>>> import asyncio
>>> from combinators import RunnableLambda
>>> async def main():
...     return sorted([p async for p in RunnableLambda(str).abatch_as_completed([1, 2])])
>>> asyncio.run(main())
[(0, '1'), (1, '2')]
""",
        ),
        _BATCH_AXES,
    ),
    *_twins(
        "stream_effects",
        _ONE,
        ("Iterator[Effect]", "AsyncIterator[Effect]"),
        "return runtime.{a}observe(self, input, config, kwargs)",
        (
            """
Sync ``astream_effects`` (the chain runs on a producer thread).

>>> from combinators import RunnableLambda
>>> [type(e).__name__ for e in RunnableLambda(abs).stream_effects(-1)][0]
'RunStarted'
""",
            """
The run's effect values as they happen: what every projection folds over.

Record them with ``effects.projections.recording.record`` to replay a run later.

>>> import asyncio
>>> from combinators import RunnableLambda
>>> async def main():
...     return [type(e).__name__ async for e in RunnableLambda(abs).astream_effects(-1)]
>>> asyncio.run(main())
['RunStarted', 'RunStreamed', 'RunEnded']
""",
        ),
    ),
    *_twins(
        "stream_events",
        (INPUT, CONFIG, VERSION, ENCODING, *FILTERS),
        ("Iterator[{T}]", "AsyncIterator[{T}]"),
        _EVENTS_BODY,
        (
            """
Sync ``astream_events`` (the chain runs on a producer thread).

>>> from combinators import RunnableLambda
>>> [e["event"] for e in RunnableLambda(abs).stream_events(-1, include_types=["chain"])]
['on_chain_start', 'on_chain_stream', 'on_chain_end']
>>> next(RunnableLambda(abs).stream_events(-1, encoding="text/event-stream")).split()[:2]
[b'event:', b'data']
""",
            """
Every run's start, stream, end (and error) events, as they happen.

``version="v2"`` follows LangChain's schema (``on_chain_start`` ...), plus
``on_<type>_error`` for failed runs; ``encoding="text/event-stream"`` gives
SSE frames as bytes.

>>> import asyncio
>>> from combinators import RunnableLambda
>>> async def main():
...     return [e["event"] async for e in RunnableLambda(abs).astream_events(-1)]
>>> asyncio.run(main())
['on_chain_start', 'on_chain_stream', 'on_chain_end']
""",
        ),
        EVENTS_AXIS,
    ),
    *_twins(
        "stream_log",
        (INPUT, CONFIG, DIFF, STREAMED_OUTPUT_LIST, *FILTERS),
        ("Iterator[{T}]", "AsyncIterator[{T}]"),
        _LOG_BODY,
        (
            """
Sync ``astream_log``.

>>> from combinators import RunnableLambda
>>> logs = list(RunnableLambda(abs).stream_log(-3, diff=False))
>>> logs[-1].state["final_output"]
3
""",
            """
The run log as JSON-patch ``RunLogPatch``es (or accumulated ``RunLog``s).

>>> import asyncio
>>> from combinators import RunnableLambda
>>> async def main():
...     log = None
...     async for patch in RunnableLambda(abs).astream_log(-3):
...         log = patch if log is None else log + patch
...     return log.state["final_output"]
>>> asyncio.run(main())
3
""",
        ),
        DIFF_AXIS,
    ),
    Call(
        "map",
        (Param("f", "Callable[..., object] | None", "None", kind="positional"),),
        "Runnable[Any, Any]",
        "if f is None:\n"
        "    return fluent.each(fluent.runnable(self))\n"
        "return fluent.then(fluent.runnable(self), fluent.function(f))",
        _doc("""
Two maps, told apart by their argument.

``map(f)``: the functor map over the output. ``f`` may be a function of the output,
async, a generator, one that returns a runnable (run on the output), or one that takes
the output and the run's ``RunConfig``.
``map()``: LangChain's ``.map()``, this runnable element-wise over a list (``.each()``).

>>> from combinators import RunnableLambda
>>> RunnableLambda(str.split).map(len).invoke("a b c")
3
>>> RunnableLambda(str.upper).map().invoke(["a", "b"])
['A', 'B']
"""),
        overloads=(
            *(
                Overload({}, (Param("f", f, kind="positional"),), returns=f"Runnable[{{In}}, {result}]", kwargs=False)
                for f, result in MAP_FUNCTIONS
            ),
            # Last: an argument that fits no function overload is reported against those.
            Overload({}, returns="Runnable[Sequence[{In}], list[Out]]", drop=("f",), kwargs=False),
        ),
        kwargs=False,
    ),
    Call(
        "bind",
        (Param("f", "Callable[[Out], Runnable[{In}, Any]] | None", "None", "positional_only"),),
        "Runnable[{In}, Any]",
        "if f is None:\n"
        "    return fluent.bound(fluent.runnable(self), kwargs=kwargs)\n"
        "if kwargs:\n"
        "    raise TypeError(\n"
        '        f"bind takes a function (the reader bind) or keyword arguments (bound to every call), "\n'
        '        f"not both: got {f!r} and {sorted(kwargs)}"\n'
        "    )\n"
        "return fluent.bind(fluent.runnable(self), f)",
        _doc("""
Two binds, told apart by their arguments.

``bind(f)``, one function: the reader-monad bind, ``x`` maps to ``f(self(x))(x)``
(``f`` turns this runnable's output into the runnable then run on the same input).
``bind(**kwargs)``: LangChain's ``.bind(stop=[...])``, keyword arguments bound to every
call (the same as ``with_kwargs``).

>>> from combinators import Runnable, RunnableLambda, pure
>>> def pick_op(n: int) -> Runnable[int, int]:
...     return RunnableLambda(lambda x: x * 10) if n > 0 else pure(0)
>>> RunnableLambda(lambda x: x - 1).bind(pick_op).batch([5, 1])
[50, 0]
>>> def scale(x: int, *, by: int = 1) -> int:
...     return x * by
>>> RunnableLambda(scale).bind(by=3).invoke(2)
6
"""),
        overloads=(
            Overload(
                {},
                (Param("f", "Callable[[Out], Runnable[{In}, C]]", kind="positional_only"),),
                returns="Runnable[{In}, C]",
                kwargs=False,
            ),
            Overload({}, returns="RunnableBinding[{In}, Out]", drop=("f",)),
        ),
    ),
)
"""Every call, in the order they are written out."""


SYNC_ONLY: tuple[Call, ...] = (
    Call(
        "as_tool",
        (),
        "RunnableTool[Out] | RunnableTool[Out, ..., object, Never]",
        "",
        "",
        overloads=(
            # An async-only runnable gives an async-only tool.
            Overload({}, self_input="Never", returns="RunnableTool[Out, ..., object, Never]"),
            Overload({}, returns="RunnableTool[Out]"),
        ),
        # The keywords of Runnable.as_tool, as one TypedDict (``fluent.ToolOptions``).
        kwargs="options: Unpack[ToolOptions]",
        mirror_only=True,
    ),
)
"""Members that only the mirrors restate (``Runnable`` writes them by hand)."""


__all__ = ["CALLS", "FILTERS", "SYNC_ONLY", "Call", "Overload", "Param"]
