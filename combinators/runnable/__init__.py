"""``Runnable[In, Out]``, one class in layers: ``calls`` (the step hooks and the calls that run
them), ``batching`` (batches), ``watching`` (effect streams, events and run logs), ``wrapping`` (the wrappers that
keep ``[In, Out]``), ``composing`` (the pure combinators); ``fluent`` holds the late imports that let the combinators build nodes.

>>> from combinators.runnable import Runnable
>>> Runnable.__module__
'combinators.runnable.composing'
"""

from combinators.runnable.composing import Runnable as Runnable

__all__ = ["Runnable"]
