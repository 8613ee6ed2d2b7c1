"""W16: the LangChain bridge's other direction and LangChain's callback handlers.

* ``to_langchain(ours).invoke`` of one lambda against langchain-core's own
  ``RunnableLambda`` of the same function: the wrapper is a real langchain-core
  ``Runnable`` and configures LangChain's callbacks as LangChain does, so it pays part of
  what the peer pays; the budget is that it pays no more than 1.1x.
* Without handlers, ``config["callbacks"]`` support must cost nothing measurable: our own
  invoke given ``{"tags": [...], "callbacks": []}`` against the same call without the
  key (an empty list asks for no handler, and nothing is built), and given
  ``{"callbacks": None}`` against ``{}``.
* With a recording handler, ours and the peer telling it about the same 2-step chain
  (shown, no limit).
* ``from_langchain(obj).invoke`` against ``obj.invoke`` for one-step objects (a lambda, a
  chat model), and our ``astream_events`` (v2) of the wrapped chat model against
  langchain-core's own ``astream_events`` of it (``w16_from_langchain``). There "peer" is
  the LangChain object called directly and "ours" the same object through the bridge: the
  ratios are the bridge's overhead, not a comparison of libraries (no floor).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench.chains import inc, lam, on, per_lib, sequence
from bench.harness import Outcome, compare_async, compare_sync
from bench.libs import Lib
from bench.record import Results

US = 1e6


class _Counting:
    """A handler doing the least work: counting the calls it gets."""

    def __init__(self) -> None:
        from langchain_core.callbacks import BaseCallbackHandler

        class Counter(BaseCallbackHandler):
            calls = 0

            def on_chain_start(self, *args: Any, **kwargs: Any) -> None:
                Counter.calls += 1

            def on_chain_end(self, *args: Any, **kwargs: Any) -> None:
                Counter.calls += 1

        self.handler = Counter()


def w16_bridge(res: Results) -> None:
    s = res.settings
    libs = res.libs()
    ours_lib, peer_lib = libs["ours"], libs["peer"]
    if isinstance(ours_lib, str) or isinstance(peer_lib, str):
        res.add("W16", "to_langchain(ours).invoke µs/call", "µs", {"ours": None, "peer": None, "floor": None}, US)
        return
    from combinators.integrations.langchain import to_langchain

    ours_one: Lib = ours_lib
    wrapped = to_langchain(lam(ours_one))
    theirs = lam(peer_lib)
    for _ in range(100):  # first calls fill caches (the value table, LangChain's configure)
        wrapped.invoke(1)
        theirs.invoke(1)
    sync = compare_sync(
        {"ours": lambda: wrapped.invoke(1), "peer": lambda: theirs.invoke(1), "floor": lambda: inc(1)},
        repeat=s.repeat,
        target=s.target,
        expect=2,
    )
    row = res.add(
        "W16",
        "to_langchain(ours).invoke µs/call",
        "µs",
        sync,
        US,
        note="ours: to_langchain(RunnableLambda(f)); peer: langchain-core RunnableLambda(f); floor: f(1)",
    )
    res.budget("W16", "to_langchain(ours).invoke: ours/peer time", row.ratio("peer"), "<=", 1.1)

    # No handler: the key's support against the call without it (both sides are ours).
    ours = lam(ours_one)
    tagged: Any = {"tags": ["t"]}
    tagged_empty: Any = {"tags": ["t"], "callbacks": []}
    none_entry: Any = {"callbacks": None}
    no_entry: Any = {}
    empty = compare_sync(
        {"ours": lambda: ours.invoke(1, tagged_empty), "floor": lambda: ours.invoke(1, tagged)},
        repeat=s.repeat,
        target=s.target,
        expect=2,
    )
    row = res.add(
        "W16",
        'ours invoke, config {"tags", "callbacks": []} µs/call',
        "µs",
        empty,
        US,
        note='floor here: ours, the same config without "callbacks"',
    )
    res.budget("W16", "no handler (an empty list): ours / ours without the key", row.ratio("floor"), "<=", 1.1)
    bare = compare_sync(
        {"ours": lambda: ours.invoke(1, none_entry), "floor": lambda: ours.invoke(1, no_entry)},
        repeat=s.repeat,
        target=s.target,
        expect=2,
    )
    row = res.add(
        "W16",
        'ours invoke, config {"callbacks": None} µs/call',
        "µs",
        bare,
        US,
        note="floor here: ours, config {}",
    )
    res.budget("W16", "no handler (None): ours / ours with an empty config", row.ratio("floor"), "<=", 1.1)

    # A handler on a 2-step chain: ours and the peer telling the same calls (shown).
    counting = _Counting().handler
    chains = per_lib(libs, lambda lib: sequence(lib, 2))
    config: Any = {"callbacks": [counting]}
    told = compare_sync(
        on(chains, lambda chain: lambda: chain.invoke(1, config)),
        repeat=s.repeat,
        target=s.target,
        expect=3,
    )
    res.add("W16", "2-step invoke with one handler µs/call", "µs", told, US, note="3 chain runs told per call")


def _objects() -> dict[str, tuple[Any, object, object]] | str:
    """The LangChain objects, their input and expected output (or why they are n/a)."""
    try:
        from langchain_core.language_models import FakeListChatModel
        from langchain_core.runnables import RunnableLambda
    except ImportError:
        return "n/a: langchain-core is not installed"
    model = FakeListChatModel(responses=["fog over the bay"])
    return {"lambda": (RunnableLambda(inc), 1, 2), "chat model": (model, "weather?", None)}


def _wrapped(obj: Any) -> Any | str:
    try:
        from combinators.integrations.langchain import from_langchain
    except Exception as error:  # our column reads the error, the peer's is still timed
        return f"error: {type(error).__name__}: {error}"
    return from_langchain(obj, object, object)


def _text(result: object) -> object:
    return getattr(result, "content", result)


def w16_from_langchain(res: Results) -> None:
    s = res.settings
    objects = _objects()
    if isinstance(objects, str):
        res.log(f"W16 skipped: {objects}")
        return
    for label, (obj, value, expected) in objects.items():
        ours = _wrapped(obj)
        sides: dict[str, Callable[[], object] | str | None] = {
            "ours": ours if isinstance(ours, str) else (lambda w=ours: _text(w.invoke(value))),
            "peer": lambda o=obj: _text(o.invoke(value)),
            "floor": None,
        }
        # Both sides run the same LangChain code (~80 µs) and differ by a few µs: three
        # times the usual repeats, so the machine's noise (±10% a repeat) settles in the median.
        out: dict[str, Outcome] = compare_sync(
            sides, repeat=3 * s.repeat, target=s.target, **({} if expected is None else {"expect": expected})
        )
        row = res.add("W16", f"invoke, one {label}: µs/call", "µs", out, US, note="peer: the LangChain object itself")
        res.budget("W16", f"from_langchain({label}).invoke / its own invoke", row.ratio("peer"), "<=", 1.10)

    obj, value, _ = objects["chat model"]
    ours = _wrapped(obj)

    async def events(runnable: Any) -> int:
        count = 0
        async for _ in runnable.astream_events(value, version="v2"):
            count += 1
        return count

    async_sides: dict[str, Any] = {
        "ours": ours if isinstance(ours, str) else (lambda: events(ours)),
        "peer": lambda: events(obj),
        "floor": None,
    }
    out = compare_async(async_sides, repeat=3 * s.repeat_heavy, target=s.target)
    row = res.add(
        "W16",
        "astream_events v2, one chat model: µs/call",
        "µs",
        out,
        US,
        note="ours: the wrapper's run and the model's, tokens included; peer: the model's own events",
    )
    res.budget("W16", "from_langchain(chat model) astream_events / its own", row.ratio("peer"), "<=", 1.10)
