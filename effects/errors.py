"""The library's errors: one root for misuse, each also the matching builtin.

>>> issubclass(StepTimeout, TimeoutError) and issubclass(StepTimeout, CombinatorsError)
True
"""

from __future__ import annotations


class CombinatorsError(Exception):
    """Root of every error this library raises about how it was used or ran."""


class StepTimeout(CombinatorsError, TimeoutError):
    """A deadline passed; the message names the runnable whose limit it was."""


class EmptyStreamError(CombinatorsError, ValueError):
    """``invoke`` of a step whose stream produced no chunk: there is no output value.

    >>> issubclass(EmptyStreamError, ValueError)
    True
    """


class InputError(CombinatorsError, TypeError):
    """A runnable got an input it cannot take; the message names it and what it expected.

    >>> from combinators import RunnablePick
    >>> RunnablePick("a").invoke([1])
    Traceback (most recent call last):
    ...
    effects.errors.InputError: RunnablePick<a> expects a dict input, got list
    """


class InputValueError(CombinatorsError, ValueError):
    """A runnable got an input value it cannot use (for example a missing key).

    >>> issubclass(InputValueError, ValueError) and issubclass(InputValueError, CombinatorsError)
    True
    """
