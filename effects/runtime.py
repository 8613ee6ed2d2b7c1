"""The runtime's entry calls: the part of ``effects._runtime`` that ``Runnable`` calls.

``combinators/runnable/`` (and nothing else outside ``effects``: a structure test says so)
starts runs here: ``invoke``/``ainvoke``/``stream``/``astream``/``transform``/
``atransform`` (one call), ``batch``/``abatch``/``batch_as_completed``/
``abatch_as_completed`` (many), ``observe``/``aobserve`` (the effect stream of a watched
run) and the projected calls ``events``/``aevents``, ``event_stream_bytes``/
``aevent_stream_bytes`` (SSE) and ``log``/``alog`` (the run log), with
``check_encoding`` and the ``EventsVersion`` they take. Node and component authors use
``effects.authoring`` instead: a step never starts a root run.

Watching loads on first use (the run log needs jsonpatch, the effect stream asyncio), so
importing this module stays cheap; a name, once loaded, is a plain module attribute.

>>> from combinators import RunnableLambda
>>> from effects import runtime
>>> runtime.invoke(RunnableLambda(abs), -2, None, {}), runtime.batch(RunnableLambda(abs), [-1, -3], None, {}, False)
(2, [1, 3])
>>> [type(e).__name__ for e in runtime.observe(RunnableLambda(abs), -1, None, {})]
['RunStarted', 'RunStreamed', 'RunEnded']
>>> from effects.projections.filters import EventFilter
>>> [e["event"] for e in runtime.events(RunnableLambda(abs), -1, None, {}, "v2", EventFilter())]
['on_chain_start', 'on_chain_stream', 'on_chain_end']
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from effects._runtime.batches import abatch as abatch
from effects._runtime.batches import abatch_as_completed as abatch_as_completed
from effects._runtime.batches import batch as batch
from effects._runtime.batches import batch_as_completed as batch_as_completed
from effects._runtime.calls import ainvoke as ainvoke
from effects._runtime.calls import astream as astream
from effects._runtime.calls import atransform as atransform
from effects._runtime.calls import invoke as invoke
from effects._runtime.calls import stream as stream
from effects._runtime.calls import transform as transform
from effects.lazy import lazy_exports as _lazy_exports

if _TYPE_CHECKING:
    from effects._runtime.effect_stream import aobserve as aobserve
    from effects._runtime.effect_stream import observe as observe
    from effects._runtime.projected_calls import EventsVersion as EventsVersion
    from effects._runtime.projected_calls import aevent_stream_bytes as aevent_stream_bytes
    from effects._runtime.projected_calls import aevents as aevents
    from effects._runtime.projected_calls import alog as alog
    from effects._runtime.projected_calls import check_encoding as check_encoding
    from effects._runtime.projected_calls import event_stream_bytes as event_stream_bytes
    from effects._runtime.projected_calls import events as events
    from effects._runtime.projected_calls import log as log

_LAZY: dict[str, str] = {
    "observe": "effects._runtime.effect_stream",
    "aobserve": "effects._runtime.effect_stream",
    **dict.fromkeys(
        (
            "EventsVersion",
            "aevent_stream_bytes",
            "aevents",
            "alog",
            "check_encoding",
            "event_stream_bytes",
            "events",
            "log",
        ),
        "effects._runtime.projected_calls",
    ),
}
_load = _lazy_exports(__name__, _LAZY)


def __getattr__(name: str) -> object:
    value = _load(name)
    globals()[name] = value  # later reads are plain attribute reads, with no call in between
    return value


__all__ = [
    "EventsVersion", "abatch", "abatch_as_completed", "aevent_stream_bytes", "aevents", "ainvoke", "alog",
    "aobserve", "astream", "atransform", "batch", "batch_as_completed", "check_encoding", "event_stream_bytes",
    "events", "invoke", "log", "observe", "stream", "transform",
]  # fmt: skip
