"""``FakeStreamingListLLM``: a text model that streams its scripted responses character by
character.

>>> llm = FakeStreamingListLLM(["hey", "you"])
>>> list(llm.stream("x")), llm.invoke("y")
(['h', 'e', 'y'], 'you')
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, final

import attrs

from combinators.components.models.fakes import CyclingFakeLLM, reply_message
from effects.clock import current_clock


class FakeListLLMError(Exception):
    """The scripted failure of ``error_on_chunk_number`` (the peer's name).

    >>> raise FakeListLLMError("at chunk 1")
    Traceback (most recent call last):
    ...
    combinators.components.models.fake_streaming.FakeListLLMError: at chunk 1
    """


@final
@attrs.frozen(repr=False)
class FakeStreamingListLLM(CyclingFakeLLM):
    """Cycles through ``responses`` (from ``i``): ``invoke`` gives the next one whole,
    ``stream`` its characters. ``sleep`` seconds pass before each character (on the
    runtime's clock); ``error_on_chunk_number`` raises ``FakeListLLMError`` at that chunk.

    Difference from the peer's: its characters are the model's tokens, streamed as any
    streaming LLM's (``on_llm_stream`` events, its run ends after its last token). The
    peer's fake overrides ``stream`` itself: its run is an ``invoke`` that ends before the
    characters flow, with no token events, an artifact of that fake, not how the peer's
    streaming LLMs report (its ``test_with_llm`` counts those events).

    >>> list(FakeStreamingListLLM(responses=["abc"], error_on_chunk_number=1).stream("x"))
    Traceback (most recent call last):
    ...
    combinators.components.models.fake_streaming.FakeListLLMError: scripted failure at chunk 1
    """

    error_on_chunk_number: int | None = None

    def _next(self) -> str:
        return reply_message(self.script.next(), None).text

    def _call(self, prompt: str, stop: list[str] | None = None) -> str:
        return self._next()

    def _stream(self, prompt: str, stop: list[str] | None = None, **kwargs: Any) -> Iterator[str]:
        clock = current_clock()
        for number, char in enumerate(self._next()):
            if self.sleep:
                clock.sleep(self.sleep)
            if self.error_on_chunk_number == number:
                raise FakeListLLMError(f"scripted failure at chunk {number}")
            yield char

    async def _astream(self, prompt: str, stop: list[str] | None = None, **kwargs: Any) -> AsyncIterator[str]:
        # Its own async stream: ``sleep`` waits without holding the event loop.
        clock = current_clock()
        for number, char in enumerate(self._next()):
            if self.sleep:
                await clock.asleep(self.sleep)
            if self.error_on_chunk_number == number:
                raise FakeListLLMError(f"scripted failure at chunk {number}")
            yield char
