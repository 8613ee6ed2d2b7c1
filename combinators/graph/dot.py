"""``draw_dot``: a graph as Graphviz DOT text, and ``render``: that text rendered by
Graphviz's ``dot`` program (``dot -Tsvg`` / ``-Tpng``, a subprocess; no Python binding needed).

Colours are ``#rrggbb`` (dot 2.43 misreads ``#rgb``); quotes, backslashes and newlines
in labels and ids are escaped. A fork where one branch runs is a diamond with dashed,
labelled edges; joins are points; groups are dashed clusters; failed steps are red,
remote runnables dashed blue, agents orange with a double border.

>>> from combinators.graph import Edge, Graph, Node
>>> print(draw_dot(Graph((Node("a", 'C:\\\\tmp "x"', status="failed"),), ())).splitlines()[4])
    "a" [label="C:\\\\tmp \\"x\\"\\n(failed)", fillcolor="#ffd6d6", color="#c00000", penwidth=2];
>>> render(Graph((Node("a", "A"),), ()).draw_dot(), "svg").startswith(b"<?xml")
True
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Final, Literal

from combinators.graph.value import Graph, Node
from effects.errors import CombinatorsError

_HEADER: Final = (
    "digraph {",
    '    graph [rankdir=TB, fontname="Helvetica", fontsize=11, nodesep=0.3, ranksep=0.35];',
    '    node [shape=box, style="rounded,filled", fillcolor="#f2f0ff", color="#6c5fc7",'
    ' fontname="Helvetica", fontsize=11];',
    '    edge [color="#555555", fontname="Helvetica", fontsize=10, arrowsize=0.7];',
)

_KIND_STYLE: Final = {
    "input": 'shape=oval, fillcolor="#ffffff"',
    "output": 'shape=oval, fillcolor="#bfb6fc"',
    "join": 'shape=point, width=0.12, label="", color="#6c5fc7", fillcolor="#6c5fc7"',
    "remote": 'style="rounded,filled,dashed", fillcolor="#e6f2ff", color="#1f6feb"',
    "agent": 'fillcolor="#fff0e0", color="#d9730d", peripheries=2',
}
_STATUS_STYLE: Final = {
    "failed": 'fillcolor="#ffd6d6", color="#c00000", penwidth=2',
    "ok": 'fillcolor="#dcf5dc", color="#2da44e"',
}


def quoted(text: str) -> str:
    """A DOT string: backslashes, quotes and newlines escaped.

    >>> print(quoted('a "b" \\\\ c'))
    "a \\"b\\" \\\\ c"
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _label(node: Node) -> str:
    if node.status == "failed":
        return f"{node.name}\n(failed)"
    if node.kind in ("remote", "agent"):
        return f"{node.name}\n({node.kind})"
    return node.name


def _node_line(node: Node, conditional_fork: bool, indent: str) -> str:
    styles: list[str] = []
    if node.kind != "join":
        styles.append(f"label={quoted(_label(node))}")
    if node.kind == "fork":
        styles.append(
            'shape=diamond, fillcolor="#fff4d6", color="#b08800"' if conditional_fork else 'fillcolor="#e8e4ff"'
        )
    elif node.kind in _KIND_STYLE:
        styles.append(_KIND_STYLE[node.kind])
    if node.status is not None:
        styles.append(_STATUS_STYLE[node.status])
    return f"{indent}{quoted(node.id)} [{', '.join(styles)}];"


def draw_dot(graph: Graph) -> str:
    """The graph as DOT text."""
    conditional = {e.source for e in graph.edges if e.conditional}
    grouped = {id for g in graph.groups for id in g.nodes}
    lines: list[str] = list(_HEADER)
    lines.extend(_node_line(n, n.id in conditional, "    ") for n in graph.nodes if n.id not in grouped)
    # A node sits in its innermost group only (Graphviz keeps a node in one cluster).
    for depth, what, item in graph.group_outline():
        indent = "    " * (depth + 1)
        if isinstance(item, Node):
            lines.append(_node_line(item, item.id in conditional, indent))
        elif what == "open":
            lines.append(f"{indent}subgraph {quoted('cluster_' + item.id)} {{")
            lines.append(
                f'{indent}    label={quoted(item.label)}; style="dashed,rounded"; color="#888888"; fontsize=10;'
            )
        else:
            lines.append(f"{indent}}}")
    for edge in graph.edges:
        styles: list[str] = []
        if edge.conditional:
            styles.append("style=dashed")
        if edge.label:
            styles.append(f"label={quoted(edge.label)}")
        tail = f" [{', '.join(styles)}]" if styles else ""
        lines.append(f"    {quoted(edge.source)} -> {quoted(edge.target)}{tail};")
    lines.append("}")
    return "\n".join(lines)


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
