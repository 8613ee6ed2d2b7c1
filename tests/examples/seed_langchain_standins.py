"""LangChain's side of the seed examples' stand-ins, for ``record_seed_shapes.py`` only.

Imports LangChain itself (langchain-core, langchain-community, openai): never imported by
the test suite's own process except through the recorder.
"""

from __future__ import annotations

from typing import Any

import openai
from langchain_community.chat_models.openai import ChatOpenAI as _CommunityChatOpenAI
from langchain_core.embeddings import Embeddings


class ChatOpenAI(_CommunityChatOpenAI):
    """langchain-community's OpenAI chat model (langchain-openai is not installed),
    streaming in ``astream`` as langchain-openai's does."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if "streaming" not in kwargs:  # its validator marks the default as set, which turns astream off
            self.__pydantic_fields_set__.discard("streaming")


class OpenAIEmbeddings(Embeddings):
    """Embeddings from the stub through the ``openai`` SDK (langchain-community's needs
    tiktoken's files from the network)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        reply = openai.OpenAI().embeddings.create(input=texts, model="text-embedding-ada-002")
        return [list(item.embedding) for item in sorted(reply.data, key=lambda item: item.index)]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def format_documents_as_string(documents: list[Any]) -> str:
    """LangChain.js's ``formatDocumentsAsString`` (langchain/util/document; JS-only)."""
    return "\n\n".join(document.page_content for document in documents)
