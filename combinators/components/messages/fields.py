"""The fields of message values: content and its parts, private read-only copies of
mappings, and checked reads of message-like dicts.

>>> to_content(["a", {"type": "text", "text": "b"}])
('a', {'type': 'text', 'text': 'b'})
>>> text_of(("a", {"type": "text", "text": "b"}, {"type": "image_url"}))
'ab'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias, TypeVar

from effects.authoring import checked, is_a, is_str_mapping

_T = TypeVar("_T")

ContentBlock: TypeAlias = Mapping[str, object]
"""An open-ended content block, e.g. ``{"type": "text", "text": "hi"}``."""
ContentPart: TypeAlias = "str | ContentBlock"
Content: TypeAlias = "str | tuple[ContentPart, ...]"
ContentLike: TypeAlias = "str | Sequence[str | Mapping[str, object]]"


def to_content(value: ContentLike) -> Content:
    if isinstance(value, str):
        return value
    if is_a(value, Sequence):
        parts: list[ContentPart] = []
        for part in value:
            if isinstance(part, str):
                parts.append(part)
            elif is_a(part, Mapping):
                parts.append(dict(part))
            else:
                raise TypeError(
                    f"message content parts must be str or mappings (content blocks), got {type(part).__name__}"
                )
        return tuple(parts)
    raise TypeError(f"message content must be a str or a sequence of parts, got {type(value).__name__}")


def to_mapping(value: Mapping[str, object] | None) -> Mapping[str, object]:
    # A private copy, typed read-only, so the caller's dict can never change the message.
    if value is None:
        return {}
    if isinstance(value, dict):  # the usual case, without the ABC check (every message has two)
        return dict(value)
    checked(value, Mapping, "expected a mapping")
    return dict(value)


def no_items() -> dict[str, object]:
    return {}


def to_token_details(value: Mapping[str, int] | None) -> Mapping[str, int]:
    return {} if value is None else dict(value)


# -- tool calls and usage -------------------------------------------------------------


def add_details(left: Mapping[str, int], right: Mapping[str, int]) -> Mapping[str, int]:
    return {key: left.get(key, 0) + right.get(key, 0) for key in {**left, **right}}


def checked_mapping(value: object, what: str) -> Mapping[str, object]:
    """``value`` as a mapping, or a ``TypeError`` naming ``what``.

    >>> checked_mapping([], "usage_metadata")
    Traceback (most recent call last):
    TypeError: usage_metadata must be a mapping, got list
    """
    if not is_str_mapping(value):
        raise TypeError(f"{what} must be a mapping, got {type(value).__name__}")
    return value


def checked_optional(value: object, kind: type[_T], what: str) -> _T | None:
    """``value`` if it is ``None`` or a ``kind``, else a ``TypeError`` naming ``what``.

    >>> checked_optional("c1", str, "id"), checked_optional(None, str, "id")
    ('c1', None)
    """
    if value is None or isinstance(value, kind):
        return value
    raise TypeError(f"{what} must be {kind.__name__} or None, got {type(value).__name__}")


def text_of(content: Content) -> str:
    if isinstance(content, str):
        return content
    pieces: list[str] = []
    for part in content:
        if isinstance(part, str):
            pieces.append(part)
        elif part.get("type") == "text":
            text = part.get("text")
            if isinstance(text, str):
                pieces.append(text)
    return "".join(pieces)


__all__ = [
    "Content",
    "ContentBlock",
    "ContentLike",
    "ContentPart",
    "add_details",
    "checked_mapping",
    "checked_optional",
    "no_items",
    "text_of",
    "to_content",
    "to_mapping",
    "to_token_details",
]
