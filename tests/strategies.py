"""Hypothesis strategies for well-typed random chains (shared by the property tests).

Int chains: ``Runnable[int, int]`` built from small pure functions with the core
nodes (sequence, parallel map, branch, map, bind, retry, fallbacks, passthrough).
Text chains: ``Runnable[str, str]`` whose steps stream (generators), so that
adding up ``stream`` can be compared with ``invoke``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import strategies as st

from combinators import (
    Runnable,
    RunnableBranch,
    RunnableGenerator,
    RunnableLambda,
    RunnableParallel,
    RunnablePassthrough,
    pure,
)


def inc(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


def negate(x: int) -> int:
    return -x


def square_mod(x: int) -> int:
    return (x * x) % 1009


def halve(x: int) -> int:
    return x // 2


INT_FUNCTIONS: tuple[Callable[[int], int], ...] = (inc, double, negate, square_mod, halve)


def add_parts(d: dict[str, Any]) -> int:
    return int(d["a"]) + int(d["b"])


def is_even(x: int) -> bool:
    return x % 2 == 0


def _never_fails_twice() -> Callable[[int], int]:
    return inc


@st.composite
def int_functions(draw: st.DrawFn) -> Callable[[int], int]:
    return draw(st.sampled_from(INT_FUNCTIONS))


def int_leaves() -> st.SearchStrategy[Runnable[int, int]]:
    return st.one_of(
        int_functions().map(RunnableLambda),
        st.just(RunnablePassthrough[int]()),
    )


def _extend(children: st.SearchStrategy[Runnable[int, int]]) -> st.SearchStrategy[Runnable[int, int]]:
    return st.one_of(
        st.tuples(children, children).map(lambda p: p[0] | p[1]),
        st.tuples(children, children).map(
            lambda p: RunnableParallel(a=p[0], b=p[1]) | RunnableLambda(add_parts)
        ),
        st.tuples(children, children).map(
            lambda p: RunnableBranch((RunnableLambda(is_even), p[0]), p[1])
        ),
        st.tuples(children, int_functions()).map(lambda p: p[0].map(p[1])),
        st.tuples(children, children).map(lambda p: p[0].bind(_constant_then(p[1]))),
        children.map(lambda r: r.with_retry(stop_after_attempt=2, wait_exponential_jitter=False)),
        st.tuples(children, children).map(lambda p: p[0].with_fallbacks([p[1]])),
        children.map(lambda r: r.with_config(tags=["generated"])),
    )


def _constant_then(next_step: Runnable[int, int]) -> Callable[[int], Runnable[int, int]]:
    def choose(value: int) -> Runnable[int, int]:
        return next_step if value % 3 else next_step.map(inc)

    choose.__name__ = f"choose_{next_step.name}"
    return choose


def int_chains(max_leaves: int = 8) -> st.SearchStrategy[Runnable[int, int]]:
    """Random ``Runnable[int, int]`` chains of the core nodes."""
    return st.recursive(int_leaves(), _extend, max_leaves=max_leaves)


ints = st.integers(min_value=-1000, max_value=1000)


# ----------------------------------------------------------------------- text streams


def split_chars(chunks: Iterator[str]) -> Iterator[str]:
    for chunk in chunks:
        yield from chunk


def upper_chunks(chunks: Iterator[str]) -> Iterator[str]:
    for chunk in chunks:
        yield chunk.upper()


def swap_ab(chunks: Iterator[str]) -> Iterator[str]:
    # Char-wise, so it commutes with concatenation (the law needs chunks that add).
    for chunk in chunks:
        yield chunk.translate(_SWAP)


_SWAP = str.maketrans("ab", "ba")


def reverse_all(text: str) -> str:
    return text[::-1]


def words(text: str) -> Iterator[str]:
    for word in text.split(" "):
        yield word + " "


TEXT_STEPS: tuple[Runnable[str, str], ...] = (
    RunnableGenerator(split_chars),
    RunnableGenerator(upper_chunks),
    RunnableGenerator(swap_ab),
    RunnableLambda(reverse_all),
    RunnableLambda(words),
    RunnablePassthrough[str](),
)


def text_chains() -> st.SearchStrategy[Runnable[str, str]]:
    """Streaming ``Runnable[str, str]`` chains whose chunks add up (str ``+``)."""
    steps = st.lists(st.sampled_from(TEXT_STEPS), min_size=1, max_size=5)

    def build(chosen: list[Runnable[str, str]]) -> Runnable[str, str]:
        chain = chosen[0]
        for step in chosen[1:]:
            chain = chain | step
        return chain

    return steps.map(build)


texts = st.text(alphabet="ab c", min_size=1, max_size=12)

_unused = (pure, _never_fails_twice)
