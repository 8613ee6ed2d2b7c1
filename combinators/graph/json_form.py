"""Reading a graph back from ``Graph.to_json``'s data: what a served chain's client gets.

The data comes from another process (a server), so every field is checked: a wrong
one is a ``ValueError`` naming it, never a half-built graph.

>>> graph_from_json({"nodes": [{"id": "n0", "name": "A"}], "edges": []}).nodes[0].kind
'step'
>>> graph_from_json({"nodes": [{"id": "n0"}], "edges": []})
Traceback (most recent call last):
...
ValueError: a served graph's node 0 has no text 'name'
"""

from __future__ import annotations

from collections.abc import Mapping

from combinators.graph.value import Edge, Graph, Group, Node
from effects.guards import is_list, is_list_of, is_str_mapping


def graph_from_json(data: Mapping[str, object]) -> Graph:
    """The ``Graph`` of ``data`` (see the module docstring)."""
    nodes = tuple(_node(i, item) for i, item in enumerate(_items(data, "nodes")))
    ids = {node.id for node in nodes}
    edges = tuple(_edge(i, item, ids) for i, item in enumerate(_items(data, "edges")))
    groups = tuple(_group(i, item, ids) for i, item in enumerate(_items(data, "groups", required=False)))
    return Graph(nodes, edges, groups)


def _items(data: Mapping[str, object], key: str, *, required: bool = True) -> list[Mapping[str, object]]:
    value = data.get(key, None if required else [])
    if not is_list(value):
        raise ValueError(f"a served graph's {key!r} must be a list of objects")
    items = [item for item in value if is_str_mapping(item)]
    if len(items) != len(value):
        raise ValueError(f"a served graph's {key!r} must be a list of objects")
    return items


def _text(item: Mapping[str, object], key: str, where: str, default: str | None = None) -> str:
    value = item.get(key, default)
    if not isinstance(value, str):
        raise ValueError(f"a served graph's {where} has no text {key!r}")
    return value


def _schema(item: Mapping[str, object], key: str, where: str) -> Mapping[str, object]:
    value = item.get(key, {})
    if not is_str_mapping(value):
        raise ValueError(f"a served graph's {where} has a {key!r} that is not an object")
    return dict(value)


def _texts(item: Mapping[str, object], key: str, where: str) -> tuple[str, ...]:
    value = item.get(key, [])
    if not is_list_of(value, str):
        raise ValueError(f"a served graph's {where} has a {key!r} that is not a list of text")
    return tuple(value)


def _node(index: int, item: Mapping[str, object]) -> Node:
    where = f"node {index}"
    status = item.get("status")
    if status not in ("ok", "failed", None):
        raise ValueError(f"a served graph's {where} has an unknown status {status!r}")
    return Node(
        _text(item, "id", where),
        _text(item, "name", where),
        _text(item, "kind", where, "step"),
        _text(item, "run_type", where, "chain"),
        _schema(item, "input_schema", where),
        _schema(item, "output_schema", where),
        _texts(item, "path", where),
        "ok" if status == "ok" else "failed" if status == "failed" else None,
    )


def _known(id: str, ids: set[str], where: str) -> str:
    if id not in ids:
        raise ValueError(f"a served graph's {where} names a node it does not have: {id!r}")
    return id


def _edge(index: int, item: Mapping[str, object], ids: set[str]) -> Edge:
    where = f"edge {index}"
    conditional = item.get("conditional", False)
    label = item.get("label")
    if not isinstance(conditional, bool) or not (label is None or isinstance(label, str)):
        raise ValueError(f"a served graph's {where} has a 'conditional' or 'label' of the wrong type")
    source = _known(_text(item, "source", where), ids, where)
    return Edge(source, _known(_text(item, "target", where), ids, where), conditional, label)


def _group(index: int, item: Mapping[str, object], ids: set[str]) -> Group:
    where = f"group {index}"
    members = tuple(_known(id, ids, where) for id in _texts(item, "nodes", where))
    return Group(_text(item, "id", where), _text(item, "label", where), _text(item, "kind", where), members)
