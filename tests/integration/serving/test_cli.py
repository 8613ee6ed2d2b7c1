"""The command line serves ``module:attribute``, and the serving guide's curl lines work against it."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from combinators.integrations.serving.cli import load_target, main
from effects.projections import SseFrameParser

ROOT = Path(__file__).resolve().parents[3]
README_URL = "http://127.0.0.1:8000"


def readme_curl_lines() -> list[str]:
    text = (ROOT / "docs" / "serving.md").read_text()
    return [line for line in text.splitlines() if line.startswith("curl ")]


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("OPENAI_BASE_URL", None)
    command = [
        sys.executable,
        "-m",
        "combinators.integrations.serving",
        "examples.rag:chain",
        "--port",
        "0",
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+)/chain ", line)
        assert match, line
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(20)


def test_the_readme_curl_lines_work(served: str) -> None:
    if not shutil.which("curl"):
        if os.environ.get("CI") == "true":
            pytest.fail("curl is missing")
        pytest.skip("curl is missing")
    lines = readme_curl_lines()
    assert len(lines) == 5
    outputs = []
    for line in lines:
        assert README_URL in line
        done = subprocess.run(shlex.split(line.replace(README_URL, served)), capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    invoke, batch, stream, events, schema = outputs
    assert "two white flashes every ten seconds" in json.loads(invoke)["output"]
    assert len(json.loads(batch)["output"]) == 2
    frames = SseFrameParser().feed(stream)
    assert frames[0].event == "metadata" and frames[-1].event == "end"
    assert "".join(json.loads(f.data or "") for f in frames if f.event == "data") == json.loads(invoke)["output"]
    kinds = {json.loads(f.data or "")["event"] for f in SseFrameParser().feed(events) if f.event == "data"}
    assert kinds == {"on_chat_model_start", "on_chat_model_stream", "on_chat_model_end"}
    assert json.loads(schema)["title"] == "RunnableParallel<context,question>Input"  # its first step's, as LangChain


def test_a_bad_target_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no.such.module:chain"]) == 2
    assert "No module named 'no'" in capsys.readouterr().out
    assert main(["combinators:RunConfig"]) == 2
    with pytest.raises(ValueError, match="expected module:attribute"):
        load_target("examples.rag")


def test_a_function_without_arguments_gives_the_runnable() -> None:
    chain = load_target("examples.rag:chain")
    assert chain.invoke("Who keeps the light?")
