"""``BaseLLM`` and ``LLM``: text in, text out (the older completion-model interface).

Messages and prompt values are turned into text first; events are ``on_llm_*``
and the end output has the peer's ``{"generations": [[...]], "llm_output": None}``
shape.

>>> import attrs
>>> @attrs.frozen
... class Reverse(LLM):
...     def _call(self, prompt, stop=None):
...         return prompt[::-1]
>>> Reverse().invoke("abc")
'cba'
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, final

import attrs

from combinators.components.models.chat_model import LanguageModel, LanguageModelInput, split_options, to_messages
from combinators.components.messages.message_classes import get_buffer_string
from combinators.components.prompts.prompt_values import ChatPromptValue, StringPromptValue
from combinators.authoring import is_library_code
from effects.authoring import Scope
from effects.authoring import closing
from effects.authoring import NOTHING, run_on_total, stream_in_worker, total_or_nothing
from effects.projections.events_v2 import show_text_model_chunks_with


def _info(value: Mapping[str, object] | None) -> Mapping[str, object] | None:
    return None if value is None else dict(value)


@final
@attrs.frozen
class GenerationChunk:
    """A piece of a text model's output as it streams: inside a chain, the chunk of its
    ``on_llm_stream`` v2 events, as the peer's token callbacks give it (v1, the run log and
    the stream itself give the text). Pieces add up with ``+``.

    >>> GenerationChunk("Hel") + GenerationChunk("lo", generation_info={"finish_reason": "stop"})
    GenerationChunk(text='Hello', generation_info={'finish_reason': 'stop'})
    """

    text: str
    generation_info: Mapping[str, object] | None = attrs.field(default=None, converter=_info, hash=False)

    def __add__(self, other: GenerationChunk) -> GenerationChunk:
        if not isinstance(other, GenerationChunk):  # pyright: ignore[reportUnnecessaryIsInstance]
            return NotImplemented
        info = self.generation_info
        if other.generation_info is not None:
            info = {**(info or {}), **other.generation_info}
        return GenerationChunk(self.text + other.text, generation_info=info)


# Inside a chain, v2 shows a text model's tokens as the peer's token callbacks do.
show_text_model_chunks_with(GenerationChunk)


def to_prompt_text(value: object, model: str) -> str:
    """The text a model input stands for.

    >>> to_prompt_text([("system", "be brief"), ("human", "hi")], "m")
    'System: be brief\\nHuman: hi'
    """
    if isinstance(value, str):
        return value
    if isinstance(value, StringPromptValue | ChatPromptValue):
        return value.to_string()
    return get_buffer_string(to_messages(value, model))


class BaseLLM(LanguageModel[str], fields=False):
    """Base of text models: implement ``_generate`` (and optionally ``_stream``, and
    ``_astream`` for an async stream of its own); under an async call a user's sync hooks
    run on a worker thread, so they never hold the event loop."""

    __slots__ = ()

    run_type = "llm"
    _ls_model_type = "llm"

    def _generate(self, prompt: str, stop: list[str] | None = None, **kwargs: Any) -> str:
        """Hook: the completion of ``prompt``."""
        raise NotImplementedError(f"{type(self).__name__} must implement _generate")

    def _stream(self, prompt: str, stop: list[str] | None = None, **kwargs: Any) -> Iterator[str]:
        """Hook: the completion as text tokens (default: none)."""
        raise NotImplementedError

    def _astream(self, prompt: str, stop: list[str] | None = None, **kwargs: Any) -> AsyncIterator[str]:
        """Hook: the completion as text tokens, async (default: none; ``astream`` then
        runs ``_stream``)."""
        raise NotImplementedError

    @property
    def streams(self) -> bool:
        """Whether this model has a token stream of its own."""
        hooks = type(self)
        return getattr(hooks, "_stream") is not BaseLLM._stream or getattr(hooks, "_astream") is not BaseLLM._astream

    def describe_input(self, input: LanguageModelInput) -> object:
        return {"prompts": [to_prompt_text(input, self.name)]}

    def describe_output(self, output: str) -> object:
        generation = {"text": output, "generation_info": None, "type": "Generation"}
        return {"generations": [[generation]], "llm_output": None}

    def step_invoke(self, input: LanguageModelInput, scope: Scope, kwargs: Mapping[str, object]) -> str:
        stop, options = split_options(kwargs, self.name)
        return self._generate(to_prompt_text(input, self.name), stop, **options)

    def step_stream(
        self, inputs: Iterator[LanguageModelInput], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[str]:
        return run_on_total(inputs, lambda total: self._text_stream(total, kwargs))

    def _text_stream(self, input: LanguageModelInput, kwargs: Mapping[str, object]) -> Iterator[str]:
        stop, options = split_options(kwargs, self.name)
        prompt = to_prompt_text(input, self.name)
        if getattr(type(self), "_stream") is not BaseLLM._stream:
            yield from self._stream(prompt, stop, **options)
        else:
            yield self._generate(prompt, stop, **options)

    def _blocks(self) -> bool:
        """Whether an async call runs the sync hooks on a worker thread: they are a user's
        code (the library's own models run theirs inline)."""
        hooks = type(self)
        return not all(
            is_library_code(getattr(hooks, name)) for name in ("_generate", "_stream", "_call") if hasattr(hooks, name)
        )

    async def step_astream(
        self, inputs: AsyncIterator[LanguageModelInput], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[str]:
        collected: list[LanguageModelInput] = []
        async with closing(inputs) as stream:
            async for chunk in stream:
                collected.append(chunk)
        if getattr(type(self), "_astream") is not BaseLLM._astream:
            async for out in self._own_astream(collected, kwargs):
                yield out
            return
        if not self._blocks():
            for out in self.step_stream(iter(collected), scope, kwargs):
                yield out
            return
        made = stream_in_worker(scope, lambda: self.step_stream(iter(collected), scope, kwargs))
        async with closing(made) as outs:
            async for out in outs:
                yield out

    async def _own_astream(
        self, collected: list[LanguageModelInput], kwargs: Mapping[str, object]
    ) -> AsyncIterator[str]:
        # The model's own async stream: nothing runs on a thread, nothing holds the loop.
        total = total_or_nothing(collected)
        if total is NOTHING:
            return
        stop, options = split_options(kwargs, self.name)
        async with closing(self._astream(to_prompt_text(total, self.name), stop, **options)) as tokens:
            async for token in tokens:
                yield token


class LLM(BaseLLM, fields=False):
    """A text model from one function: implement ``_call(prompt, stop) -> str``."""

    __slots__ = ()

    def _call(self, prompt: str, stop: list[str] | None = None) -> str:
        """Hook: the completion text."""
        raise NotImplementedError(f"{type(self).__name__} must implement _call")

    def _generate(self, prompt: str, stop: list[str] | None = None, **kwargs: Any) -> str:
        return self._call(prompt, stop)
