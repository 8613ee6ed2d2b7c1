"""The quickstart (examples/rag.py) runs offline and shows the answer and the run tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "rag.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    return done.stdout


def test_quickstart_streams_an_answer_from_the_corpus_and_prints_the_run_tree() -> None:
    out = run()
    question, answer = out.splitlines()[:2]
    assert question == "Q: What pattern of flashes does the light show?"
    assert "two white flashes every ten seconds" in answer
    tree = out.split("Run tree:\n", 1)[1].splitlines()
    assert tree[0].startswith("RunnableSequence (chain) ")
    names = [line.lstrip("│├└─ ").split(" (")[0] for line in tree]
    assert names[1:] == [
        "RunnableParallel<context,question>",
        "RunnableSequence",
        "Bm25Retriever",
        "format_documents_as_string",
        "RunnablePassthrough",
        "ChatPromptTemplate",
        "ExtractiveChatModel",
        "StrOutputParser",
    ]
    assert all(line.rstrip().endswith(" ms") for line in tree)


def test_quickstart_answers_other_questions_from_the_context_only() -> None:
    out = run("When do puffins nest?")
    assert "puffins arrive in early April" in out.splitlines()[1]
    unknown = run("What is the capital of Mars?")
    assert "I don't know" in unknown.splitlines()[1]


def test_quickstart_prints_log_patches_on_request() -> None:
    out = run("--log", "When is the museum open?")
    log = out.split("Run log patches:\n", 1)[1]
    assert log.startswith("RunLogPatch(")
    assert "/logs/ExtractiveChatModel" in log
    assert "'/final_output'" in log


def test_quickstart_writes_a_timeline_of_the_run(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ElementTree

    svg = tmp_path / "run.svg"
    out = run("--timeline", str(svg), "When do puffins nest?")
    assert f"Timeline written to {svg}" in out
    root = ElementTree.fromstring(svg.read_text())
    texts = [(t.text or "").strip() for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0].startswith("Q: When do puffins nest? — ") and texts[0].endswith("9 runs")
    for name in ("RunnableParallel<context,question>", "Bm25Retriever", "ExtractiveChatModel", "StrOutputParser"):
        assert name in texts
    assert svg.read_text().count('class="tick"') > 20  # the answer streamed word by word
