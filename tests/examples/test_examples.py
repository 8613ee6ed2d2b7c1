"""The examples run offline, in a few seconds, and print what their docstrings promise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonpatch

ROOT = Path(__file__).resolve().parents[2]


def run_example(name: str) -> list[str]:
    """The lines an example prints, run as a user runs it (a fresh interpreter)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout.splitlines()


def section(lines: list[str], title: str) -> list[str]:
    """The indented lines under ``title:``."""
    start = lines.index(f"{title}:") + 1
    body: list[str] = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        body.append(line[2:])
    return body


def test_jokes_invokes_batches_and_streams() -> None:
    lines = run_example("jokes.py")
    assert section(lines, "invoke") == ["Why did the cat sit on the computer? To keep an eye on the mouse."]
    assert section(lines, "batch (max_concurrency=2, return_exceptions=True)") == [
        "dogs: What do you call a dog magician? A labracadabrador.",
        "unicorns: error: LookupError: no joke about 'unicorns'",
        "owls: Why do owls never go out in the rain? It is too wet to woo.",
    ]
    [streamed] = section(lines, "stream")
    tokens = streamed.split("|")
    assert len(tokens) == 15 and "".join(tokens) == "Why do owls never go out in the rain? It is too wet to woo."


def test_json_stream_shows_partial_values_diffs_and_a_typed_result() -> None:
    lines = run_example("json_stream.py")
    partials = [json.loads(line) for line in section(lines, "partial values")]
    assert partials[0] == {} and len(partials) == 7
    assert partials[2] == {"title": "Moby-Dick", "author": "Herman"}  # a string still arriving
    assert partials[-1] == {"title": "Moby-Dick", "author": "Herman Melville", "year": 1851, "tags": ["whale", "sea"]}
    assert all(a != b for a, b in zip(partials, partials[1:]))  # a value only when it changed
    diffs = [json.loads(line) for line in section(lines, "diffs")]
    assert diffs[0] == [{"op": "replace", "path": "", "value": {}}]
    assert diffs[-1] == [{"op": "add", "path": "/tags/1", "value": "sea"}]
    assert len(diffs) == len(partials)
    state: object = None
    for ops, partial in zip(diffs, partials, strict=True):  # each patch rebuilds the next value
        state = jsonpatch.apply_patch(state, ops)
        assert state == partial
    assert section(lines, "typed") == [
        "Book(title='Moby-Dick', author='Herman Melville', year=1851, tags=['whale', 'sea'])"
    ]
    assert "JSON Schema" in section(lines, "format instructions")[0]


def test_the_serving_example_lets_clients_set_only_what_it_names() -> None:
    lines = run_example("serving.py")
    assert lines[0] == "a client may set: ['sentences']"
    default, one, hostile = (line.split(" -> ")[1] for line in lines[1:])
    assert one in default and len(default) > len(one)  # the id the server named took effect
    assert hostile == one  # the key it did not name was dropped: the run went on as asked
