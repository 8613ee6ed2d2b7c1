"""The public API for node and component authors: what a step may use from the runtime.

A step runs its children through the ``Scope`` it is given, closes the async streams it
opens with ``closing``, and adds a stream's chunks up with ``added_up``/``aadded_up``
(``NOTHING`` when there was no chunk); ``run_indexed`` runs sync work items at once on
the shared pool (the caller's thread takes part), ``gather_structured`` awaits coroutines
under a task group (the first failure cancels the others and is raised itself). A run
named before it starts (a served chain's root) takes its id from ``new_run_id``.
Everything else in the runtime is private
(``effects._runtime``).

>>> from effects.authoring import NOTHING, added_up
>>> added_up(["a", "b"]), added_up([]) is NOTHING
('ab', True)
"""

from effects._runtime.closing import closing as closing
from effects._runtime.run_ids import new_run_id as new_run_id
from effects._runtime.scope import Scope as Scope
from effects.values import NOTHING as NOTHING
from effects._runtime.total import aadded_up as aadded_up
from effects._runtime.total import added_up as added_up
from effects._runtime.thread_pool import run_indexed as run_indexed
from effects._runtime.calls import gather_structured as gather_structured
from effects.step import Step as Step
from effects.step import StepBinding as StepBinding

__all__ = [
    "NOTHING", "Scope", "Step", "StepBinding", "aadded_up", "added_up", "closing", "gather_structured",
    "new_run_id", "run_indexed",
]  # fmt: skip
