"""W15: ``JsonOutputParser`` streaming, plain and ``diff=True``, µs per token vs length.

The reply is what a model writes for a structured extraction: ``{"items": [...]}``, a
list of small records, cut into 4-character tokens. Each side streams it through its
own ``JsonOutputParser(...).transform``. Flat per-token cost is the goal, and diff mode
reaches it: each token's operations concern the changed suffix only.

Plain mode yields the whole value so far at each change. It decides on the stream's
moments (marks: the open containers and their lengths), compared by ``==`` along what
changed only, and each yield copies the containers still open: here the ``items`` list,
whose length grows with the reply, a C-level copy of references (the reason its row
sits above diff mode's, about 1.2x, within its budget). Completed records are shared
between successive values (a documented difference from the peer). Values sharing no
container, as the peer's re-parsed values, would mean a deep copy per yield: Θ(n) per
token, Θ(n²) over the stream (about 50x at 50k / 1k).
The peer re-parses the whole text per token (quadratic): it runs at the smallest size.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

from bench.harness import compare_sync, describe_error
from bench.libs import Lib
from bench.record import Cell, Results, quotient

US = 1e6
TOKEN_CHARS = 4


def reply_tokens(count: int) -> list[str]:
    """``count`` tokens of a ``{"items": [...]}`` reply (cut at a token boundary)."""
    records: list[str] = []
    size = 0
    i = 0
    while size < count * TOKEN_CHARS:
        record = json.dumps({"id": i, "name": f"item number {i}", "tags": ["alpha", "beta"], "ok": i % 2 == 0})
        records.append(record)
        size += len(record) + 2
        i += 1
    text = '{"items": [' + ", ".join(records) + "]}"
    return [text[at : at + TOKEN_CHARS] for at in range(0, count * TOKEN_CHARS, TOKEN_CHARS)]


def _parser_class(lib: Lib | str) -> Any:
    """The side's ``JsonOutputParser`` class, or why there is none."""
    if not isinstance(lib, Lib):
        return lib
    module = "combinators.components" if lib.label == "ours" else "langchain_core.output_parsers"
    try:
        return importlib.import_module(module).JsonOutputParser
    except Exception as exc:
        return describe_error(exc)


def _consume(parser: Any, tokens: list[str]) -> int:
    count = 0
    items: Iterator[object] = parser.transform(iter(tokens))
    for _ in items:
        count += 1
    return count


def w15_json_streaming(res: Results) -> None:
    s = res.settings
    classes = {side: _parser_class(lib) for side, lib in res.libs().items()}
    smallest = min(s.scaling_sizes)
    for diff in (False, True):
        mode = "JsonOutputParser(diff=True)" if diff else "JsonOutputParser()"
        per_token: dict[int, Cell] = {}
        for n in s.scaling_sizes:
            tokens = reply_tokens(n)
            sides: dict[str, Any] = {}
            for side, cls in classes.items():
                if isinstance(cls, str) or cls is None:
                    sides[side] = cls
                elif side == "peer" and n > smallest:
                    sides[side] = "skipped: quadratic"
                else:
                    parser = cls(diff=diff)
                    sides[side] = lambda parser=parser, tokens=tokens: _consume(parser, tokens)
            out = compare_sync(sides, repeat=s.repeat_heavy, target=s.target)
            row = res.add("W15", f"{mode} µs/token at {n} tokens", "µs", out, US / n)
            per_token[n] = row.ours
        growth = quotient(per_token[max(s.scaling_sizes)], per_token[smallest])
        res.budget(
            "W15",
            f"{mode} µs/token at {max(s.scaling_sizes) // 1000}k / at {smallest // 1000}k (ours)",
            growth,
            "<=",
            1.3,
        )
