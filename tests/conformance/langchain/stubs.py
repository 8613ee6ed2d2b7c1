"""The peer's ``tests/unit_tests/stubs.py`` for this library's immutable values.

The peer's helpers build a message and then set its ``id`` to ``AnyStr()`` (equal to
any string); our messages and documents are frozen, so the same values are built with
the id given to the constructor. The conformance runner lays this file out in place of
the sdist's (the only support file that differs).

>>> from combinators.messages import AIMessage
>>> _any_id_ai_message(content="hi") == AIMessage("hi", id="lc_run--1")
True
"""

from __future__ import annotations

from typing import Any

from combinators.documents import Document
from combinators.messages import AIMessage, AIMessageChunk, HumanMessage


class AnyStr(str):
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str)

    __hash__ = str.__hash__


def _any_id_document(**kwargs: Any) -> Document:
    return Document(**kwargs, id=AnyStr())


def _any_id_ai_message(**kwargs: Any) -> AIMessage:
    return AIMessage(**kwargs, id=AnyStr())


def _any_id_ai_message_chunk(**kwargs: Any) -> AIMessageChunk:
    return AIMessageChunk(**kwargs, id=AnyStr())


def _any_id_human_message(**kwargs: Any) -> HumanMessage:
    return HumanMessage(**kwargs, id=AnyStr())
