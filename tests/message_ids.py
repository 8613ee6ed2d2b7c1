"""``RUN_ID``: equal to any message id a model run gives (``lc_run--...``), for expected messages.

Every chat model output carries an id (the peer's ``lc_run--<run id>``, fresh when nobody
watches the run), so an expected message says its id is such an id.

>>> from combinators.messages import AIMessage
>>> AIMessage("hi", id="lc_run--1234-0") == AIMessage("hi", id=RUN_ID)
True
>>> AIMessage("hi", id="provider-7") == AIMessage("hi", id=RUN_ID)
False
"""

from __future__ import annotations


class _AnyRunId(str):
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and other.startswith("lc_run--")

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = str.__hash__


RUN_ID = _AnyRunId("lc_run--<any>")
