"""The named steps random chains are built from: small pure functions over five value types.

Every function is a module-level, annotated, deterministic function, so a chain built
from them pickles, compares equal to a rebuilt one, and its ``repr`` reads like the
expression that built it (``RunnableLambda(inc) | RunnableLambda(show)``).

>>> inc(1), show(12), digits(-305), measure("a b"), first((3, "x"))
(2, '12', [3, 0, 5], {'a': 3, 'b': 1}, 3)
>>> fail_on_odd_size(10)
10
>>> fail_on_odd_size(7)
Traceback (most recent call last):
...
combinators.testing.steps.ScriptedFailure: scripted failure on 7 (its str has odd length)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, TypedDict, TypeVar

T = TypeVar("T")


class Record(TypedDict):
    """The dict value type of generated chains: what a two-branch ``RunnableParallel`` gives.

    >>> Record(a=1, b=2)
    {'a': 1, 'b': 2}
    """

    a: int
    b: int


VALUE_TYPES: Final[tuple[object, ...]] = (int, str, list[int], Record, tuple[int, str])
"""The types random chains flow between (``runnables(input_type, output_type)``)."""


def type_name(tp: object) -> str:
    """How a value type reads in messages.

    >>> type_name(list[int]), type_name(Record)
    ('list[int]', 'Record')
    """
    return tp.__name__ if isinstance(tp, type) else repr(tp)


class ScriptedFailure(Exception):
    """The error that scripted failures raise (``Flaky``, ``fail_on_odd_size``, fake scripts).

    >>> raise ScriptedFailure("rate limited")
    Traceback (most recent call last):
    ...
    combinators.testing.steps.ScriptedFailure: rate limited
    """


# ----------------------------------------------------------------------------- int -> ...


def inc(x: int) -> int:
    """``x + 1``."""
    return x + 1


def double(x: int) -> int:
    """``x * 2``."""
    return x * 2


def negate(x: int) -> int:
    """``-x``."""
    return -x


def square_mod(x: int) -> int:
    """``x * x`` modulo a prime (keeps values small)."""
    return (x * x) % 1009


def halve(x: int) -> int:
    """``x // 2``."""
    return x // 2


def show(x: int) -> str:
    """``str(x)``."""
    return str(x)


def digits(x: int) -> list[int]:
    """The decimal digits of ``abs(x)``."""
    return [int(d) for d in str(abs(x))]


def spread(x: int) -> Iterator[list[int]]:
    """A generator step: streams ``[x]`` then ``[x // 2]`` (they add up to a list)."""
    yield [x]
    yield [x // 2]


def as_record(x: int) -> Record:
    """``{"a": x, "b": x % 7}``."""
    return {"a": x, "b": x % 7}


def with_text(x: int) -> tuple[int, str]:
    """``(x, str(x))``."""
    return (x, str(x))


# ----------------------------------------------------------------------------- str -> ...


def shout(text: str) -> str:
    """``text.upper()``."""
    return text.upper()


def reverse_all(text: str) -> str:
    """The text reversed (needs the whole input: it does not stream)."""
    return text[::-1]


def words(text: str) -> Iterator[str]:
    """A generator step: each space-separated word followed by a space."""
    for word in text.split(" "):
        yield word + " "


def split_chars(chunks: Iterator[str]) -> Iterator[str]:
    """A stream transform: every character of every chunk, one by one."""
    for chunk in chunks:
        yield from chunk


def upper_chunks(chunks: Iterator[str]) -> Iterator[str]:
    """A stream transform: each chunk upper-cased as it arrives."""
    for chunk in chunks:
        yield chunk.upper()


_SWAP: Final = str.maketrans("ab", "ba")


def swap_ab(chunks: Iterator[str]) -> Iterator[str]:
    """A stream transform: swaps ``a`` and ``b`` (character-wise, so chunking does not matter)."""
    for chunk in chunks:
        yield chunk.translate(_SWAP)


def length(text: str) -> int:
    """``len(text)``."""
    return len(text)


def count_a(text: str) -> int:
    """How many ``a`` the text has."""
    return text.count("a")


def codes(text: str) -> list[int]:
    """Each character's code point modulo 32."""
    return [ord(c) % 32 for c in text]


def measure(text: str) -> Record:
    """``{"a": len(text), "b": text.count(" ")}``."""
    return {"a": len(text), "b": text.count(" ")}


def tally(text: str) -> tuple[int, str]:
    """``(len(text), text)``."""
    return (len(text), text)


# ----------------------------------------------------------------------------- list[int] -> ...


def ascending(values: list[int]) -> list[int]:
    """The values sorted."""
    return sorted(values)


def negate_chunks(chunks: Iterator[list[int]]) -> Iterator[list[int]]:
    """A stream transform: every element of every chunk negated."""
    for chunk in chunks:
        yield [-v for v in chunk]


def total(values: list[int]) -> int:
    """``sum(values)``."""
    return sum(values)


def count(values: list[int]) -> int:
    """``len(values)``."""
    return len(values)


def show_ints(values: list[int]) -> str:
    """``str(values)`` (never empty)."""
    return str(values)


def summary(values: list[int]) -> Record:
    """``{"a": first value or 0, "b": len(values)}``."""
    return {"a": values[0] if values else 0, "b": len(values)}


# ----------------------------------------------------------------------------- Record -> ...


def add_parts(record: Record) -> int:
    """``record["a"] + record["b"]``."""
    return int(record["a"]) + int(record["b"])


def describe(record: Record) -> str:
    """``"a=1 b=2"``."""
    return f"a={record['a']} b={record['b']}"


def parts(record: Record) -> list[int]:
    """``[record["a"], record["b"]]``."""
    return [record["a"], record["b"]]


def swap_parts(record: Record) -> Record:
    """``a`` and ``b`` exchanged (other keys dropped)."""
    return {"a": record["b"], "b": record["a"]}


# ----------------------------------------------------------------------------- tuple[int, str] -> ...


def first(pair: tuple[int, str]) -> int:
    """``pair[0]``."""
    return pair[0]


def second(pair: tuple[int, str]) -> str:
    """``pair[1]``."""
    return pair[1]


def repeat(pair: tuple[int, str]) -> str:
    """The text repeated ``abs(n) % 3 + 1`` times."""
    return pair[1] * (abs(pair[0]) % 3 + 1)


def bump(pair: tuple[int, str]) -> tuple[int, str]:
    """``(n + 1, text)``."""
    return (pair[0] + 1, pair[1])


# ----------------------------------------------------------------------------- conditions


def is_even(x: int) -> bool:
    """``x % 2 == 0``."""
    return x % 2 == 0


def is_short(text: str) -> bool:
    """Shorter than 4 characters."""
    return len(text) < 4


def is_empty(values: list[int]) -> bool:
    """No values."""
    return not values


def a_is_even(record: Record) -> bool:
    """``record["a"]`` is even."""
    return record["a"] % 2 == 0


def first_is_even(pair: tuple[int, str]) -> bool:
    """``pair[0]`` is even."""
    return pair[0] % 2 == 0


# ----------------------------------------------------------------------------- any type


def fail_on_odd_size(value: T) -> T:
    """Passes ``value`` on, or raises ``ScriptedFailure`` when ``str(value)`` has odd length.

    Deterministic, so a chain that uses it fails for the same inputs every time.
    """
    if len(str(value)) % 2:
        raise ScriptedFailure(f"scripted failure on {value!r} (its str has odd length)")
    return value


def identity(value: T) -> T:
    """The value itself."""
    return value


def singleton_list(value: object) -> list[object]:
    """``[value]``."""
    return [value]


def pair_with_self(value: T) -> tuple[T, T]:
    """``(value, value)``."""
    return (value, value)


def boxed(value: object) -> dict[str, object]:
    """``{"value": value}``."""
    return {"value": value}


def kind_of(value: object) -> str:
    """The name of the value's type."""
    return type(value).__name__


GENERIC_FUNCTIONS: Final = (identity, singleton_list, pair_with_self, boxed, kind_of, repr)
"""Functions that take a value of any type: what the algebraic laws compose with."""
