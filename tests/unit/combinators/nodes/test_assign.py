"""RunnablePassthrough.assign: keys added to a dict input."""

from __future__ import annotations

import pytest

from combinators import InputError, RunnablePassthrough


def test_assign_adds_keys_and_rejects_non_dict_input() -> None:
    assign = RunnablePassthrough.assign(n=lambda d: len(d["s"]))
    assert assign.invoke({"s": "abc"}) == {"s": "abc", "n": 3}
    assert assign.name == "RunnableAssign<n>"
    with pytest.raises(InputError, match="RunnableAssign<n> expects a dict input, got int"):
        assign.invoke(3)  # type: ignore[arg-type]
    streamed = list(assign.stream({"s": "abc", "n": 0}))
    assert streamed[0] == {"s": "abc"}  # the mapper's key is held back
    assert streamed[-1] == {"n": 3}


def test_assign_output_schema_has_the_mappers_keys() -> None:
    # As langchain-core 1.8.3 for a typed mapper: the assigned keys' schemas; the input's
    # keys pass through besides (no closed object).
    def f(x: int) -> str:
        return str(x)

    assigned = RunnablePassthrough.assign(y=f)
    assert assigned.input_schema() == {"title": "RunnableAssign<y>Input", "type": "object"}
    assert assigned.output_schema() == {
        "title": "RunnableAssign<y>Output",
        "type": "object",
        "properties": {"y": {"type": "string", "title": "Y"}},
        "required": ["y"],
    }
