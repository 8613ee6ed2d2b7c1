"""The peer's rules for adding streamed pieces: metadata, content, tool-call chunks, ids.

``AIMessageChunk + AIMessageChunk`` (``combinators.components.messages.message_classes``) is built from
these; they work on plain data and on the small part values, never on whole messages.

>>> merge_content("Hel", "lo")
'Hello'
>>> merge_dicts({"finish_reason": None}, {"finish_reason": "stop"})
{'finish_reason': 'stop'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

import attrs
from effects.authoring import is_mapping, is_str_mapping

if TYPE_CHECKING:  # the message values import these rules, so types only
    from combinators.components.messages.message_classes import Content, ToolCallChunk

_LAST_WINS: Final = frozenset({"index", "created", "timestamp"})
_KEEP_IF_EQUAL: Final = frozenset({"id", "output_version", "model_provider"})


def merge_dicts(left: Mapping[str, object], right: Mapping[str, object]) -> dict[str, object]:
    """Deep-merge two metadata mappings as streamed chunks do.

    Strings concatenate, mappings merge, lists merge by element ``index``, equal
    values stay, other ints add (``index``, ``created``, ``timestamp``: last wins),
    ``None`` gives way; different types are a ``TypeError``.

    >>> merge_dicts({"a": "x", "n": 1, "f": None}, {"a": "y", "n": 2, "f": "stop"})
    {'a': 'xy', 'n': 3, 'f': 'stop'}
    """
    merged = dict(left)
    for key, value in right.items():
        current = merged.get(key)
        if key not in merged or (value is not None and current is None):
            merged[key] = value
        elif value is None:
            continue
        elif type(current) is not type(value):
            raise TypeError(f"cannot merge key {key!r}: {type(current).__name__} and {type(value).__name__}")
        elif isinstance(current, str):
            assert isinstance(value, str)
            if (key == "index" and current.startswith("lc_")) or (key in _KEEP_IF_EQUAL and current == value):
                continue
            merged[key] = current + value
        elif isinstance(current, dict):
            merged[key] = merge_dicts(current, value)  # type: ignore[arg-type]  # same type
        elif isinstance(current, list):
            merged[key] = merge_lists(current, value)  # type: ignore[arg-type]  # same type
        elif current == value:
            continue
        elif isinstance(current, int) and not isinstance(current, bool):
            merged[key] = value if key in _LAST_WINS else current + value  # type: ignore[operator]
        else:
            raise TypeError(f"cannot merge key {key!r}: two different {type(current).__name__} values")
    return merged


def _merge_index(element: object) -> int | str | None:
    if is_mapping(element):
        index = element.get("index")
        if (isinstance(index, int) and not isinstance(index, bool)) or (
            isinstance(index, str) and index.startswith("lc_")
        ):
            return index
    return None


def _ids_agree(left: Mapping[str, object], right: Mapping[str, object]) -> bool:
    return left.get("id") in (None, "") or right.get("id") in (None, "") or left.get("id") == right.get("id")


def _merge_into(merged: list[object], element: object) -> None:
    index = _merge_index(element)
    if index is not None and is_str_mapping(element):
        for position, existing in enumerate(merged):
            if _merge_index(existing) == index and is_str_mapping(existing) and _ids_agree(existing, element):
                # The right-hand "type" is dropped so "text" + "text" stays "text".
                addition = {k: v for k, v in element.items() if k != "type"}
                merged[position] = merge_dicts(existing, addition)
                return
    merged.append(element)


def merge_lists(left: Sequence[object], right: Sequence[object]) -> list[object]:
    """Concatenate, except that mappings with the same ``index`` (and agreeing ids) merge.

    >>> merge_lists([{"index": 0, "text": "a"}], [{"index": 0, "text": "b"}, 5])
    [{'index': 0, 'text': 'ab'}, 5]
    """
    merged = list(left)
    for element in right:
        _merge_into(merged, element)
    return merged


def merge_content(left: Content, right: Content) -> Content:
    """Add two contents: strings concatenate, blocks merge by ``index`` as in the peer.

    Adjacent str parts are one text, so they join; that keeps ``+`` associative (the
    peer keeps ``"a" + ["b"]`` as two parts, and is not).

    >>> merge_content("a", "b"), merge_content(("a",), "b"), merge_content("a", ("b", {"type": "x"}))
    ('ab', ('ab',), ('ab', {'type': 'x'}))
    """
    if isinstance(left, str) and isinstance(right, str):
        return left + right
    merged: list[object] = list(left) if not isinstance(left, str) else [left] if left else []
    for part in (right,) if isinstance(right, str) else right:
        last = merged[-1] if merged else None
        if isinstance(part, str):
            if isinstance(last, str):
                merged[-1] = last + part
            elif part:
                merged.append(part)
        else:
            _merge_into(merged, part)
    return tuple(part for part in merged if isinstance(part, str) or is_str_mapping(part))  # all are parts


def merge_tool_call_chunks(
    left: tuple[ToolCallChunk, ...], right: tuple[ToolCallChunk, ...]
) -> tuple[ToolCallChunk, ...]:
    """Append ``right`` to ``left``; pieces with the same ``index`` (and agreeing ids) join.

    >>> from combinators.components.messages.message_classes import ToolCallChunk
    >>> merge_tool_call_chunks((ToolCallChunk("f", '{"a"', "c1", 0),), (ToolCallChunk(None, ": 1}", None, 0),))
    (ToolCallChunk(name='f', args='{"a": 1}', id='c1', index=0),)
    """

    def joined(a: str | None, b: str | None) -> str | None:
        return b if a is None else a if b is None else a + b

    merged = list(left)
    for chunk in right:
        if chunk.index is not None:
            for position, existing in enumerate(merged):
                if existing.index == chunk.index and (not existing.id or not chunk.id or existing.id == chunk.id):
                    merged[position] = attrs.evolve(
                        existing,
                        name=joined(existing.name, chunk.name),
                        args=joined(existing.args, chunk.args),
                        id=existing.id if existing.id == chunk.id else joined(existing.id, chunk.id),
                        index=chunk.index,
                    )
                    break
            else:
                merged.append(chunk)
        else:
            merged.append(chunk)
    return tuple(merged)


_LC_RUN_PREFIX: Final = "lc_run-"
_LC_PREFIX: Final = "lc_"


def preferred_id(ids: Iterable[str | None]) -> str | None:
    """The id a sum of chunks keeps: a provider's id beats ``lc_run-*``, which beats ``lc_*``.

    The first wins a tie.

    >>> preferred_id(["lc_run--1", None, "chatcmpl-9", "chatcmpl-10"])
    'chatcmpl-9'
    >>> preferred_id(["lc_1", "lc_run--2"])
    'lc_run--2'
    """
    best, best_rank = None, -1
    for candidate in ids:
        if not candidate:
            continue
        if not candidate.startswith(_LC_PREFIX):
            return candidate
        rank = 1 if candidate.startswith(_LC_RUN_PREFIX) else 0
        if rank > best_rank:
            best, best_rank = candidate, rank
    return best
