"""Hypothesis strategies shared by the property tests: the shipped ``combinators.testing`` ones.

Int chains: ``Runnable[int, int]`` of the core nodes, through every value type of
generated chains. Text chains: ``Runnable[str, str]`` whose chunks add up (str ``+``).
Neither includes scripted failures, so ``invoke`` always returns.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from combinators import Runnable
from combinators.testing import functions, runnables
from combinators.testing.steps import add_parts
from combinators.testing.plain_values import ints, texts

__all__ = ["add_parts", "int_chains", "int_functions", "ints", "text_chains", "texts"]


def int_functions() -> st.SearchStrategy[Callable[[int], int]]:
    """Named ``int -> int`` functions (``inc``, ``double``, ``negate``, ...)."""
    return functions(int, int)


def int_chains(max_leaves: int = 8) -> st.SearchStrategy[Runnable[int, int]]:
    """Random ``Runnable[int, int]`` chains without scripted failures."""
    return runnables(int, int, max_leaves=max_leaves, failures=False)


def text_chains(max_leaves: int = 5) -> st.SearchStrategy[Runnable[str, str]]:
    """Random ``Runnable[str, str]`` chains without scripted failures (str chunks add up)."""
    return runnables(str, str, max_leaves=max_leaves, failures=False)
