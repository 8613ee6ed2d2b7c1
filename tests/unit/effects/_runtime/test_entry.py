"""Where a public call starts: a nested call inherits its caller's config for its children, never
the caller's root run's name or id."""

from __future__ import annotations

from effects import RunInfo

from combinators import RunConfig, RunnableLambda


def inc(x: int) -> int:
    return x + 1


def test_run_name_and_run_id_are_not_inherited() -> None:
    seen: list[RunConfig] = []

    def probe(x: int, config: RunConfig) -> int:
        seen.append(config)
        return x

    (RunnableLambda(inc) | RunnableLambda(probe)).invoke(1, {"run_name": "root", "tags": ["x"]})
    assert seen[0].run_name is None and seen[0].run_id is None and seen[0].tags == ("x",)


def _same(value: object) -> object:
    return value


def _run_of_current_scope(value: object) -> object:
    from effects.authoring import current_scope

    scope = current_scope()
    return None if scope is None else scope.run


def test_a_chain_with_a_watched_step_inside_runs_with_ids_and_others_stay_plain() -> None:
    from combinators import RunnableLambda
    from effects._runtime.entry import watched_inside

    def seen(run: object) -> None:
        return None

    watched = RunnableLambda(_same).with_listeners(on_end=seen)
    plain = RunnableLambda(str) | RunnableLambda(_run_of_current_scope)
    inside = RunnableLambda(str) | RunnableLambda(_run_of_current_scope) | watched.with_config(tags=["t"])
    # Bound at the root, the observers watch the root run: nothing inside is watched.
    assert not watched_inside(watched) and not watched_inside(plain) and watched_inside(inside)
    assert watched_inside(RunnableLambda(str) | inside) and watched_inside(inside) is watched_inside(inside)
    # The plain chain stays on the hot path (no run, no id) even now that a binding with
    # observers exists; the other's runs have ids though nothing but the listener watches.
    assert plain.invoke(1) is None
    assert RunnableLambda(_run_of_current_scope).invoke(1) is None
    run = inside.invoke(1)
    assert isinstance(run, RunInfo) and run.name == "_run_of_current_scope" and len(run.parent_ids) == 1
