"""Graphs of runnables (``runnable.get_graph()``) and their drawings: ascii, Mermaid, DOT, SVG/PNG.

>>> from combinators import RunnableLambda
>>> graph = (RunnableLambda(abs) | RunnableLambda(str)).get_graph()
>>> [node.name for node in graph.nodes]
['abs_input', 'abs', 'str', 'str_output']
"""

from combinators.graph.derive import Fragment as Fragment
from combinators.graph.derive import GraphBuilder as GraphBuilder
from combinators.graph.derive import RunPlace as RunPlace
from combinators.graph.dot import GraphvizNotFound as GraphvizNotFound
from combinators.graph.value import Edge as Edge
from combinators.graph.value import Graph as Graph
from combinators.graph.value import Group as Group
from combinators.graph.value import Node as Node

__all__ = ["Edge", "Fragment", "Graph", "GraphBuilder", "GraphvizNotFound", "Group", "Node", "RunPlace"]
