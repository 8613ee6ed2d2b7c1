"""RunnableBranch: the first true condition's runnable, in order; the peer's refusals."""

from __future__ import annotations

from typing import Any

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


def _positive(x: int) -> bool:
    return x > 0


def _to_text(x: int) -> str:
    return str(x)


def _from_float(x: float) -> float:
    return -x


def test_branch_input_is_the_first_declared_of_default_targets_conditions() -> None:
    # As langchain-core 1.8.3: the default asked first, then the targets, then the conditions.
    typed_default = RunnableBranch((_positive, _to_text), RunnableLambda(_from_float))
    assert typed_default.declared_type("input") is float
    assert typed_default.input_schema() == {"title": "RunnableBranchInput", "type": "number"}
    untyped_default = RunnableBranch((_positive, _to_text), RunnableLambda(lambda x: x))
    assert untyped_default.declared_type("input") is int
    only_condition = RunnableBranch((_positive, lambda x: x), lambda x: x)
    assert only_condition.declared_type("input") is int


def test_branch_output_is_the_union_of_what_its_arms_give_when_each_says() -> None:
    # The peer says nothing (Any); every arm declaring its output is a precise union.
    union = RunnableBranch((_positive, _to_text), RunnableLambda(_from_float))
    assert union.declared_type("output") == str | float
    assert union.output_schema() == {
        "title": "RunnableBranchOutput",
        "anyOf": [{"type": "string"}, {"type": "number"}],
    }
    same = RunnableBranch((_positive, _to_text), _to_text)
    assert same.declared_type("output") is str
    partly = RunnableBranch((_positive, _to_text), lambda x: x)
    assert partly.declared_type("output") is Any
