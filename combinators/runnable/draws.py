"""``InputDraw``: what a runnable's ``input_draw()`` hook answers, the inputs a property test
draws for it, said without hypothesis (``combinators.testing.inputs_for`` turns the answer
into a strategy).

A leaf says what its inputs are: ``DrawValues(tp)`` values of a type, ``DrawText()``
short natural-language texts (a retriever's query), ``DrawVariables(names)`` a dict of a
text per name (a prompt's variables). A node built on others points at them:
``DrawThrough(steps)`` draws what the first of its steps that does not pass its input on
draws (a sequence; a wrapper names its one inner runnable), ``DrawFirstKnown(parts)``
what the first part that knows draws (a parallel's branches, fallbacks, a branch's
conditions and arms), ``DrawListOf(part)`` lists of what its part draws (``each``).
``DrawFromNext()`` gives what it takes, so the steps after it decide (a passthrough);
``DrawUnknown()`` cannot say.

This module loads only when a hook is asked (property tests do, runs never): building
its classes costs more than the rest of a node's import.

>>> from combinators import RunnableLambda, RunnablePassthrough
>>> def size(text: str) -> int:
...     return len(text)
>>> RunnableLambda(size).input_draw()
DrawValues(type=<class 'str'>)
>>> RunnablePassthrough().input_draw(), RunnableLambda(lambda x: x).input_draw()
(DrawFromNext(), DrawUnknown())
>>> (RunnablePassthrough() | size).input_draw() == DrawThrough((RunnablePassthrough(), RunnableLambda(size)))
True
"""

from __future__ import annotations

from typing import Never, TypeAlias, final

import attrs

from combinators.runnable.hooks import RunnableHooks

Part: TypeAlias = RunnableHooks[Never, object]
"""Any runnable, as a part another draws through (what it takes is not asked)."""


@final
@attrs.frozen
class DrawValues:
    """Values of ``type`` (``combinators.testing.values_of``): scalars, lists, TypedDicts, ..."""

    type: object


@final
@attrs.frozen
class DrawText:
    """Short natural-language texts (``combinators.testing.plain_values.sentences``)."""


@final
@attrs.frozen
class DrawVariables:
    """A dict of a short text for each name (a prompt's variables)."""

    names: tuple[str, ...]


@final
@attrs.frozen
class DrawThrough:
    """What the first of ``steps`` that does not pass its input on draws (``DrawFromNext()``
    when each does): a sequence's steps, a wrapper's one inner runnable."""

    steps: tuple[Part, ...]


@final
@attrs.frozen
class DrawFirstKnown:
    """What the first of ``parts`` that knows draws (``DrawUnknown()`` when none does): a
    parallel's branches, fallbacks, a branch's conditions, arms and default."""

    parts: tuple[Part, ...]


@final
@attrs.frozen
class DrawListOf:
    """Lists of what ``part`` draws (``DrawUnknown()`` when it cannot say)."""

    part: Part


@final
@attrs.frozen
class DrawFromNext:
    """It gives what it takes: the steps after it decide (a passthrough, ``(x: T) -> T``)."""


@final
@attrs.frozen
class DrawUnknown:
    """It cannot say what it takes (a lambda without hints)."""


InputDraw: TypeAlias = (
    DrawValues | DrawText | DrawVariables | DrawThrough | DrawFirstKnown | DrawListOf | DrawFromNext | DrawUnknown
)
"""What ``input_draw()`` answers: one of the descriptions above."""
