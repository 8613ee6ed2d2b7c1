"""Unwrapping bindings: what each layer adds on the way to the node that runs (the caller's config
and keywords over a bound one's, the outer layer's over the inner one's; every limit; the earliest
deadline)."""

from __future__ import annotations

from combinators import RunConfig, Runnable, RunnableLambda
from effects import FakeClock, use_clock
from effects._runtime.bindings import Unwrapped, unwrap
from effects.config import EMPTY_CONFIG

NOTHING_AROUND: Unwrapped = (EMPTY_CONFIG, {}, (), (), (), None)


def scale(x: int, *, by: int = 1) -> int:
    return x * by


def layered() -> Runnable[int, int]:
    inner = (
        RunnableLambda(scale)
        .with_config(tags=["in"], metadata={"k": "in", "i": 1}, max_concurrency=2, timeout=5)
        .bind(by=2)
    )
    return inner.with_config(tags=["out"], metadata={"k": "out"}, max_concurrency=4, timeout=9).bind(by=3)


def test_the_node_under_every_layer_runs_with_what_the_layers_add() -> None:
    with use_clock(FakeClock()) as clock:
        node, (config, kwargs, observers, listeners, limiters, deadline) = unwrap(layered(), NOTHING_AROUND)
        now = clock.monotonic()
    assert node == RunnableLambda(scale)
    assert config.tags == ("in", "out")
    assert dict(config.metadata) == {"k": "out", "i": 1}
    assert kwargs == {"by": 3}
    assert [limiter.size for limiter in limiters] == [4, 2]
    assert deadline is not None
    assert (deadline.at - now, deadline.seconds, deadline.owner) == (5, 5, "scale")
    assert observers == () and listeners == ()


def test_the_callers_config_and_keywords_win_over_the_bound_ones() -> None:
    caller: Unwrapped = (RunConfig(tags=("call",), metadata={"k": "call"}), {"by": 7}, (), (), (), None)
    with use_clock(FakeClock()):
        _, (config, kwargs, *_) = unwrap(layered(), caller)
    assert config.tags == ("call", "in", "out")
    assert dict(config.metadata) == {"k": "call", "i": 1}
    assert kwargs == {"by": 7}


def test_listeners_are_observers_that_are_also_awaited() -> None:
    def ended(run: object) -> None:
        return None

    watched = RunnableLambda(scale).with_listeners(on_end=ended)
    node, (_, _, observers, listeners, _, _) = unwrap(watched, NOTHING_AROUND)
    assert node == RunnableLambda(scale)
    assert len(observers) == 1 and listeners == observers


def test_a_node_without_bindings_is_itself_and_adds_nothing() -> None:
    plain = RunnableLambda(scale)
    node, got = unwrap(plain, NOTHING_AROUND)
    assert node is plain and got == NOTHING_AROUND
