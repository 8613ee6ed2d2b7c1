"""Documents: the value retrievers return, and loading and formatting them (LangChain's ``langchain_core.documents``).

>>> from combinators.documents import Document
>>> Document(page_content="text", metadata={"id": 1}).metadata
{'id': 1}
"""

from combinators.components.retrieval.documents import Document as Document
from combinators.components.retrieval.documents import format_documents_as_string as format_documents_as_string
from combinators.components.retrieval.documents import load_text_documents as load_text_documents

__all__ = [
    "Document",
    "format_documents_as_string",
    "load_text_documents",
]
