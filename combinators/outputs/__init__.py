"""A model's generations (LangChain's ``langchain_core.outputs``).

>>> from combinators.outputs import Generation
>>> Generation(text="hi").text
'hi'
"""

from combinators.components.parsers.base import ChatGeneration as ChatGeneration
from combinators.components.parsers.base import Generation as Generation
from combinators.components.models.llm import GenerationChunk as GenerationChunk

__all__ = [
    "ChatGeneration",
    "Generation",
    "GenerationChunk",
]
