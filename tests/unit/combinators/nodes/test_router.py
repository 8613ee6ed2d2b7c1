"""RouterRunnable: routes by key, with the routed runnable's events; an unknown key lists the keys."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Iterator

import pytest

from combinators import InputError, InputValueError, RouterRunnable, RunnableLambda


def double(x: int) -> int:
    return x * 2


def count_up(x: int) -> Iterator[int]:
    yield from range(x)


def router() -> RouterRunnable[str, int, int]:
    return RouterRunnable({"double": RunnableLambda(double), "count": RunnableLambda(count_up)})


def test_routes_by_key_in_every_mode() -> None:
    r = router()
    assert r.invoke({"key": "double", "input": 4}) == 8
    assert r.batch([{"key": "double", "input": 1}, {"key": "count", "input": 3}]) == [2, 3]
    assert list(r.stream({"key": "count", "input": 3})) == [0, 1, 2]
    assert asyncio.run(r.ainvoke({"key": "double", "input": 5})) == 10

    async def chunks() -> list[int]:
        return [c async for c in r.astream({"key": "count", "input": 2})]

    assert asyncio.run(chunks()) == [0, 1]


def test_an_unknown_key_lists_the_keys_and_other_items_still_run() -> None:
    r = router()
    with pytest.raises(
        InputValueError, match=r"RouterRunnable has no runnable for key 'triple'; its keys are: 'double', 'count'"
    ):
        r.invoke({"key": "triple", "input": 1})
    results = r.batch([{"key": "triple", "input": 1}, {"key": "double", "input": 2}], return_exceptions=True)
    assert isinstance(results[0], InputValueError) and results[1] == 4
    with pytest.raises(InputError, match="expects a dict with 'key' and 'input', got int"):
        r.invoke(3)  # type: ignore[arg-type]


def test_the_routed_runnable_runs_as_a_child_with_its_own_events() -> None:
    events = [
        (e["event"], e["name"], len(e["parent_ids"])) for e in router().stream_events({"key": "count", "input": 2})
    ]
    assert events == [
        ("on_chain_start", "RouterRunnable", 0),
        ("on_chain_start", "count_up", 1),
        ("on_chain_stream", "count_up", 1),
        ("on_chain_stream", "RouterRunnable", 0),
        ("on_chain_stream", "count_up", 1),
        ("on_chain_stream", "RouterRunnable", 0),
        ("on_chain_end", "count_up", 1),
        ("on_chain_end", "RouterRunnable", 0),
    ]


def test_a_router_is_a_value() -> None:
    assert router() == router() and hash(router()) == hash(router())
    assert repr(router()) == "RouterRunnable({'double': RunnableLambda(double), 'count': RunnableLambda(count_up)})"
    assert pickle.loads(pickle.dumps(router())) == router()
    with pytest.raises(ValueError, match="at least one"):
        RouterRunnable({})


def _to_text(x: int) -> str:
    return str(x)


def _negated(x: int) -> float:
    return -x


def test_router_input_schema_is_the_key_and_the_routed_input() -> None:
    # As langchain-core 1.8.3: an object of "key" and "input", both required; here the key is
    # one of the routes and the input the routed runnables' schema when they agree.
    router = RouterRunnable({"text": RunnableLambda(_to_text), "neg": RunnableLambda(_negated)})
    assert router.input_schema() == {
        "title": "RouterRunnableInput",
        "type": "object",
        "properties": {"key": {"type": "string", "enum": ["text", "neg"]}, "input": {"type": "integer"}},
        "required": ["key", "input"],
    }
    mixed = RouterRunnable({"text": RunnableLambda(_to_text), "any": RunnableLambda(lambda x: x)})
    assert mixed.input_schema()["properties"]["input"] == {}


def test_router_output_is_the_union_of_what_its_routes_give() -> None:
    router = RouterRunnable({"text": RunnableLambda(_to_text), "neg": RunnableLambda(_negated)})
    assert router.declared_type("output") == str | float
    assert router.output_schema() == {
        "title": "RouterRunnableOutput",
        "anyOf": [{"type": "string"}, {"type": "number"}],
    }
