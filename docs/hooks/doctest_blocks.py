"""MkDocs hook: ``>>>`` examples outside a code fence (in docstrings) render as Python code.

Docstrings are plain text whose examples the tests run; written into a page as Markdown,
their outputs (``['a', 'b']``) would read as links. A Markdown preprocessor puts each run
of example lines, up to the next blank line, in a ``pycon`` fence; fenced blocks (the
guides') are left as they are.
"""

from __future__ import annotations

import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority

FENCE = re.compile(r"^\s*(```|~~~)")
PROMPT = re.compile(r"^(\s*)>>> ")


def fence_examples(lines: list[str]) -> list[str]:
    """The lines, with each unfenced run of ``>>>`` example lines wrapped in a fence.

    >>> fence_examples(["Text", ">>> 1 + 1", "2", "", "more"])
    ['Text', '', '```pycon', '>>> 1 + 1', '2', '```', '', '', 'more']
    """
    out: list[str] = []
    in_fence = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if FENCE.match(line):
            in_fence = not in_fence
        prompt = PROMPT.match(line)
        if in_fence or prompt is None:
            out.append(line)
            index += 1
            continue
        indent = prompt.group(1)
        block: list[str] = []
        while index < len(lines) and lines[index].strip():
            block.append(lines[index][len(indent) :] if lines[index].startswith(indent) else lines[index])
            index += 1
        out.extend(["", f"{indent}```pycon", *(indent + b for b in block), f"{indent}```", ""])
    return out


class DoctestFences(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return fence_examples(lines)


class DoctestFencesExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Markdown's own name
        # before the fenced-code preprocessors (superfences runs at 25-32)
        md.preprocessors.register(DoctestFences(md), "doctest_fences", 40)


@event_priority(100)  # before mkdocstrings reads the extensions
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    config.markdown_extensions.insert(0, DoctestFencesExtension())  # type: ignore[arg-type]
    return config
