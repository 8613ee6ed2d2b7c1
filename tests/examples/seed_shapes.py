"""The shapes of what the seed pages' examples print, compared between LangChain and us.

A shape keeps what a reader of the page looks at and drops what differs from run to run
or between two faithful implementations of the same thing (ids, times, the exact repr
of a provider's metadata). ``record_seed_shapes.py`` writes LangChain's into
``golden/seed_shapes.json``; ``test_seed_pages.py`` computes ours and compares.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).with_name("golden") / "seed_shapes.json"

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?")
_STRING = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""

IGNORED_METADATA = frozenset({"ls_integration", "lc_versions", "ls_temperature"})
"""Run metadata left out of the stream-log shape: LangChain stamps its integration and
version on every model run, and ``ls_temperature`` is there only when the model has a
temperature (langchain-community's model defaults to 0.7; ours leaves it to the
provider)."""


def normalise(printed: str) -> str:
    """``printed`` with ids and times replaced by placeholders."""
    return _TIME.sub("<time>", _UUID.sub("<uuid>", printed))


def message_shape(text: str) -> dict[str, Any]:
    """A printed chat message: its class (when the print names it), content, and whether
    it shows an id and the provider's metadata."""
    match = re.search(rf"(\w*Message\w*)?\(?(?:content=)?({_STRING})", text)
    assert match is not None, text
    return {
        "content": ast.literal_eval(match.group(2)),
        "has_id": re.search(r"\bid=", text) is not None,
        "has_response_metadata": "response_metadata=" in text,
    }


def _messages(printed: str) -> list[dict[str, Any]]:
    parts = re.split(r"(?=AIMessage\()", printed.strip().removeprefix("[").removesuffix("]"))
    return [message_shape(part) for part in parts if part.strip(" ,")]


def _errors(printed: str) -> list[dict[str, Any]]:
    found = re.findall(rf"(\w+)\(({_STRING})\)", printed)
    return [
        {
            "class_ends": "NotFoundError" if name.endswith("NotFoundError") else name,
            "says_404": "404" in message,
            "says_the_server_message": "The model `badmodel` does not exist" in message,
        }
        for name, message in found
    ]


def _log_shape(printed: str) -> dict[str, Any]:
    lines = printed.splitlines()
    ops = [op for line in lines if line.startswith("{") for op in json.loads(line)["ops"]]
    runs: dict[str, dict[str, Any]] = {}
    run_paths: dict[str, list[str]] = {}
    root_paths: list[str] = []
    for op in ops:
        path: str = op["path"]
        if not path.startswith("/logs/"):
            root_paths.append(f"{op['op']} {path}")
            continue
        name, _, rest = path[len("/logs/") :].partition("/")
        if not rest:
            value = op["value"]
            runs[name] = {
                "type": value["type"],
                "tags": value["tags"],
                "metadata": sorted(set(value["metadata"]) - IGNORED_METADATA),
            }
        run_paths.setdefault(name, []).append(f"{op['op']} {rest}")
    aggregate = next(line for line in lines if line.startswith("aggregate"))
    tail = "\n".join(lines[lines.index(aggregate) :])
    return {
        "first": [f"{op['op']} {op['path']}" for op in json.loads(lines[0])["ops"]],
        "runs": runs,
        "run_paths": {name: _squeeze(paths) for name, paths in run_paths.items()},
        "root_paths": _squeeze(root_paths),
        "streamed_output": [op["value"] for op in ops if op["path"] == "/streamed_output/-"],
        "final_output": [op["value"] for op in ops if op["path"] == "/final_output"][-1],
        "aggregate": {
            "prints": aggregate.split("(", 1)[0],
            "keys": sorted(set(re.findall(r"^ ?'(\w+)': ", tail.replace("RunLog({", "\n", 1), re.M))),
            "logs": sorted(a or b for a, b in re.findall(r"^ 'logs': \{'([^']+)'|^ {10}'([^']+)': \{", tail, re.M)),
        },
    }


def _squeeze(paths: list[str]) -> list[str]:
    """Runs of the same path as one entry with a count (``add streamed_output/- x3``)."""
    squeezed: list[str] = []
    count = 0
    for index, path in enumerate(paths):
        count += 1
        if index + 1 == len(paths) or paths[index + 1] != path:
            squeezed.append(path if count == 1 else f"{path} x{count}")
            count = 0
    return squeezed


def _top_keys(text: str) -> list[str]:
    """The keys of the dict printed in ``text`` (its top level only)."""
    keys: list[str] = []
    depth = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char in "'\"":
            literal = re.match(_STRING, text[index:])
            assert literal is not None, text[index:]
            if depth == 1 and text[index + literal.end() :].startswith(": "):
                keys.append(ast.literal_eval(literal.group(0)))
            index += literal.end()
            continue
        depth += 1 if char in "([{" else -1 if char in ")]}" else 0
        index += 1
    return keys


def _agent_shape(printed: str) -> list[str]:
    shaped: list[str] = []
    for line in printed.splitlines():
        if line.startswith("Agent output was: "):
            keys = _top_keys(line[len("Agent output was: ") :])
            answer = re.search(rf"'output': ({_STRING})", line)
            shaped.append(f"Agent output was: keys {keys}, output {answer and ast.literal_eval(answer.group(1))!r}")
        else:
            shaped.append(line)
    return shaped


def _event_shape(printed: str) -> list[dict[str, Any]]:
    events = [ast.literal_eval(_UUID.sub("<uuid>", line)) for line in printed.splitlines()]
    return [{"keys": list(event), **{k: v for k, v in event.items() if k != "run_id"}} for event in events]


def shape(example: str, printed: str) -> Any:
    """The shape of what ``example`` printed."""
    if example == "stream":
        return printed.splitlines()
    if example == "invoke":
        return message_shape(printed)
    if example == "batch":
        return _messages(printed)
    if example == "batch_with_options":
        return _errors(printed)
    if example == "stream_log":
        return _log_shape(printed)
    if example == "stream_events_of_an_agent":
        return _agent_shape(printed)
    if example == "dispatch_custom_event":
        return _event_shape(printed)
    raise KeyError(example)
