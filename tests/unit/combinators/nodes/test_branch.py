"""RunnableBranch: the first true condition's runnable, in order; the peer's refusals."""

from __future__ import annotations

import pytest

from combinators import RunnableBranch, RunnableLambda


def inc(x: int) -> int:
    return x + 1


def test_a_branch_of_fewer_than_two_arguments_is_refused_in_the_peers_words() -> None:
    for too_few in [((lambda x: x > 0, RunnableLambda(abs)),), (RunnableLambda(abs),)]:
        with pytest.raises(ValueError, match=r"^RunnableBranch requires at least two branches"):
            RunnableBranch(*too_few)  # type: ignore[arg-type]


def test_branch_picks_first_true_condition_in_order() -> None:
    calls: list[int] = []

    def positive(x: int) -> bool:
        calls.append(1)
        return x > 0

    def even(x: int) -> bool:
        calls.append(2)
        return x % 2 == 0

    branch = RunnableBranch(
        (positive, RunnableLambda(lambda x: "pos")),
        (even, RunnableLambda(lambda x: "even")),
        RunnableLambda(lambda x: "other"),
    )
    assert branch.invoke(4) == "pos"
    assert calls == [1]
    assert branch.invoke(-2) == "even"
    assert branch.invoke(-3) == "other"
    assert list(branch.stream(-3)) == ["other"]
    with pytest.raises(ValueError, match="one or more"):
        RunnableBranch(RunnableLambda(inc))
    with pytest.raises(TypeError, match="pairs before the default"):
        RunnableBranch(RunnableLambda(inc), RunnableLambda(inc))  # type: ignore[arg-type]
