"""``RunnableBinding``: bound keywords and config merged under the caller's, the caller winning."""

from __future__ import annotations

from combinators import RunConfig, RunnableLambda
from combinators.nodes.binding import RunnableBinding


def scale(x: int, *, by: int = 1) -> int:
    return x * by


def test_bind_of_keywords_binds_them_to_every_call_as_with_kwargs_does() -> None:
    bound = RunnableLambda(scale).bind(by=3)
    assert isinstance(bound, RunnableBinding)
    assert bound == RunnableLambda(scale).with_kwargs(by=3)
    assert bound.invoke(2) == 6
    assert bound.batch([1, 2]) == [3, 6]
    assert list(bound.stream(4)) == [12]


def test_the_callers_keywords_win_over_bound_ones() -> None:
    assert RunnableLambda(scale).bind(by=3).invoke(2, by=5) == 10


def test_with_config_merges_tags_and_metadata() -> None:
    seen: list[RunConfig] = []

    def probe(x: int, config: RunConfig) -> int:
        seen.append(config)
        return x

    bound = RunnableLambda(probe).with_config(tags=["b"], metadata={"k": "bound", "j": 1})
    bound.invoke(1, {"tags": ["a"], "metadata": {"k": "call"}})
    assert seen[0].tags == ("a", "b")
    assert dict(seen[0].metadata) == {"k": "call", "j": 1}
