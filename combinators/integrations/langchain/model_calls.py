"""A model's run as LangChain's callback handlers are told about it: the messages or
prompt text it was given (a root run shows the caller's raw input), its chunks as
LangChain's message chunks, its end as an ``LLMResult``.

>>> llm_result({"generations": [[{"text": "ok", "generation_info": None, "type": "Generation"}]]}).generations[0][0].text
'ok'
"""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.messages import AIMessageChunk as TheirAIMessageChunk
from langchain_core.messages import BaseMessage as TheirMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, Generation, LLMResult

from effects.guards import is_list, is_str_mapping

__all__ = ["as_chunk", "as_model_input", "llm_result"]


def as_chunk(message: TheirMessage) -> TheirAIMessageChunk:
    """``message`` as the chunk a streaming model hands LangChain's handlers.

    >>> from langchain_core.messages import AIMessage
    >>> type(as_chunk(AIMessage("hi"))).__name__
    'AIMessageChunk'
    """
    if isinstance(message, TheirAIMessageChunk):
        return message
    return TheirAIMessageChunk(content=message.content, id=message.id)


def as_model_input(value: object, name: str, convert: Callable[[object, str], object], otherwise: object) -> object:
    """``convert(value, name)``: what the model makes of its input; ``otherwise`` when it refuses it.

    >>> as_model_input(3, "m", lambda value, name: value + 1, None), as_model_input("x", "m", lambda v, n: v + 1, [])
    (4, [])
    """
    # What the model makes of its input (the messages or prompt text LangChain hands the
    # handlers); a value it refuses is its run's error, never the projection's.
    try:
        return convert(value, name)
    except Exception:
        return otherwise


def llm_result(output: object) -> LLMResult:
    """A model run's end output as LangChain's ``LLMResult`` (a message, or a text model's
    generations dict)."""
    if is_str_mapping(output) and is_list(generations := output.get("generations")):
        # A text model's end (its describe_output): LangChain's LLMResult, as a dict.
        rows = [row for row in generations if is_list(row)]
        texts = [[str(g.get("text", "")) for g in row if is_str_mapping(g)] for row in rows]
        return LLMResult(generations=[[Generation(text=text) for text in row] for row in texts])
    if isinstance(output, TheirAIMessageChunk):
        generation: Generation = ChatGenerationChunk(message=output)
    elif isinstance(output, TheirMessage):
        generation = ChatGeneration(message=output)
    else:
        generation = Generation(text=output if isinstance(output, str) else str(output))
    return LLMResult(generations=[[generation]])
