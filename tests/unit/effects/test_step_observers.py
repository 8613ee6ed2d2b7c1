"""Observers: each receives every effect of the runs it watches, in order; only those that hand out
awaitables (listeners) are awaited."""

from __future__ import annotations

from combinators import Runnable, RunnableLambda, RunnableParallel
from effects._runtime import calls as entry
from effects.step import AwaitingObserver, awaiting, hands_out_awaitables
from effects.projections.listeners import ListenerSpec
from effects.effect_values import Effect


def flip(x: int) -> int:
    return -x


class Recorder:
    """A plain observer: it only receives effects."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def emit(self, effect: Effect) -> None:
        self.seen.append((type(effect).__name__, effect.run.name))


class NotReally:
    """Has a ``take_pending`` that is not a method: not an awaiting observer."""

    take_pending = None

    def emit(self, effect: Effect) -> None:
        return None


def test_every_observer_sees_every_effect_of_the_nested_runs_in_order() -> None:
    first, second = Recorder(), Recorder()
    chain: Runnable[int, dict[str, str]] = RunnableLambda(flip) | RunnableParallel(a=RunnableLambda(str))
    assert list(entry.stream(chain, -2, None, {}, observers=(first, second))) == [{"a": "2"}]
    assert first.seen == second.seen
    assert first.seen[0] == ("RunStarted", "RunnableSequence")
    assert first.seen[-1] == ("RunEnded", "RunnableSequence")
    assert [kind for kind, name in first.seen if name == "flip" and kind != "RunStreamed"] == ["RunStarted", "RunEnded"]
    assert [kind for kind, name in first.seen if name == "str" and kind != "RunStreamed"] == ["RunStarted", "RunEnded"]


def test_only_observers_that_hand_out_awaitables_are_awaited() -> None:
    plain, odd = Recorder(), NotReally()
    listening = ListenerSpec(on_end=lambda run: None).make_observer()
    assert hands_out_awaitables(listening) and isinstance(listening, AwaitingObserver)
    assert not hands_out_awaitables(plain) and not hands_out_awaitables(odd)
    assert awaiting((plain, listening, odd)) == (listening,)
    assert awaiting(()) == ()
