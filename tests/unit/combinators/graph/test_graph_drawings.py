"""Golden drawings (ascii, Mermaid, DOT) of the quickstart chain, of a branch + parallel + retry chain and of an agent,
and the DOT rendered by Graphviz's ``dot`` into SVG and PNG.

Set ``UPDATE_GOLDENS=1`` to rewrite the golden files after a deliberate change (and read the diff).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from pathlib import Path

import pytest

from combinators import Runnable, RunnableLambda
from combinators.graph import Graph, GraphvizNotFound
from tests.unit.combinators.graph.chains import agent, mixed, quickstart

GOLDEN = Path(__file__).parent / "golden"
CHAINS: dict[str, Callable[[], Runnable[str, str]]] = {"quickstart": quickstart, "mixed": mixed, "agent": agent}
DRAWINGS: dict[str, Callable[[Graph], str]] = {
    "ascii": Graph.draw_ascii,
    "mermaid": Graph.draw_mermaid,
    "dot": Graph.draw_dot,
}


def require_dot() -> str:
    found = shutil.which("dot")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Graphviz's dot is missing in CI: apt-get install graphviz")
        pytest.skip("Graphviz's dot is not installed")
    return found


@pytest.mark.parametrize("drawing", DRAWINGS)
@pytest.mark.parametrize("chain", CHAINS)
def test_drawings_match_their_golden_text(chain: str, drawing: str) -> None:
    text = DRAWINGS[drawing](CHAINS[chain]().get_graph())
    golden = GOLDEN / f"{chain}.{drawing}.txt"
    if os.environ.get("UPDATE_GOLDENS") == "1":
        golden.write_text(text + "\n")
    assert text + "\n" == golden.read_text()


def test_the_mixed_chain_shows_its_branch_parallel_and_retry() -> None:
    graph = mixed().get_graph()
    conditional = [e.label for e in graph.edges if e.conditional]
    assert conditional == ["is_question", "default"]
    [retry] = graph.groups
    assert retry.label == "retry (3 attempts)"
    assert [graph.node(i).name for i in retry.nodes] == ["normalise", "lookup"]
    forks = [n.name for n in graph.nodes if n.kind == "fork"]
    assert forks == ["RunnableBranch", "RunnableParallel<words,keys,found>"]
    ascii_art = graph.draw_ascii()
    assert "?is_question" in ascii_art and ".- retry (3 attempts) -" in ascii_art


@pytest.mark.parametrize("chain", CHAINS)
def test_dot_renders_to_svg_and_png(chain: str, tmp_path: Path) -> None:
    require_dot()
    graph = CHAINS[chain]().get_graph()
    svg = graph.draw_svg()
    root = ElementTree.fromstring(svg.encode())
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {n.name for n in graph.nodes if n.kind not in ("join",)} <= texts
    png = graph.draw_png(str(tmp_path / f"{chain}.png"))
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    assert (tmp_path / f"{chain}.png").read_bytes() == png


def test_drawing_without_graphviz_names_the_package_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    graph = mixed().get_graph()
    with pytest.raises(GraphvizNotFound, match=r"Debian/Ubuntu package `graphviz` \(apt-get install graphviz\)"):
        graph.draw_png()
    assert "digraph" in graph.draw_dot()  # the text drawings need nothing


def test_dot_escapes_quotes_and_backslashes_so_dot_reads_the_labels_back() -> None:
    require_dot()
    from combinators.graph import Edge, Node

    name = 'say "hi" \\ bye\nnow'
    graph = Graph((Node("a", name), Node("b", "end")), (Edge("a", "b", conditional=True, label='if "x"'),))
    text = graph.draw_dot()
    assert r'"say \"hi\" \\ bye\nnow"' in text
    canon = subprocess.run(["dot", "-Tcanon"], input=text.encode(), capture_output=True, check=True).stdout.decode()
    assert r'label="say \"hi\" \\ bye\nnow"' in canon


def test_colours_are_all_rrggbb() -> None:
    import re

    text = mixed().get_graph().draw_dot()
    colours = re.findall(r'"(#[0-9a-fA-F]+)"', text)
    assert colours and all(len(c) == 7 for c in colours)


def test_a_group_inside_another_is_drawn_inside_it_in_every_drawing() -> None:
    graph = RunnableLambda(abs).with_retry().each().get_graph()
    assert [g.kind for g in graph.outermost_first()] == ["each", "retry"]
    ascii_lines = graph.draw_ascii().splitlines()
    each = next(i for i, line in enumerate(ascii_lines) if "- each (per element) -" in line)
    retry = next(i for i, line in enumerate(ascii_lines) if "- retry (3 attempts) -" in line)
    assert retry > each and ascii_lines[retry].startswith(ascii_lines[each][: ascii_lines[each].index(".")] + ": .")
    dot = graph.draw_dot()
    assert dot.index('"cluster_g1"') < dot.index('"cluster_g0"') < dot.index('"n1" [') < dot.index("    }\n    }")
    mermaid = graph.draw_mermaid()
    assert 'subgraph g1 ["each (per element)"]\n        subgraph g0 ["retry (3 attempts)"]\n            n1' in mermaid
