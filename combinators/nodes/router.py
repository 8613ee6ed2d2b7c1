"""``RouterRunnable``: runs the runnable named by the input's ``key`` on its ``input``.

The routed runnable's run is a child of the router's, so its events show under it. An
unknown key is an ``InputValueError`` listing the keys. With a ``Literal`` key type
(``RouterRunnable[Literal["math", "poem"], str, str]({...})``), a wrong key is also a
type error.

>>> from combinators import RouterRunnable, RunnableLambda
>>> def double(x: int) -> int:
...     return x * 2
>>> def negate(x: int) -> int:
...     return -x
>>> router = RouterRunnable({"double": RunnableLambda(double), "negate": RunnableLambda(negate)})
>>> router.invoke({"key": "double", "input": 4}), router.batch([{"key": "negate", "input": 1}])
(8, [-1])
>>> router.invoke({"key": "square", "input": 4})
Traceback (most recent call last):
...
effects.errors.InputValueError: RouterRunnable has no runnable for key 'square'; its keys are: 'double', 'negate'
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, TypedDict, TypeVar, final

import attrs

from combinators._support.declared import init_fields
from combinators.runnable.composing import Runnable
from combinators.runnable.hooks import union_declared
from effects.authoring import Scope, aiter_of, arun_on_total, closing, run_on_total
from effects.errors import InputError, InputValueError
from effects.guards import is_a, is_mapping

if TYPE_CHECKING:
    from combinators.graph import Fragment, GraphBuilder, RunPlace

K = TypeVar("K", bound=str)
A = TypeVar("A")
B = TypeVar("B")


class RouterInput(TypedDict, Generic[K, A]):
    """A router's input: which runnable (``key``) and what to run it on (``input``).

    >>> routed: RouterInput[str, int] = {"key": "double", "input": 2}
    >>> routed["key"]
    'double'
    """

    key: K
    input: A


@final
@attrs.frozen(init=False, repr=False, hash=False)
class RouterRunnable(Runnable[RouterInput[K, A], B], Generic[K, A, B]):
    """Routes ``{"key": k, "input": x}`` to ``runnables[k]`` run on ``x``."""

    runnables: Mapping[K, Runnable[A, B]]

    def __init__(self, runnables: Mapping[K, Runnable[A, B]]) -> None:
        if not runnables:
            raise ValueError("RouterRunnable needs at least one runnable")
        for key, runnable in runnables.items():
            if not is_a(runnable, Runnable):
                raise TypeError(f"RouterRunnable's {key!r} must be a runnable, got {type(runnable).__name__}")
        init_fields(self, dict(runnables))

    is_leaf = False

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """Its output: the union of what its routes give, when each says (the peer says
        nothing); its input schema is drawn by ``input_schema``."""
        return union_declared(self.runnables.values(), "output") if which == "output" else Any

    def input_schema(self) -> dict[str, Any]:
        """As the peer's, an object of ``key`` and ``input``, both required; the key one of
        the routes, the input the routes' own schema when they agree (else anything).

        >>> def size(text: str) -> int:
        ...     return len(text)
        >>> from combinators import RunnableLambda
        >>> RouterRunnable({"n": RunnableLambda(size)}).input_schema()["properties"]
        {'key': {'type': 'string', 'enum': ['n']}, 'input': {'type': 'string'}}
        """
        inputs = [{k: v for k, v in r.input_schema().items() if k != "title"} for r in self.runnables.values()]
        routed = inputs[0] if all(schema == inputs[0] for schema in inputs) else {}
        key = {"type": "string", "enum": list(self.runnables)}
        properties = {"key": key, "input": routed}
        return {"title": f"{self.name}Input", "type": "object", "properties": properties, "required": ["key", "input"]}

    def __hash__(self) -> int:
        return hash(tuple(self.runnables.items()))

    def __repr__(self) -> str:
        body = ", ".join(f"{k!r}: {v!r}" for k, v in self.runnables.items())
        return f"RouterRunnable({{{body}}})"

    def _route(self, routed: RouterInput[K, A]) -> tuple[Runnable[A, B], A]:
        given: object = routed  # untyped callers pass anything: checked before it is read
        if not is_mapping(given) or "key" not in given or "input" not in given:
            raise InputError(f"{self.name} expects a dict with 'key' and 'input', got {type(given).__name__}")
        target = self.runnables.get(routed["key"])
        if target is None:
            keys = ", ".join(repr(k) for k in self.runnables)
            raise InputValueError(f"{self.name} has no runnable for key {routed['key']!r}; its keys are: {keys}")
        return target, routed["input"]

    def step_invoke(self, input: RouterInput[K, A], scope: Scope, kwargs: Mapping[str, object]) -> B:
        target, value = self._route(input)
        result: B = scope.invoke(target, value, None, kwargs)
        return result

    async def step_ainvoke(self, input: RouterInput[K, A], scope: Scope, kwargs: Mapping[str, object]) -> B:
        target, value = self._route(input)
        result: B = await scope.ainvoke(target, value, None, kwargs)
        return result

    def step_stream(
        self, inputs: Iterator[RouterInput[K, A]], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[B]:
        def run(total: RouterInput[K, A]) -> Iterator[B]:
            target, value = self._route(total)
            return scope.stream(target, iter((value,)), None, kwargs)

        return run_on_total(inputs, run)

    def step_astream(
        self, inputs: AsyncIterator[RouterInput[K, A]], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[B]:
        async def run(total: RouterInput[K, A]) -> AsyncIterator[B]:
            target, value = self._route(total)
            async with closing(scope.astream(target, aiter_of((value,)), None, kwargs)) as outputs:
                async for out in outputs:
                    yield out

        return arun_on_total(inputs, run)

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """A fork with one conditional edge per key."""
        arms = [(str(key), graph.child(runnable, place)) for key, runnable in self.runnables.items()]
        return graph.fork(self, place, arms, conditional=True)
