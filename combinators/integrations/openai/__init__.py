"""OpenAI-compatible chat and embeddings models (extra ``openai``)."""

from effects.hooks import require_extra as _require_extra

_require_extra("combinators.integrations.openai", "openai", "openai")

from combinators.integrations.openai.chat import ChatOpenAI as ChatOpenAI
from combinators.integrations.openai.embeddings import OpenAIEmbeddings as OpenAIEmbeddings
from combinators.integrations.openai.structured import StructuredOutputError as StructuredOutputError
from combinators.integrations.openai.structured import StructuredOutputParser as StructuredOutputParser

__all__ = [
    "ChatOpenAI",
    "OpenAIEmbeddings",
    "StructuredOutputError",
    "StructuredOutputParser",
]
