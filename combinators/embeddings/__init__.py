"""Embeddings: the protocol and two offline models (LangChain's ``langchain_core.embeddings``).

>>> from combinators.embeddings import HashedNgramEmbeddings
>>> len(HashedNgramEmbeddings(dimension=8).embed_query("hi"))
8
"""

from combinators.components.retrieval.embeddings import Embeddings as Embeddings
from combinators.components.retrieval.embeddings import HashedNgramEmbeddings as HashedNgramEmbeddings
from combinators.components.retrieval.embeddings import SentenceEmbeddings as SentenceEmbeddings

__all__ = [
    "Embeddings",
    "HashedNgramEmbeddings",
    "SentenceEmbeddings",
]
