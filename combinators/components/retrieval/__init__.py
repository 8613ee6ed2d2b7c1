"""Documents, retrievers, BM25, embeddings and the in-memory vector store."""

from combinators.components.retrieval.documents import BaseRetriever as BaseRetriever
from combinators.components.retrieval.documents import Document as Document
from combinators.components.retrieval.documents import format_documents_as_string as format_documents_as_string
from combinators.components.retrieval.documents import load_text_documents as load_text_documents
from combinators.components.retrieval.bm25 import Bm25Index as Bm25Index
from combinators.components.retrieval.bm25 import Bm25Retriever as Bm25Retriever
from combinators.components.retrieval.bm25 import ENGLISH_STOPWORDS as ENGLISH_STOPWORDS
from combinators.components.retrieval.bm25 import tokenize as tokenize
from combinators.components.retrieval.embeddings import Embeddings as Embeddings
from combinators.components.retrieval.embeddings import HashedNgramEmbeddings as HashedNgramEmbeddings
from combinators.components.retrieval.embeddings import SentenceEmbeddings as SentenceEmbeddings
from combinators.components.retrieval.vectorstore import DocumentFilter as DocumentFilter
from combinators.components.retrieval.vectorstore import InMemoryVectorStore as InMemoryVectorStore
from combinators.components.retrieval.vectorstore import VectorStoreRetriever as VectorStoreRetriever
from combinators.components.retrieval.vectorstore import cosine_similarity as cosine_similarity

__all__ = [
    "BaseRetriever",
    "Bm25Index",
    "Bm25Retriever",
    "Document",
    "DocumentFilter",
    "ENGLISH_STOPWORDS",
    "Embeddings",
    "HashedNgramEmbeddings",
    "InMemoryVectorStore",
    "SentenceEmbeddings",
    "VectorStoreRetriever",
    "cosine_similarity",
    "format_documents_as_string",
    "load_text_documents",
    "tokenize",
]
