"""Rendering DOT text with Graphviz's ``dot`` program (a subprocess; no Python binding needed).

>>> from combinators.graph import Graph, Node
>>> render(Graph((Node("a", "A"),), ()).draw_dot(), "svg").startswith(b"<?xml")
True
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Final, Literal

from effects.errors import CombinatorsError

Format = Literal["svg", "png"]

INSTALL_HINT: Final = (
    "install Graphviz: the Debian/Ubuntu package `graphviz` (apt-get install graphviz), or `brew install graphviz`"
)


class GraphvizNotFound(CombinatorsError, FileNotFoundError):
    """Graphviz's ``dot`` program is not on ``PATH``; the message says what to install.

    >>> issubclass(GraphvizNotFound, FileNotFoundError)
    True
    """


def render(dot: str, format: Format) -> bytes:
    """``dot -T<format>`` of the DOT text: SVG text or PNG bytes."""
    program = shutil.which("dot")
    if program is None:
        raise GraphvizNotFound(
            f"drawing a graph as {format.upper()} runs Graphviz's `dot` program, which is not"
            f" on PATH: {INSTALL_HINT}. draw_dot(), draw_mermaid() and draw_ascii() need nothing."
        )
    done = subprocess.run([program, f"-T{format}"], input=dot.encode(), capture_output=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"Graphviz's dot failed ({done.returncode}): {done.stderr.decode().strip()}")
    return done.stdout
