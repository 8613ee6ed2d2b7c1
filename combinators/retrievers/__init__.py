"""Retrievers: the base of retrievers written as classes, and BM25 (LangChain's ``langchain_core.retrievers``).

>>> from combinators.retrievers import Bm25Retriever
>>> from combinators.documents import Document
>>> retriever = Bm25Retriever.from_documents([Document(page_content="cats purr"), Document(page_content="dogs bark")], k=1)
>>> [d.page_content for d in retriever.invoke("purr")]
['cats purr']
"""

from combinators.components.retrieval.documents import BaseRetriever as BaseRetriever
from combinators.components.retrieval.bm25 import Bm25Index as Bm25Index
from combinators.components.retrieval.bm25 import Bm25Retriever as Bm25Retriever
from combinators.components.retrieval.bm25 import ENGLISH_STOPWORDS as ENGLISH_STOPWORDS
from combinators.components.retrieval.bm25 import tokenize as tokenize

__all__ = [
    "BaseRetriever",
    "Bm25Index",
    "Bm25Retriever",
    "ENGLISH_STOPWORDS",
    "tokenize",
]
