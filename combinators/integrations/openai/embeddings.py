"""``OpenAIEmbeddings``: vectors from any server that speaks OpenAI's embeddings protocol.

For the vector store: ``InMemoryVectorStore(OpenAIEmbeddings(...))``. Settings,
secrets and errors work as for ``ChatOpenAI`` (the optional extra ``openai``; the key
from ``OPENAI_API_KEY`` only when none is given; typed errors with ``status`` and
``model``). Texts go ``chunk_size`` per request; vectors come back in input order.

>>> OpenAIEmbeddings(model="nomic-embed-text", base_url="http://127.0.0.1:11434/v1")
OpenAIEmbeddings(model='nomic-embed-text', base_url='http://127.0.0.1:11434/v1')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final, final

import attrs

from combinators.components.retrieval.embeddings import Embeddings, check_query, check_texts
from combinators.integrations.openai.client import (
    ClientCache,
    OpenAIConnection,
    check_retries,
    shown_fields,
    to_body,
    to_secret,
)
from combinators.components.models.errors import ModelResponseError
from combinators.authoring import sensitive
from combinators.components.secrets import SET_BY_LOADS, Secret
from effects.authoring import is_a

if TYPE_CHECKING:
    from openai.types import CreateEmbeddingResponse

__all__ = ["OpenAIEmbeddings"]

DEFAULT_EMBEDDING_MODEL: Final = "text-embedding-3-small"


def _check_dimensions(_instance: object, _attribute: object, value: int | None) -> None:
    if value is not None:
        _check_chunk_size(_instance, _attribute, value)


def _check_chunk_size(_instance: object, _attribute: object, value: int) -> None:
    if not is_a(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"OpenAIEmbeddings dimensions and chunk_size must be ints >= 1, got {value!r}")


@final
@attrs.frozen(repr=False)
class OpenAIEmbeddings(Embeddings, OpenAIConnection):
    """Embeddings over the OpenAI ``/embeddings`` protocol.

    ``dimensions`` asks models that support it for shorter vectors; ``extra_body`` is
    merged into every request. Built by ``loads``, it has ``secrets_from_env=False`` and
    reads no secret from the environment (see ``ChatOpenAI``).

    >>> OpenAIEmbeddings(dimensions=256, chunk_size=64).dimensions
    256
    """

    model: str = DEFAULT_EMBEDDING_MODEL
    base_url: str | None = attrs.field(default=None, metadata=sensitive("endpoint"))
    api_key: Secret | None = attrs.field(default=None, converter=to_secret, metadata=sensitive("secret"))
    dimensions: int | None = attrs.field(default=None, validator=_check_dimensions)
    chunk_size: int = attrs.field(default=512, validator=_check_chunk_size)
    timeout: float | None = None
    max_retries: int = attrs.field(default=2, validator=check_retries)
    extra_body: Mapping[str, object] = attrs.field(factory=dict[str, object], converter=to_body, hash=False)
    secrets_from_env: bool = attrs.field(default=True, metadata={SET_BY_LOADS: False, **sensitive("secret")})
    _clients: ClientCache = attrs.field(init=False, factory=ClientCache, eq=False, repr=False)

    def __repr__(self) -> str:
        return f"OpenAIEmbeddings({shown_fields(self)})"

    def _extra(self) -> dict[str, object]:
        extra = dict(self.extra_body)
        if self.dimensions is not None:
            extra.setdefault("dimensions", self.dimensions)
        return extra

    def _batches(self, texts: list[str]) -> list[list[str]]:
        return [texts[start : start + self.chunk_size] for start in range(0, len(texts), self.chunk_size)]

    def _vectors(self, response: CreateEmbeddingResponse, count: int) -> list[list[float]]:
        items = sorted(response.data, key=lambda item: item.index)
        if len(items) != count:
            raise ModelResponseError(
                service="openai",
                hint=f"{len(items)} vectors for {count} texts",
                model=self.model,
                base_url=self.resolved_base_url,
            )
        return [[float(x) for x in item.embedding] for item in items]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order (``chunk_size`` texts per request).

        >>> OpenAIEmbeddings().embed_documents([])
        []
        """
        vectors: list[list[float]] = []
        for batch in self._batches(check_texts(texts)):
            with self._typed_errors(self.model):
                response = self._sync_client().embeddings.create(
                    input=batch, model=self.model, encoding_format="float", extra_body=self._extra()
                )
            vectors.extend(self._vectors(response, len(batch)))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query."""
        return self.embed_documents([check_query(text)])[0]

    async def aembed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Async ``embed_documents``, on the running loop's client.

        >>> import asyncio
        >>> asyncio.run(OpenAIEmbeddings().aembed_documents([]))
        []
        """
        vectors: list[list[float]] = []
        for batch in self._batches(check_texts(texts)):
            with self._typed_errors(self.model):
                response = await self._async_client().embeddings.create(
                    input=batch, model=self.model, encoding_format="float", extra_body=self._extra()
                )
            vectors.extend(self._vectors(response, len(batch)))
        return vectors

    async def aembed_query(self, text: str) -> list[float]:
        """Async ``embed_query``."""
        return (await self.aembed_documents([check_query(text)]))[0]
