"""The in-memory vector store and its retriever (LangChain's ``langchain_core.vectorstores``).

>>> from combinators.vectorstores import cosine_similarity
>>> cosine_similarity([1.0, 0.0], [1.0, 0.0])
1.0
"""

from combinators.components.retrieval.vectorstore import DocumentFilter as DocumentFilter
from combinators.components.retrieval.vectorstore import InMemoryVectorStore as InMemoryVectorStore
from combinators.components.retrieval.vectorstore import VectorStoreRetriever as VectorStoreRetriever
from combinators.components.retrieval.vectorstore import cosine_similarity as cosine_similarity

__all__ = [
    "DocumentFilter",
    "InMemoryVectorStore",
    "VectorStoreRetriever",
    "cosine_similarity",
]
