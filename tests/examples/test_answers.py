"""The offline quickstart answers questions about its corpus correctly.

A table of questions, at least one per document of ``examples/corpus/``, each with words
the answer must hold (and, for the README's "Who keeps the light?", a wrong answer it must
not give). The answers come from the quickstart's own chain (``examples/rag.py``: BM25
retrieval, then ``ExtractiveChatModel``), so a change to either is judged here.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from combinators import Runnable

ROOT = Path(__file__).resolve().parents[2]

# (question, the document that answers it, what the answer must say, what it must not)
QUESTIONS: list[tuple[str, str, str, str | None]] = [
    # the README's and the guides' questions
    ("What pattern of flashes does the light show?", "04-lamp", "two white flashes every ten seconds", None),
    ("Who keeps the light?", "03-keeper", "Ida Marr", "Tomas Reyne"),
    ("When was the great storm?", "10-great-storm", "1907", None),
    ("When do puffins nest?", "13-seabirds", "early April", None),
    ("When is the museum open?", "15-net-loft-museum", "Tuesday to Sunday", None),
    # one or more per document
    ("How many people live in Gullhaven?", "01-gullhaven", "1,400", None),
    ("What is the name of the main road?", "01-gullhaven", "Quay Street", None),
    ("When was the lighthouse built?", "02-lighthouse", "1871", None),
    ("How tall is the lighthouse tower?", "02-lighthouse", "31 metres", None),
    ("How many steps lead up to the lamp room?", "02-lighthouse", "148 steps", None),
    ("When did Ida Marr take over as keeper?", "03-keeper", "2009", None),
    ("When are the lighthouse tours?", "03-keeper", "Wednesday and Sunday", None),
    ("How many glass prisms are in the lens?", "04-lamp", "172", None),
    ("How far out at sea can the light be seen?", "04-lamp", "40 kilometres", None),
    ("How often does the foghorn sound?", "05-foghorn", "every thirty seconds", None),
    ("What do the people of Gullhaven call the foghorn?", "05-foghorn", "Old Moaning", None),
    ("Who is the harbour master?", "06-harbour", "Tomas Reyne", None),
    ("What do the fishing boats bring back?", "06-harbour", "mackerel, herring and crab", None),
    ("How much does the tide rise and fall?", "07-tides", "four metres", None),
    ("When does the sea flood Quay Street?", "07-tides", "March and in October", None),
    ("What time does the Saturday market open?", "08-market", "eight in the morning", None),
    ("What does Wren's Bakery sell?", "08-market", "saffron buns", None),
    ("When is Lantern Night held?", "09-lantern-night", "first Saturday of November", None),
    ("How many men were lost in the Great Storm?", "10-great-storm", "nineteen men", None),
    ("How many volumes of logbooks does the town hold?", "11-logbook", "46 volumes", None),
    ("How long does the ferry take to cross to Holm?", "12-ferry", "fifty minutes", None),
    ("When is the ferry crossing cancelled?", "12-ferry", "force 7", None),
    ("How often does the weather station send a report?", "14-weather-station", "every three hours", None),
    ("Is entry to the museum free for children?", "15-net-loft-museum", "free for children", None),
    ("How many pupils does the school teach?", "16-school", "38 pupils", None),
    ("Where do older children go to secondary school?", "16-school", "Brennick", None),
]


@cache
def rag() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rag_example", ROOT / "examples" / "rag.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def chain() -> Runnable[str, str]:
    module = rag()
    return module.build_chain(module.ExtractiveChatModel(max_sentences=2))


def test_the_table_covers_every_document_of_the_corpus() -> None:
    documents = {path.stem for path in (ROOT / "examples" / "corpus").glob("*.md")}
    assert len(QUESTIONS) >= 25
    assert {document for _, document, _, _ in QUESTIONS} == documents


@pytest.mark.parametrize(("question", "document", "says", "never"), QUESTIONS, ids=[q for q, *_ in QUESTIONS])
def test_the_quickstart_answers(question: str, document: str, says: str, never: str | None) -> None:
    answer = chain().invoke(question)
    assert says in answer, f"{question!r} ({document}) was answered {answer!r}"
    if never is not None:
        assert never not in answer, f"{question!r} was answered with {never!r}: {answer!r}"


def readme_served_question() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (curl,) = [line for line in readme.splitlines() if line.startswith("curl ") and "/chain/invoke" in line]
    match = re.search(r'"input": "([^"]+)"', curl)
    assert match is not None, curl
    return match.group(1)


def test_the_served_chain_answers_the_readme_question(monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    from combinators.integrations.serving import serve
    from combinators.integrations.serving.cli import load_target

    question = readme_served_question()
    assert question == "Who keeps the light?"
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)  # the offline model
    app = serve({"/chain": load_target("examples.rag:chain")})
    with TestClient(app) as http:
        reply = http.post("/chain/invoke", json={"input": question})
    assert reply.status_code == 200, reply.text
    output = reply.json()["output"]
    assert "Ida Marr" in output and "Tomas Reyne" not in output, output


def test_the_agent_example_answers_who_keeps_the_light() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "agent.py"), "Who keeps the light?"],
        capture_output=True, text=True, timeout=120, check=True, env={**env, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    (output,) = [line for line in done.stdout.splitlines() if line.startswith("Agent output was: ")]
    assert "Ida Marr" in output and "Tomas Reyne" not in output, output
