"""Reading a graph back from JSON (what a served chain's client reads): a wrong field is a
ValueError naming it, never a half-built graph."""

from __future__ import annotations

import pytest

from combinators import RunnableLambda
from combinators.graph import Graph


def served() -> dict[str, object]:
    return (RunnableLambda(abs).with_retry() | RunnableLambda(str)).get_graph().to_json()


def test_a_graph_comes_back_whole_with_its_groups_and_paths() -> None:
    graph = (RunnableLambda(abs).with_retry() | RunnableLambda(str)).get_graph()
    back = Graph.from_json(served())
    assert back == graph
    assert [g.kind for g in back.groups] == ["retry"]
    assert [n.path for n in back.nodes] == [n.path for n in graph.nodes]


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d.pop("nodes"), "'nodes' must be a list of objects"),
        (lambda d: d.__setitem__("edges", ["n0"]), "'edges' must be a list of objects"),
        (lambda d: d["nodes"][1].__setitem__("name", 7), "node 1 has no text 'name'"),
        (lambda d: d["nodes"][1].__setitem__("status", "maybe"), "node 1 has an unknown status 'maybe'"),
        (lambda d: d["nodes"][1].__setitem__("path", "abs"), "node 1 has a 'path' that is not a list of text"),
        (lambda d: d["nodes"][1].__setitem__("input_schema", []), "node 1 has a 'input_schema' that is not an object"),
        (lambda d: d["edges"][0].__setitem__("target", "n99"), "edge 0 names a node it does not have: 'n99'"),
        (lambda d: d["edges"][0].__setitem__("conditional", "yes"), "edge 0 has a 'conditional' or 'label'"),
        (lambda d: d["groups"][0].__setitem__("nodes", ["n42"]), "group 0 names a node it does not have: 'n42'"),
    ],
)
def test_a_wrong_field_is_named(spoil: object, message: str) -> None:
    data = served()
    spoil(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        Graph.from_json(data)
