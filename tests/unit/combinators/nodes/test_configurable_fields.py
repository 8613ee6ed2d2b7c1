"""``RunnableConfigurableFields``: a call's values rebuild the runnable, derived fields included."""

from __future__ import annotations

import pytest

from combinators import ConfigurableError, ConfigurableField, pure
from combinators.language_models import FakeListChatModel


def test_a_configured_field_takes_effect_and_its_derived_cursor_is_rebuilt() -> None:
    model = FakeListChatModel(["a", "b"]).configurable_fields(responses=ConfigurableField(id="replies"))
    chosen = {"configurable": {"replies": ["x", "y"]}}
    assert [model.invoke("?", chosen).text for _ in range(3)] == ["x", "x", "x"]  # a fresh cursor per call
    assert [model.invoke("?").text for _ in range(3)] == ["a", "b", "a"]  # the default keeps its own
    assert model.batch(["1", "2"], chosen)[0].text == "x"
    assert "".join(c.text for c in model.stream("?", chosen)) == "x"


def test_wrong_field_names_fail_when_building() -> None:
    with pytest.raises(ConfigurableError, match=r"FakeListChatModel has no field 'respones'.*'responses'"):
        FakeListChatModel(["a"]).configurable_fields(respones=ConfigurableField(id="r"))
    with pytest.raises(ConfigurableError, match="is the default's key and an alternative's"):
        pure(1).configurable_alternatives(ConfigurableField(id="k"), default_key="a", a=pure(2))


def test_configurable_fields_declare_the_bound_runnables_types() -> None:
    from combinators import RunnablePick

    picked = RunnablePick(["a"]).configurable_fields(keys=ConfigurableField(id="keys"))
    assert picked.input_schema() == {"title": "RunnablePick<a>Input", "type": "object"}
    assert picked.declared_type("input") == RunnablePick(["a"]).declared_type("input")
