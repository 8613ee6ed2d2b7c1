"""``RunnablePick``: keep some keys of a dict.

A single key gives its value (None if missing); a list gives a dict of the keys
that are present (None if none is).

>>> from combinators.nodes.pick import RunnablePick
>>> RunnablePick("a").invoke({"a": 1, "b": 2}), RunnablePick(["a", "z"]).invoke({"a": 1})
(1, {'a': 1})
>>> RunnablePick(["z"]).invoke({"a": 1}) is None
True
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, final

import attrs

from combinators.addable import AddableDict
from combinators.runnable.composing import Runnable
from effects.errors import InputError
from effects._runtime.scope import Scope
from effects._runtime.closing import closing


def _keys(value: str | Sequence[str]) -> str | tuple[str, ...]:
    return value if isinstance(value, str) else tuple(value)


@final
@attrs.frozen(repr=False)
class RunnablePick(Runnable[Mapping[str, Any], Any]):
    """Picks ``keys`` from a dict input."""

    keys: str | tuple[str, ...] = attrs.field(converter=_keys)

    @property
    def name(self) -> str:
        shown = self.keys if isinstance(self.keys, str) else ",".join(self.keys)
        return f"RunnablePick<{shown}>"

    def __repr__(self) -> str:
        return f"RunnablePick({self.keys!r})"

    is_leaf = False
    input_known_at_start = False

    def _pick(self, value: object) -> Any:
        if not isinstance(value, Mapping):
            raise InputError(f"{self.name} expects a dict input, got {type(value).__name__}")
        given: Mapping[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
        if isinstance(self.keys, str):
            return given.get(self.keys)
        # An AddableDict, so picked stream chunks still add up to the picked whole.
        picked = AddableDict({k: given[k] for k in self.keys if k in given})
        return picked or None

    def step_invoke(self, input: Mapping[str, Any], scope: Scope, kwargs: Mapping[str, Any]) -> Any:
        return self._pick(input)

    def step_stream(
        self, inputs: Iterator[Mapping[str, Any]], scope: Scope, kwargs: Mapping[str, Any]
    ) -> Iterator[Any]:
        for chunk in inputs:
            picked = self._pick(chunk)
            if picked is not None:
                yield picked

    async def step_astream(
        self, inputs: AsyncIterator[Mapping[str, Any]], scope: Scope, kwargs: Mapping[str, Any]
    ) -> AsyncIterator[Any]:
        async with closing(inputs) as stream:
            async for chunk in stream:
                picked = self._pick(chunk)
                if picked is not None:
                    yield picked
