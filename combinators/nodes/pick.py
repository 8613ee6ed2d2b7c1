"""``RunnablePick``: keep some keys of a dict.

A single key gives its value (None if missing); a list gives a dict of the keys
that are present (None if none is). With ``required=True`` a missing key is an
``InputError`` instead, so the output is never None.

>>> from combinators.nodes.pick import RunnablePick
>>> RunnablePick("a").invoke({"a": 1, "b": 2}), RunnablePick(["a", "z"]).invoke({"a": 1})
(1, {'a': 1})
>>> RunnablePick(["z"]).invoke({"a": 1}) is None
True
>>> RunnablePick(["a", "z"], required=True).invoke({"a": 1})
Traceback (most recent call last):
...
effects.errors.InputError: RunnablePick<a,z> is missing the key 'z' (it got the keys 'a')
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, final

import attrs

from combinators.addable import AddableDict
from combinators.runnable.composing import Runnable
from effects.errors import InputError
from effects.authoring import Scope, closing


def _keys(value: str | Sequence[str]) -> str | tuple[str, ...]:
    return value if isinstance(value, str) else tuple(value)


@final
@attrs.frozen(repr=False)
class RunnablePick(Runnable[Mapping[str, object], Any]):
    """Picks ``keys`` from a dict input (``required``: every key must be there)."""

    keys: str | tuple[str, ...] = attrs.field(converter=_keys)
    required: bool = False

    @property
    def name(self) -> str:
        shown = self.keys if isinstance(self.keys, str) else ",".join(self.keys)
        return f"RunnablePick<{shown}>"

    def __repr__(self) -> str:
        required = ", required=True" if self.required else ""
        return f"RunnablePick({self.keys!r}{required})"

    is_leaf = False
    input_known_at_start = False

    def _given(self, value: object) -> Mapping[str, object]:
        if not isinstance(value, Mapping):
            raise InputError(f"{self.name} expects a dict input, got {type(value).__name__}")
        return value  # pyright: ignore[reportUnknownVariableType]

    def _missing(self, seen: Mapping[str, object] | set[str]) -> InputError:
        wanted = (self.keys,) if isinstance(self.keys, str) else self.keys
        missing = ", ".join(repr(k) for k in wanted if k not in seen)
        got = ", ".join(repr(k) for k in seen) or "none"
        plural = "s" if "," in missing else ""
        return InputError(f"{self.name} is missing the key{plural} {missing} (it got the keys {got})")

    def _pick(self, value: object) -> object:
        given = self._given(value)
        if isinstance(self.keys, str):
            if self.required and self.keys not in given:
                raise self._missing(given)
            return given.get(self.keys)
        if self.required and any(k not in given for k in self.keys):
            raise self._missing(given)
        # An AddableDict, so picked stream chunks still add up to the picked whole.
        picked = AddableDict({k: given[k] for k in self.keys if k in given})
        return picked or None

    def step_invoke(self, input: Mapping[str, object], scope: Scope, kwargs: Mapping[str, object]) -> object:
        return self._pick(input)

    def _chunk(self, chunk: object, seen: set[str]) -> object:
        # A stream's chunks each hold some of the keys: `required` is checked at its end.
        given = self._given(chunk)
        if not self.required:
            return self._pick(given)
        seen.update(given)
        if isinstance(self.keys, str):
            return given.get(self.keys)
        return AddableDict({k: given[k] for k in self.keys if k in given}) or None

    def _check_seen(self, seen: set[str]) -> None:
        wanted = (self.keys,) if isinstance(self.keys, str) else self.keys
        if self.required and any(k not in seen for k in wanted):
            raise self._missing(seen)

    def step_stream(
        self, inputs: Iterator[Mapping[str, object]], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[object]:
        seen: set[str] = set()
        for chunk in inputs:
            picked = self._chunk(chunk, seen)
            if picked is not None:
                yield picked
        self._check_seen(seen)

    async def step_astream(
        self, inputs: AsyncIterator[Mapping[str, object]], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[object]:
        seen: set[str] = set()
        async with closing(inputs) as stream:
            async for chunk in stream:
                picked = self._chunk(chunk, seen)
                if picked is not None:
                    yield picked
        self._check_seen(seen)
