"""Where a public call starts: a nested call inherits its caller's config for its children, never
the caller's root run's name or id."""

from __future__ import annotations

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
