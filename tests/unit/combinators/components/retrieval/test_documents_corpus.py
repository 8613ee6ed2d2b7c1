"""The bundled Gullhaven corpus: it loads, and both rankers find the known answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from combinators.components.retrieval.bm25 import ENGLISH_STOPWORDS, Bm25Index
from combinators.components.retrieval.documents import Document, load_text_documents
from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
from combinators.components.retrieval.vectorstore import InMemoryVectorStore

CORPUS = Path(__file__).resolve().parents[5] / "examples" / "corpus"

QUESTIONS = [
    ("How often does the Holm ferry sail in winter?", "12-ferry"),
    ("When does the foghorn sound?", "05-foghorn"),
    ("What happened in the storm of 1907?", "10-great-storm"),
    ("Where can I buy saffron buns?", "08-market"),
    ("Who is the lighthouse keeper?", "03-keeper"),
    ("When do puffins nest?", "13-seabirds"),
    ("Why is Quay Street flooded?", "07-tides"),
    ("What pattern of flashes does the light show?", "04-lamp"),
    ("When is the museum open?", "15-net-loft-museum"),
    ("What is Lantern Night?", "09-lantern-night"),
]


@pytest.fixture(scope="module")
def corpus() -> list[Document]:
    return load_text_documents(CORPUS)


def test_corpus_loads_in_file_order_with_ids_and_titles(corpus: list[Document]) -> None:
    assert 12 <= len(corpus) <= 20
    assert [doc.id for doc in corpus] == sorted(path.stem for path in CORPUS.glob("*.md"))
    assert corpus[1] == Document(
        (CORPUS / "02-lighthouse.md").read_text(encoding="utf-8").strip(),
        {"source": "02-lighthouse.md", "title": "The Skerry Point lighthouse"},
        id="02-lighthouse",
    )
    assert all(doc.page_content.startswith("# ") and 40 <= len(doc.page_content.split()) <= 120 for doc in corpus)


@pytest.mark.parametrize(("question", "answer"), QUESTIONS)
def test_bm25_finds_the_answer_first(corpus: list[Document], question: str, answer: str) -> None:
    index = Bm25Index.from_documents(corpus, stopwords=ENGLISH_STOPWORDS)
    assert index.search(question, k=1)[0][0].id == answer


@pytest.mark.parametrize(("question", "answer"), QUESTIONS)
def test_hashed_vector_store_finds_the_answer_first(corpus: list[Document], question: str, answer: str) -> None:
    store = InMemoryVectorStore(HashedNgramEmbeddings()).add_documents(corpus)
    assert store.similarity_search(question, k=1)[0].id == answer


def test_loader_skips_folders_and_other_suffixes(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("# B\nbee", encoding="utf-8")
    (tmp_path / "a.md").write_text("alpha", encoding="utf-8")
    (tmp_path / "c.txt").write_text("sea", encoding="utf-8")
    (tmp_path / "d.md").mkdir()
    (tmp_path / "e.md").write_text("", encoding="utf-8")
    docs = load_text_documents(tmp_path)
    assert [(doc.id, doc.metadata["title"]) for doc in docs] == [("a", "alpha"), ("b", "B"), ("e", "")]
    assert [doc.id for doc in load_text_documents(tmp_path, pattern="*.txt")] == ["c"]


def test_loader_names_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="load_text_documents expects a folder, got '.*nowhere'"):
        load_text_documents(tmp_path / "nowhere")
