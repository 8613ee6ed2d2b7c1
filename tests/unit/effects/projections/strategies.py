"""Hypothesis strategies for well-nested effect sequences (what a correct runtime emits).

``effect_trees()`` draws a run tree (a root and nested sub-runs of every run type),
then emits it the way the runtime does: each run starts, streams some chunks, emits
custom events and runs its children (siblings may interleave, as parallel branches do),
then ends or fails, after all its children. Chunks of a streamed run add up (with the
reset rule) to its output. Values mix plain JSON, objects that add (``Piece``), objects
that do not, message-like values, tuples, and secrets.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator
from uuid import UUID

from hypothesis import strategies as st

from effects.projections.shapes import add_chunk
from effects.effect_values import (
    NOTHING,
    CustomEmitted,
    Effect,
    RunEnded,
    RunFailed,
    RunInfo,
    RunStarted,
    RunStreamed,
)
from tests.unit.effects.projections.script import T0, Message, Piece, Secret

RUN_TYPES = ("chain", "prompt", "parser", "chat_model", "llm", "retriever", "tool")
NAMES = ("a", "b", "step", "x/y", "t~1")
TAGS = ("seq:step:1", "seq:step:2", "map:key:k", "hidden", "t")
CUSTOM_NAMES = ("progress", "other")
SECRET_TEXT = "hunter2-do-not-leak"

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=5),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=6,
)
object_values = st.one_of(
    st.builds(Piece, st.text(max_size=4)),
    st.builds(Message, st.text(max_size=4), st.none() | st.just("m1")),
    st.tuples(st.integers(0, 3), st.text(max_size=2)),
    st.builds(lambda t: {"piece": Piece(t)}, st.text(max_size=3)),
    st.just(float("nan")),
    st.just(Secret(SECRET_TEXT)),
    st.builds(lambda t: {"nested": [Secret(SECRET_TEXT), t]}, st.text(max_size=3)),
)
any_values = st.one_of(json_values, object_values)

chunk_kinds: dict[str, st.SearchStrategy[object]] = {
    "text": st.text(max_size=4),
    "piece": st.builds(Piece, st.text(max_size=4)),
    "message": st.builds(Message, st.text(max_size=4)),
    "mixed": st.one_of(
        st.text(max_size=3),
        st.builds(Piece, st.text(max_size=3)),
        st.integers(0, 5),
        st.none(),
        st.dictionaries(st.sampled_from("kl"), st.integers(0, 3), max_size=2),
        st.lists(st.integers(0, 3), max_size=2),
        st.just(Secret(SECRET_TEXT)),
    ),
}

errors = st.one_of(
    st.builds(ValueError, st.text(max_size=5)),
    st.builds(KeyError, st.text(max_size=3)),
    st.just(asyncio.CancelledError()),
)

Emit = Callable[[float], Effect]


def _streamed(info: RunInfo, chunk: object) -> Emit:
    return lambda at: RunStreamed(info, chunk, at)


def _custom(info: RunInfo, name: str, data: object) -> Emit:
    return lambda at: CustomEmitted(info, name, data, at)


def _interleave(draw: st.DrawFn, sequences: list[list[Emit]]) -> Iterator[Emit]:
    queues = [list(reversed(seq)) for seq in sequences if seq]
    while queues:
        index = draw(st.integers(0, len(queues) - 1)) if len(queues) > 1 else 0
        yield queues[index].pop()
        if not queues[index]:
            del queues[index]


def _run(
    draw: st.DrawFn,
    ids: Iterator[int],
    parent: RunInfo | None,
    depth: int,
    max_depth: int,
    max_children: int,
) -> list[Emit]:
    is_root = parent is None
    parents = () if parent is None else (*parent.parent_ids, parent.run_id)
    info = RunInfo(
        UUID(int=next(ids)),
        parents,
        "root" if is_root else draw(st.sampled_from(NAMES)),
        draw(st.sampled_from(RUN_TYPES)),
        tuple(draw(st.lists(st.sampled_from(TAGS), max_size=2, unique=True))),
        draw(st.sampled_from([{}, {"m": 1}, {"ls_provider": "fake", "n": [1, 2]}, {"p": Piece("m")}])),
    )
    input_ = draw(any_values)
    streaming_start = not is_root and draw(st.booleans())
    chunks = draw(st.lists(chunk_kinds[draw(st.sampled_from(sorted(chunk_kinds)))], max_size=4))
    if chunks:
        total: object = None
        for chunk in chunks:
            total, _ = add_chunk(total, chunk)
        output = total
    else:
        output = draw(any_values)
    failure = draw(st.one_of(st.none(), st.none(), st.none(), errors))
    own: list[Emit] = [_streamed(info, chunk) for chunk in chunks]
    customs = draw(st.lists(st.tuples(st.sampled_from(CUSTOM_NAMES), any_values), max_size=2))
    own += [_custom(info, name, data) for name, data in customs]
    # A run's own chunks and custom events keep their order; they interleave with children.
    children = (
        [_run(draw, ids, info, depth + 1, max_depth, max_children) for _ in range(draw(st.integers(0, max_children)))]
        if depth < max_depth
        else []
    )
    first: Emit = lambda at: RunStarted(info, NOTHING if streaming_start else input_, at)  # noqa: E731 - a named lambda reads as the effect it builds
    last: Emit
    if failure is None:
        last = lambda at: RunEnded(info, input_, output, at)  # noqa: E731 - a named lambda reads as the effect it builds
    else:
        last = lambda at: RunFailed(info, input_, failure, at)  # noqa: E731 - a named lambda reads as the effect it builds
    return [first, *_interleave(draw, [own, *children]), last]


@st.composite
def effect_trees(draw: st.DrawFn, max_depth: int = 3, max_children: int = 2) -> list[Effect]:
    """A well-nested effect sequence of one root run and its sub-runs."""
    ids = itertools.count(1)
    emits = _run(draw, ids, None, 0, max_depth, max_children)
    return [emit(round(T0 + index * 0.0125, 4)) for index, emit in enumerate(emits)]


event_filters = st.builds(
    lambda names, types, tags, xnames, xtypes, xtags: (names, types, tags, xnames, xtypes, xtags),
    st.none() | st.lists(st.sampled_from((*NAMES, "root", *CUSTOM_NAMES)), max_size=2),
    st.none() | st.lists(st.sampled_from((*RUN_TYPES, *CUSTOM_NAMES)), max_size=2),
    st.none() | st.lists(st.sampled_from(TAGS), max_size=2),
    st.none() | st.lists(st.sampled_from((*NAMES, "root")), max_size=2),
    st.none() | st.lists(st.sampled_from(RUN_TYPES), max_size=2),
    st.none() | st.lists(st.sampled_from(TAGS), max_size=2),
)
"""Raw filter arguments (include/exclude names, types, tags), for ``EventFilter(*args)``."""
