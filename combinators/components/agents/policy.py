"""``LoopPolicy``: how an agent loop is bounded and what it does with failing tools.

>>> LoopPolicy()
LoopPolicy(max_iterations=15, timeout=None, on_limit='stop', tool_errors='to_model', max_concurrency=None, return_direct=frozenset())
>>> LoopPolicy(tool_errors={PermissionError: "raise"}).handling(PermissionError("no"))
'raise'
>>> LoopPolicy(tool_errors={PermissionError: "raise"}).handling(ValueError("bad"))
'to_model'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, Literal, TypeAlias, final

import attrs

from effects.errors import InputValueError
from effects.authoring import is_a
from effects.guards import is_subclass

ToolErrorHandling: TypeAlias = Literal["to_model", "raise"]
"""``"to_model"``: the error becomes an error ``ToolMessage`` and the loop goes on;
``"raise"``: the run fails with it (its transcript sealed, see ``partial_result``)."""

ToolErrorPolicy: TypeAlias = "ToolErrorHandling | Mapping[type[Exception], ToolErrorHandling]"
"""One handling for every tool error, or one per exception type (the most specific
class in the error's MRO wins; an error of no listed type goes to the model)."""

OnLimit: TypeAlias = Literal["stop", "final_answer"]
"""At a limit, ``"stop"`` (no output) or ``"final_answer"``: one last model call with
the tools unbound, whose answer is the output."""

_HANDLINGS = ("to_model", "raise")
_STOP: Final[OnLimit] = "stop"


def _positive_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputValueError(f"LoopPolicy {name} must be an int >= 1, got {value!r}")


def _check_iterations(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    _positive_int(attribute.name, value)


def _check_concurrency(instance: object, attribute: attrs.Attribute[int | None], value: int | None) -> None:
    if value is not None:
        _positive_int(attribute.name, value)


def _check_timeout(instance: object, attribute: attrs.Attribute[float | None], value: float | None) -> None:
    if value is not None and (isinstance(value, bool) or not is_a(value, (int, float)) or value <= 0):
        raise InputValueError(f"LoopPolicy timeout must be a number of seconds > 0 (or None), got {value!r}")


def _check_on_limit(instance: object, attribute: attrs.Attribute[OnLimit], value: OnLimit) -> None:
    if value not in ("stop", "final_answer"):
        raise InputValueError(f"LoopPolicy on_limit must be 'stop' or 'final_answer', got {value!r}")


def _to_tool_errors(value: ToolErrorPolicy) -> ToolErrorPolicy:
    if isinstance(value, str):
        if value not in _HANDLINGS:
            raise InputValueError(f"LoopPolicy tool_errors must be 'to_model', 'raise' or a mapping, got {value!r}")
        return value
    if not is_a(value, Mapping):
        raise InputValueError(f"LoopPolicy tool_errors must be 'to_model', 'raise' or a mapping, got {value!r}")
    for kind, handling in value.items():
        if not is_subclass(kind, Exception):
            raise InputValueError(f"LoopPolicy tool_errors keys must be Exception classes, got {kind!r}")
        if handling not in _HANDLINGS:
            raise InputValueError(
                f"LoopPolicy tool_errors[{kind.__name__}] must be 'to_model' or 'raise', got {handling!r}"
            )
    return dict(value)


def _to_names(value: Iterable[str]) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset((value,))
    return frozenset(value)


@final
@attrs.frozen
class LoopPolicy:
    """Limits and error handling of ``agent_loop`` (a value).

    - ``max_iterations``: model calls allowed (one iteration is one model call and the
      tools it asked for); reaching it stops with ``MaxIterations(n)``.
    - ``timeout``: seconds for the whole run; running out stops with ``TimedOut``
      (async: tool calls in flight are cancelled; sync: a call already running
      finishes, none starts after).
    - ``on_limit``: ``"stop"``, or ``"final_answer"`` (one more call without tools).
    - ``tool_errors``: ``"to_model"`` (an ``Exception`` from a tool becomes an error
      ``ToolMessage`` with its type and message; never a cancellation), ``"raise"``, or
      a mapping from exception type to either. Unknown tools and arguments that fail
      the tool's JSON Schema always go back to the model.
    - ``max_concurrency``: tool calls of one step running at once (None: all; 1: one
      by one), the same in sync and async; outcomes are in call order either way.
    - ``return_direct``: names of tools whose result is the answer (when every call of
      a step went to one of them and succeeded).
    """

    max_iterations: int = attrs.field(default=15, validator=_check_iterations)
    timeout: float | None = attrs.field(default=None, validator=_check_timeout)
    on_limit: OnLimit = attrs.field(default=_STOP, validator=_check_on_limit)
    tool_errors: ToolErrorPolicy = attrs.field(default="to_model", converter=_to_tool_errors, hash=False)
    max_concurrency: int | None = attrs.field(default=None, validator=_check_concurrency)
    return_direct: frozenset[str] = attrs.field(default=frozenset[str](), converter=_to_names)

    def handling(self, error: Exception) -> ToolErrorHandling:
        """What happens to ``error`` raised by a tool."""
        policy = self.tool_errors
        if isinstance(policy, str):
            return policy
        for kind in type(error).__mro__:
            found = policy.get(kind)
            if found is not None:
                return found
        return "to_model"
