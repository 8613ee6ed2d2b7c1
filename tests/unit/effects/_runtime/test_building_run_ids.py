"""Run ids: version 7 UUIDs, each the very UUID its bits make (built past ``UUID``'s checks)."""

from __future__ import annotations

from uuid import UUID

from effects._runtime.building import new_run_id


def same(fast: object, plain: object) -> None:
    assert type(fast) is type(plain)
    assert fast == plain
    assert repr(fast) == repr(plain)


def test_run_ids_are_the_uuids_their_bits_make() -> None:
    for _ in range(200):
        run_id = new_run_id()
        same(run_id, UUID(int=run_id.int))
        assert run_id.version == 7
