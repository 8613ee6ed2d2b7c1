"""Make Hypothesis print runnables by their ``repr`` (the expression that builds them).

Hypothesis prints an attrs value field by field unless it has a ``_repr_pretty_``
method or a registered printer, so a falsifying chain would read
``RunnableSequence(parts=(RunnableLambda(func=<function inc ...>, ...``. Registering
``repr`` for every runnable class defined so far keeps it
``RunnableLambda(inc) | RunnableLambda(show)``; the strategies and ``check_laws``
register again when called, to cover classes imported since. (A ``_repr_pretty_``
on ``RunnableCore`` would cover every class, whenever it is defined.)

>>> from hypothesis.vendor.pretty import pretty
>>> from combinators import RunnableLambda
>>> from combinators.testing.steps import inc, show
>>> register_runnable_printers()
>>> pretty(RunnableLambda(inc) | RunnableLambda(show))
'RunnableLambda(inc) | RunnableLambda(show)'
"""

from __future__ import annotations

from typing import Any

from hypothesis.vendor.pretty import RepresentationPrinter, for_type_by_name

from combinators import Runnable


def _print_repr(value: Any, printer: RepresentationPrinter, cycle: bool) -> None:
    printer.text(repr(value))


def _subclasses(cls: type[Any]) -> list[type[Any]]:
    found: list[type[Any]] = []
    stack = [cls]
    while stack:
        here = stack.pop()
        for sub in here.__subclasses__():
            if sub not in found:
                found.append(sub)
                stack.append(sub)
    return found


def register_runnable_printers() -> None:
    """Register ``repr`` as Hypothesis' printer of every ``Runnable`` class defined so far."""
    for cls in _subclasses(Runnable):
        for_type_by_name(cls.__module__, cls.__qualname__, _print_repr)
