"""The project's own laws, checked on random chains with the shipped strategies and laws."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combinators import Runnable
from combinators.testing import ALGEBRAIC_LAWS, RUNTIME_LAWS, Law, inputs_for, runnables

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_law(law: Law, chain: Runnable[Any, Any], data: st.DataObject) -> None:
    example = data.draw(law.examples(inputs_for(chain)), label=law.key)
    why = law.violation(chain, example)
    assert why is None, f"{law.key}: {why}"


@pytest.mark.parametrize("law", RUNTIME_LAWS, ids=lambda law: law.key)
def test_random_chains_keep_the_runtime_laws(law: Law) -> None:
    @SETTINGS
    @given(runnables(max_leaves=8, failures=False), st.data())
    def check(chain: Runnable[Any, Any], data: st.DataObject) -> None:
        assert_law(law, chain, data)

    check()


@pytest.mark.parametrize("law", ALGEBRAIC_LAWS, ids=lambda law: law.key)
def test_random_chains_keep_the_algebraic_laws(law: Law) -> None:
    @settings(max_examples=20, deadline=None)
    @given(runnables(max_leaves=6, failures=False), st.data())
    def check(chain: Runnable[Any, Any], data: st.DataObject) -> None:
        assert_law(law, chain, data)

    check()


@pytest.mark.parametrize(
    "law",
    [law for law in RUNTIME_LAWS],
    ids=lambda law: law.key,
)
def test_random_chains_with_scripted_failures_keep_the_runtime_laws(law: Law) -> None:
    @SETTINGS
    @given(runnables(max_leaves=8, failures=True), st.data())
    def check(chain: Runnable[Any, Any], data: st.DataObject) -> None:
        assert_law(law, chain, data)

    check()
