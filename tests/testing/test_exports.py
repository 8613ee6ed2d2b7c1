"""The shipped module's surface: exports, final values, the error without hypothesis."""

from __future__ import annotations

import importlib
import inspect
import pickle
import sys
from typing import Any

import attrs
import cloudpickle  # type: ignore[import-untyped]
import pytest

import combinators.testing as testing
from combinators import RunnableLambda
from combinators.testing import Flaky, Switch, steps


def test_all_equals_the_public_names() -> None:
    public = {
        name
        for name, value in vars(testing).items()
        if not name.startswith("_") and not inspect.ismodule(value) and name != "annotations"
    }
    assert set(testing.__all__) == public
    assert len(set(testing.__all__)) == len(testing.__all__)


@pytest.mark.parametrize(
    "cls",
    [
        getattr(testing, n)
        for n in testing.__all__
        if inspect.isclass(getattr(testing, n)) and attrs.has(getattr(testing, n))
    ],
    ids=lambda c: c.__name__,
)
def test_every_exported_value_class_is_final_and_frozen(cls: type[Any]) -> None:
    assert getattr(cls, "__final__", False), f"{cls.__name__} must be @final"
    assert getattr(cls, "__setattr__") is not getattr(object, "__setattr__"), f"{cls.__name__} must be frozen"


def test_importing_without_hypothesis_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "combinators.testing" or n.startswith("combinators.testing.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # makes `import hypothesis` fail
    with pytest.raises(
        ImportError, match=r"combinators.testing needs hypothesis: pip install 'lcel-combinators\[testing\]'"
    ):
        importlib.import_module("combinators.testing")
    # monkeypatch puts the real modules back, so later tests see the same classes.


def test_test_nodes_survive_pickling_and_compare_by_value() -> None:
    flaky = Flaky(RunnableLambda(steps.inc), failures=2)
    switch = Switch(RunnableLambda(steps.inc), RunnableLambda(steps.double))
    with pytest.raises(steps.ScriptedFailure):
        flaky.invoke(1)
    for dumps in (pickle.dumps, cloudpickle.dumps):
        copy = pickle.loads(dumps(flaky))
        assert copy == flaky and hash(copy) == hash(flaky)
        assert copy.counter.calls == 1  # the script's position travels with it
        assert pickle.loads(dumps(switch)) == switch
    assert Flaky(RunnableLambda(steps.inc), failures=2) == flaky  # the count is state, not value


@pytest.mark.parametrize("name", testing.__all__)
def test_every_public_callable_has_an_example(name: str) -> None:
    value = getattr(testing, name)
    if callable(value):
        assert ">>>" in (inspect.getdoc(value) or ""), f"{name} needs a >>> example"
