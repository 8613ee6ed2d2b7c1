"""``draw_mermaid``: a graph as Mermaid flowchart text (offline: text only, no network route).

Steps are boxes, the chain's ends stadiums, a fork where one branch runs a rhombus with
dotted, labelled edges; joins are small circles; groups (retry, each) are subgraphs.
Failed steps, remote runnables and agents get classes of their own.

>>> from combinators.graph import Edge, Graph, Node
>>> g = Graph((Node("f", "Branch", kind="fork"), Node("a", 'say "<hi>"', status="failed")),
...           (Edge("f", "a", conditional=True, label="x > 0"),))
>>> print("\\n".join(draw_mermaid(g).splitlines()[1:4]))
    f{"Branch"}:::fork
    a["say #quot;#lt;hi#gt;#quot;"]:::failed
    f -. "x #gt; 0" .-> a;
"""

from __future__ import annotations

from typing import Final

from combinators.graph.value import Graph, Node

_CLASSES: Final = (
    "classDef default fill:#f2f0ff,stroke:#6c5fc7,line-height:1.2",
    "classDef first fill:#ffffff,stroke:#6c5fc7",
    "classDef last fill:#bfb6fc,stroke:#6c5fc7",
    "classDef fork fill:#fff4d6,stroke:#b08800",
    "classDef join fill:#6c5fc7,stroke:#6c5fc7",
    "classDef remote fill:#e6f2ff,stroke:#1f6feb,stroke-dasharray:5 3",
    "classDef agent fill:#fff0e0,stroke:#d9730d,stroke-width:2px",
    "classDef ok fill:#dcf5dc,stroke:#2da44e",
    "classDef failed fill:#ffd6d6,stroke:#c00000,stroke-width:2px",
)


def _text(text: str) -> str:
    """A quoted Mermaid label: ``#`` first, then quotes and angle brackets as entity codes."""
    escaped = text.replace("#", "#35;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
    return f'"{escaped}"'


def _class(node: Node) -> str | None:
    if node.status is not None:
        return node.status
    return {"input": "first", "output": "last"}.get(node.kind, node.kind if node.kind != "step" else None)


def _shape(node: Node, conditional_fork: bool) -> str:
    label = _text(node.name)
    if node.kind in ("input", "output"):
        return f"([{label}])"
    if node.kind == "join":
        return '((" "))'
    if node.kind == "fork" and conditional_fork:
        return f"{{{label}}}"
    if node.kind == "remote":
        return f"[/{label}/]"
    return f"[{label}]"


def draw_mermaid(graph: Graph) -> str:
    """The graph as Mermaid ``graph TD`` text."""
    conditional = {e.source for e in graph.edges if e.conditional}
    grouped = {id for g in graph.groups for id in g.nodes}
    lines = ["graph TD;"]
    lines.extend(_node_line(n, n.id in conditional, "    ") for n in graph.nodes if n.id not in grouped)
    for depth, what, item in graph.group_outline():  # a node sits in its innermost group only
        indent = "    " * (depth + 1)
        if isinstance(item, Node):
            lines.append(_node_line(item, item.id in conditional, indent))
        elif what == "open":
            lines.append(f"{indent}subgraph {item.id} [{_text(item.label)}]")
        else:
            lines.append(f"{indent}end")
    for edge in graph.edges:
        if edge.conditional:
            arrow = f"-. {_text(edge.label)} .->" if edge.label else "-.->"
        else:
            arrow = f"-- {_text(edge.label)} -->" if edge.label else "-->"
        lines.append(f"    {edge.source} {arrow} {edge.target};")
    lines.extend(f"    {line}" for line in _CLASSES if _used(line, graph))
    return "\n".join(lines)


def _node_line(node: Node, conditional_fork: bool, indent: str) -> str:
    kind = _class(node)
    return f"{indent}{node.id}{_shape(node, conditional_fork)}" + (f":::{kind}" if kind else "")


def _used(line: str, graph: Graph) -> bool:
    name = line.split()[1]
    return name == "default" or any(_class(n) == name for n in graph.nodes)
