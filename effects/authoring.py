"""The public API for node and component authors: what a step may use from the runtime.

A step runs its children through the ``Scope`` it is given (``current_scope()`` finds it
from code the step calls), and emits custom events with ``dispatch_custom_event``/
``adispatch_custom_event``. It closes the async streams it opens with ``closing`` (and
several streams and tasks at once, whatever happens, with ``aclose_all``), hands a whole
input to a child's ``astream`` with ``aiter_of``, and adds a stream's chunks up with
``total_or_nothing``/``atotal_or_nothing`` (``NOTHING`` when there was no chunk),
``total_of``/``atotal_of`` (an empty stream is an error naming the step) or chunk by chunk
with ``plus_chunk``; a
stream transform that needs its whole input first streams what it makes of the total
with ``run_on_total``/``arun_on_total``. It guards the typed inputs it gets from untyped
callers with ``checked``/``is_a``/``is_list_of`` (and reads data of unknown shape with
``is_mapping``/``is_list_or_tuple``); ``run_indexed`` runs sync work items at once on the
shared pool (the caller's thread takes part), ``in_worker``/``stream_in_worker`` run a
user's sync function or iterator on a worker thread under async (never holding the event
loop), ``gather_structured`` awaits coroutines under a task group (the first failure
cancels the others and is raised itself), and
``each_on_executor``/``aeach_on_executor`` run a child on every item of a list on an
``Executor``. A run named before it starts (a served chain's root) takes its id from
``new_run_id``. A hot path that gives a built value one new field copies it slot by
slot with ``slot_copy`` (its class passed once to ``allow_slot_copy``) and sets the field
with a ``field_setter`` (``effects._fast``, where every slot-writing speed-up and its
import-time checks live). Everything else in the runtime is private (``effects._runtime``).

The old spellings of the totals (``add_up``, ``aadd_up``, ``added_up``, ``aadded_up``,
``add_chunks``) still work until 2027-03-01, with a deprecation warning naming the new one.

>>> from effects.authoring import NOTHING, total_or_nothing, run_on_total
>>> total_or_nothing(["a", "b"]), total_or_nothing([]) is NOTHING
('ab', True)
>>> list(run_on_total(iter(["a", "b"]), lambda total: iter([total, total])))
['ab', 'ab']
"""

from effects._fast import allow_slot_copy as allow_slot_copy
from effects._fast import attrs_built as attrs_built
from effects._fast import field_setter as field_setter
from effects._fast import slot_copy as slot_copy
from effects._runtime.calls import gather_structured as gather_structured
from effects._runtime.closing import aclose_all as aclose_all
from effects._runtime.closing import aiter_of as aiter_of
from effects._runtime.closing import closing as closing
from effects._runtime.context import current_scope as current_scope
from effects._runtime.context import adispatch_custom_event as adispatch_custom_event
from effects._runtime.context import dispatch_custom_event as dispatch_custom_event
from effects._runtime.batches import aeach_on_executor as aeach_on_executor
from effects._runtime.batches import each_on_executor as each_on_executor
from effects._runtime.building import new_run_id as new_run_id
from effects._runtime.thread_pool import run_indexed as run_indexed
from effects._runtime.total import atotal_of as atotal_of
from effects._runtime.total import atotal_or_nothing as atotal_or_nothing
from effects._runtime.total import plus_chunk as plus_chunk
from effects._runtime.total import total_of as total_of
from effects._runtime.total import total_or_nothing as total_or_nothing
from effects._runtime.total import arun_on_total as arun_on_total
from effects._runtime.total import run_on_total as run_on_total
from effects._runtime.sync_steps import in_worker as in_worker
from effects._runtime.sync_steps import stream_in_worker as stream_in_worker
from effects.deprecation import renamed_exports
from effects.guards import checked as checked
from effects.guards import is_a as is_a
from effects.guards import is_dict as is_dict
from effects.guards import is_list as is_list
from effects.guards import is_list_of as is_list_of
from effects.guards import is_list_or_tuple as is_list_or_tuple
from effects.guards import is_mapping as is_mapping
from effects.guards import is_str_mapping as is_str_mapping
from effects.scope import Scope as Scope
from effects.step import Step as Step
from effects.step import StepBinding as StepBinding
from effects.effect_values import NOTHING as NOTHING

__all__ = [
    "NOTHING", "Scope", "Step", "StepBinding", "aclose_all", "adispatch_custom_event", "aeach_on_executor",
    "aiter_of", "allow_slot_copy", "arun_on_total", "atotal_of", "atotal_or_nothing", "attrs_built", "checked", "closing",
    "current_scope", "dispatch_custom_event", "each_on_executor", "field_setter", "gather_structured", "in_worker",
    "is_a", "is_dict", "is_list", "is_list_of", "is_list_or_tuple", "is_mapping", "is_str_mapping", "new_run_id",
    "plus_chunk", "run_indexed", "run_on_total", "slot_copy", "stream_in_worker", "total_of", "total_or_nothing",
]  # fmt: skip

# The totals' old look-alike names (add_up/added_up/add_chunks), kept for one release.
__getattr__ = renamed_exports(
    "effects.authoring",
    {
        "add_up": "total_of",
        "aadd_up": "atotal_of",
        "added_up": "total_or_nothing",
        "aadded_up": "atotal_or_nothing",
        "add_chunks": "plus_chunk",
    },
    since="2026-12-02",
    removal="2027-03-01",
)
