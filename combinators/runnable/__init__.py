"""``Runnable[In, Out]``: one class over one level of sibling bases.

``composing`` defines ``Runnable`` and its pure combinators; its bases are ``calls``
(``RunnableCalls``: invoke, stream, batch, events, logs, bind; generated from ``call_spec``
by ``_generate``, as are the ``SyncIn`` mirrors in ``sync_calls``), ``wrapping``
(``RunnableWrappers``: the wrappers that keep ``[In, Out]``) and ``hooks``
(``RunnableHooks``: the author surface; ``draws`` holds what its ``input_draw`` hook
answers, loaded when asked). ``fluent`` holds the late imports that let the combinators
build nodes.

>>> from combinators.runnable import Runnable
>>> [base.__name__ for base in Runnable.__bases__]
['RunnableCalls', 'RunnableWrappers', 'RunnableHooks']
"""

from combinators.runnable.composing import Runnable as Runnable

__all__ = ["Runnable"]
