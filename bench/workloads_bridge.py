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
"""

from __future__ import annotations

from typing import Any

from bench.chains import inc, lam, on, per_lib, sequence
from bench.harness import compare_sync
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
