"""The public API for node and component authors: what a step may use from the runtime.

A step runs its children through the ``Scope`` it is given, closes the async streams it
opens with ``closing``, and adds a stream's chunks up with ``added_up``/``aadded_up``
(``NOTHING`` when there was no chunk); a stream transform that needs its whole input
first streams what it makes of the total with ``run_on_total``/``arun_on_total``. It
guards the typed inputs it gets from untyped callers with ``checked``/``is_a``/
``is_list_of`` (and reads data of unknown shape with ``is_mapping``/``is_list_or_tuple``);
``run_indexed`` runs sync work items at once on the shared pool (the caller's thread
takes part), ``gather_structured`` awaits coroutines under a task group (the first
failure cancels the others and is raised itself). A run named before it starts (a served
chain's root) takes its id from ``new_run_id``. Everything else in the runtime is private
(``effects._runtime``).

>>> from effects.authoring import NOTHING, added_up, run_on_total
>>> added_up(["a", "b"]), added_up([]) is NOTHING
('ab', True)
>>> list(run_on_total(iter(["a", "b"]), lambda total: iter([total, total])))
['ab', 'ab']
"""

from effects._runtime.closing import closing as closing
from effects._runtime.run_ids import new_run_id as new_run_id
from effects._runtime.scope import Scope as Scope
from effects.values import NOTHING as NOTHING
from effects._runtime.total import aadded_up as aadded_up
from effects._runtime.total import added_up as added_up
from effects._runtime.total import arun_on_total as arun_on_total
from effects._runtime.total import run_on_total as run_on_total
from effects._runtime.thread_pool import run_indexed as run_indexed
from effects._runtime.calls import gather_structured as gather_structured
from effects.guards import checked as checked
from effects.guards import is_a as is_a
from effects.guards import is_dict as is_dict
from effects.guards import is_list as is_list
from effects.guards import is_list_of as is_list_of
from effects.guards import is_list_or_tuple as is_list_or_tuple
from effects.guards import is_mapping as is_mapping
from effects.guards import is_str_mapping as is_str_mapping
from effects.step import Step as Step
from effects.step import StepBinding as StepBinding

__all__ = [
    "NOTHING", "Scope", "Step", "StepBinding", "aadded_up", "added_up", "arun_on_total", "checked", "closing",
    "gather_structured", "is_a", "is_dict", "is_list", "is_list_of", "is_list_or_tuple", "is_mapping",
    "is_str_mapping", "new_run_id", "run_indexed", "run_on_total",
]  # fmt: skip
