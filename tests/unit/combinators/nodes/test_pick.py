"""RunnablePick: the peer's pick semantics."""

from __future__ import annotations

import pytest

from combinators import InputError, RunnablePick


def test_pick_semantics() -> None:
    data = {"a": 1, "b": 2}
    assert RunnablePick("a").invoke(data) == 1
    assert RunnablePick("z").invoke(data) is None
    assert RunnablePick(["a", "z"]).invoke(data) == {"a": 1}
    assert RunnablePick(["z"]).invoke(data) is None
    with pytest.raises(InputError, match="RunnablePick<a> expects a dict input, got list"):
        RunnablePick("a").invoke([1])  # type: ignore[arg-type]
    chunks = [{"a": 1}, {"b": 2}, {"a": 3}]
    assert list(RunnablePick("a").transform(chunks)) == [1, 3]
