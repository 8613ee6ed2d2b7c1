"""Which steps go from which value type to which: the tables random chains are drawn from.

>>> [f.__name__ for f in FUNCTIONS[(str, int)]]
['length', 'count_a']
>>> route(tuple[int, str], list[int])
(tuple[int, str], <class 'int'>, list[int])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Final

from combinators import Runnable, RunnableGenerator, RunnableLambda, RunnablePick
from combinators.testing import steps as s
from combinators.testing.steps import VALUE_TYPES, Record

Pair = tuple[object, object]

FUNCTIONS: Final[Mapping[Pair, tuple[Callable[[Any], Any], ...]]] = {
    (int, int): (s.inc, s.double, s.negate, s.square_mod, s.halve),
    (int, str): (s.show,),
    (int, list[int]): (s.digits,),
    (int, Record): (s.as_record,),
    (int, tuple[int, str]): (s.with_text,),
    (str, str): (s.shout, s.reverse_all),
    (str, int): (s.length, s.count_a),
    (str, list[int]): (s.codes,),
    (str, Record): (s.measure,),
    (str, tuple[int, str]): (s.tally,),
    (list[int], list[int]): (s.ascending,),
    (list[int], int): (s.total, s.count),
    (list[int], str): (s.show_ints,),
    (list[int], Record): (s.summary,),
    (Record, int): (s.add_parts,),
    (Record, str): (s.describe,),
    (Record, list[int]): (s.parts,),
    (Record, Record): (s.swap_parts,),
    (tuple[int, str], int): (s.first,),
    (tuple[int, str], str): (s.second, s.repeat),
    (tuple[int, str], tuple[int, str]): (s.bump,),
}
"""Plain functions by (input type, output type): what ``.map(f)`` and lambdas use."""


def _leaves() -> dict[Pair, tuple[Runnable[Any, object], ...]]:
    table: dict[Pair, list[Runnable[Any, object]]] = {
        pair: [RunnableLambda(f) for f in functions] for pair, functions in FUNCTIONS.items()
    }
    # Streaming steps: generator lambdas stream their yields, stream transforms
    # (RunnableGenerator) see the input chunks as they come.
    table[(int, list[int])].append(RunnableLambda(s.spread))
    table[(str, str)].extend(
        [
            RunnableLambda(s.words),
            RunnableGenerator(s.split_chars),
            RunnableGenerator(s.upper_chunks),
            RunnableGenerator(s.swap_ab),
        ]
    )
    table[(list[int], list[int])].append(RunnableGenerator(s.negate_chunks))
    table[(Record, int)].extend([RunnablePick("a"), RunnablePick("b")])
    # RunnablePick(["a", "b"]) belongs in (Record, Record) too, but while streaming it
    # yields plain dicts that do not add up (reported); add it once that is fixed.
    return {pair: tuple(leaves) for pair, leaves in table.items()}


LEAVES: Final[Mapping[Pair, tuple[Runnable[Any, object], ...]]] = _leaves()
"""One-step runnables by (input type, output type)."""

CONDITIONS: Final[Mapping[object, Callable[[Any], bool]]] = {
    int: s.is_even,
    str: s.is_short,
    list[int]: s.is_empty,
    Record: s.a_is_even,
    tuple[int, str]: s.first_is_even,
}
"""A branch condition for each value type."""


def _routes() -> dict[Pair, tuple[object, ...]]:
    found: dict[Pair, tuple[object, ...]] = {}
    for start in VALUE_TYPES:
        paths: dict[object, tuple[object, ...]] = {start: (start,)}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in VALUE_TYPES:
                if there not in paths and (here, there) in LEAVES:
                    paths[there] = (*paths[here], there)
                    queue.append(there)
        for end, path in paths.items():
            found[(start, end)] = path
    return found


_ROUTES: Final = _routes()


def route(start: object, end: object) -> tuple[object, ...]:
    """The shortest chain of value types from ``start`` to ``end`` through one-step leaves."""
    return _ROUTES[(start, end)]


def check_value_type(tp: object, role: str) -> None:
    """Refuse types random chains cannot be built for, naming the ones they can.

    >>> check_value_type(float, "input_type")
    Traceback (most recent call last):
    ...
    ValueError: runnables() builds chains over int, str, list[int], Record, tuple[int, str]; input_type float is not one of them
    """
    if tp not in VALUE_TYPES:
        known = ", ".join(s.type_name(t) for t in VALUE_TYPES)
        raise ValueError(f"runnables() builds chains over {known}; {role} {s.type_name(tp)} is not one of them")
