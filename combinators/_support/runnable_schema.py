"""``input_schema`` / ``output_schema``: JSON Schema of a runnable, from its types.

Titles follow the peer: ``<name>_input`` for lower-case names, ``<Name>Input``
otherwise. A sequence takes its input schema from the first step and its output
schema from the last.
"""

from __future__ import annotations

import inspect
from typing import Any, get_type_hints

from combinators._support.type_schema import type_schema
from combinators.runnable.composing import Runnable


def _title(name: str, suffix: str) -> str:
    return f"{name}{suffix.title()}" if name[:1].isupper() else f"{name}_{suffix.lower()}"


def _declared(runnable: Runnable[Any, Any], which: str) -> object:
    from combinators.nodes.binding import RunnableBinding
    from combinators.nodes.lambda_ import RunnableLambda
    from combinators.nodes.sequence import RunnableSequence

    if isinstance(runnable, RunnableBinding):
        declared = runnable.input_type if which == "input" else runnable.output_type
        return declared if declared is not None else _declared(runnable.bound, which)
    if isinstance(runnable, RunnableSequence):
        step = runnable.steps[0] if which == "input" else runnable.steps[-1]
        return _declared(step, which)
    if isinstance(runnable, RunnableLambda):
        try:
            hints = get_type_hints(runnable.func)
            params = list(inspect.signature(runnable.func).parameters)
        except Exception:  # unresolvable annotations, or a builtin without a signature
            return Any
        if which == "output":
            return hints.get("return", Any)
        return hints.get(params[0], Any) if params else Any
    return Any


def _schema(runnable: Runnable[Any, Any], which: str) -> dict[str, Any]:
    from combinators.nodes.parallel import RunnableParallel

    if which == "output" and isinstance(runnable, RunnableParallel):
        properties = {k: _schema(v, "output") for k, v in runnable.steps.items()}
        for value in properties.values():
            value.pop("title", None)
        return {"title": _title(runnable.name, which), "type": "object", "properties": properties}
    return {"title": _title(runnable.name, which), **type_schema(_declared(runnable, which))}


def input_schema(runnable: Runnable[Any, Any]) -> dict[str, Any]:
    """The JSON Schema of ``runnable``'s input."""
    return _schema(runnable, "input")


def output_schema(runnable: Runnable[Any, Any]) -> dict[str, Any]:
    """The JSON Schema of ``runnable``'s output."""
    return _schema(runnable, "output")
