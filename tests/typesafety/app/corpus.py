"""The documents and the retriever over them."""

from combinators.documents import Document
from combinators.retrievers import Bm25Index, Bm25Retriever

NOTES = [
    Document("The lamp is lit at dusk and put out at dawn.", metadata={"source": "lamp"}),
    Document("The ferry leaves the harbour at nine.", metadata={"source": "ferry"}),
    Document("The keeper writes the weather in the logbook.", metadata={"source": "logbook"}),
]


def build_retriever(k: int = 2) -> Bm25Retriever:
    return Bm25Index.from_documents(NOTES).as_retriever(k=k)


def format_documents(documents: list[Document]) -> str:
    return "\n\n".join(document.page_content for document in documents)


def sources_of(documents: list[Document]) -> list[str]:
    return [str(document.metadata.get("source", "?")) for document in documents]
