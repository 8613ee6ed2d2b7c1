"""map and bind (the reader nodes RunnableBind/RunnablePure)."""

from __future__ import annotations

from combinators import RunnableLambda, pure


def inc(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


def test_map_and_bind() -> None:
    r = RunnableLambda(inc)
    assert r.map(double).invoke(1) == 4
    chosen = r.bind(lambda y: pure(y * 10) if y > 1 else RunnableLambda(lambda x: -x))
    assert chosen.invoke(5) == 60
    assert chosen.invoke(0) == 0


def test_bind_declares_its_first_runnables_input() -> None:
    def size(text: str) -> int:
        return len(text)

    bound = RunnableLambda(size).bind(lambda n: pure(n))
    assert bound.declared_type("input") is str
    assert bound.input_schema()["type"] == "string"
