"""RunnablePassthrough: the input unchanged, and a side effect on it."""

from __future__ import annotations

from collections.abc import Iterator

from combinators import RunnableGenerator, RunnablePassthrough


def test_passthrough_and_side_effect() -> None:
    seen: list[object] = []
    p = RunnablePassthrough(seen.append)
    assert p.invoke(5) == 5
    assert list(p.stream("ab")) == ["ab"]
    assert seen == [5, "ab"]

    def words(it: Iterator[str]) -> Iterator[str]:
        yield from ("a", "b", "c")

    streamed = RunnableGenerator(words) | RunnablePassthrough(seen.append)
    assert list(streamed.stream("x")) == ["a", "b", "c"]
    assert seen[-1] == "abc"


def test_passthrough_declares_that_it_gives_what_it_takes() -> None:
    # One type variable for both ends (what ``inputs_for`` reads as "decided further on");
    # its schemas stay open, as the peer's.
    from typing import TypeVar

    identity = RunnablePassthrough()
    takes, gives = identity.declared_type("input"), identity.declared_type("output")
    assert isinstance(takes, TypeVar) and takes is gives
    assert identity.input_schema() == {"title": "RunnablePassthroughInput"}
    assert identity.output_schema() == {"title": "RunnablePassthroughOutput"}
