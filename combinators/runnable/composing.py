"""``Runnable[In, Out]``: the value every chain is, with its pure combinators.

One class over one level of sibling bases: ``RunnableCalls`` (the calls, generated from
``call_spec``), ``RunnableWrappers`` (the wrappers that keep ``[In, Out]``) and
``RunnableHooks`` (the author surface: ``step_*``, ``describe_*``, ...). The combinators
are written here. Each returns a new, fully parameterised runnable; a wrong pipe is a
type error at the ``|``.

>>> from combinators import RunnableLambda
>>> def parse(s: str) -> int:
...     return int(s)
>>> def half(n: int) -> float:
...     return n / 2
>>> chain = RunnableLambda(parse) | half
>>> chain
RunnableLambda(parse) | RunnableLambda(half)
>>> chain.invoke("8")
4.0
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Never, TypeAlias, TypeVar, overload

from combinators.runnable import fluent
from combinators.runnable.calls import RunnableCalls
from combinators.runnable.hooks import A, C, In, Out, RunnableHooks, default_hooks
from combinators.runnable.wrapping import RunnableWrappers

if TYPE_CHECKING:
    from effects.config import ConfigLike, RunConfig
    from combinators.graph import Graph
    from combinators.nodes.assign import Mapper
    from combinators.nodes.parallel import Branch
    from combinators.nodes.tool import RunnableTool
    from effects.executors import Executor

V = TypeVar("V")


class Runnable(RunnableCalls[In, Out], RunnableWrappers[In, Out], RunnableHooks[In, Out]):
    """A typed step of a pipeline: ``In`` in, ``Out`` out (``Out`` chunks when streamed).

    >>> from combinators import RunnableLambda
    >>> RunnableLambda(abs).name
    'abs'
    """

    __slots__ = ()

    @property
    def name(self) -> str:
        """The run name in events and logs (the class name unless a node says otherwise)."""
        return type(self).__name__

    # ------------------------------------------------------------------ pipe

    @overload
    def __or__(self, other: Runnable[Out, C]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], Awaitable[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], Runnable[Out, C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], AsyncIterator[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], Iterator[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out], C]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Iterator[Out]], Iterator[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[AsyncIterator[Out]], AsyncIterator[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out, RunConfig], Awaitable[C]]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Callable[[Out, RunConfig], C]) -> Runnable[In, C]: ...

    @overload
    def __or__(self, other: Mapping[str, Branch[Out]]) -> Runnable[In, dict[str, Any]]: ...

    def __or__(self, other: object) -> Runnable[In, object]:
        """``a | b`` runs ``a`` then ``b`` on its output (callables and dicts are coerced)."""
        return fluent.then(self, fluent.coerce(other))

    @overload
    def __ror__(self, other: Callable[[Iterator[A]], Iterator[In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[AsyncIterator[A]], AsyncIterator[In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A], Awaitable[In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A], Runnable[A, In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A], In]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A, RunConfig], Awaitable[In]]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(self, other: Callable[[A, RunConfig], In]) -> Runnable[A, Out]: ...

    @overload
    def __ror__(
        self: Runnable[dict[str, Any], Out],
        other: Mapping[str, Branch[A]],
    ) -> Runnable[A, Out]: ...

    def __ror__(self, other: object) -> Runnable[Never, Out]:
        """``f | r`` and ``{"k": f} | r``: the left side is coerced to a runnable."""
        return fluent.then(fluent.coerce(other), self)

    @overload
    def pipe(self, other: Runnable[Out, C], /, *, name: str | None = None) -> Runnable[In, C]: ...

    # A function that never returns. First of the function overloads on purpose: when none
    # fits, mypy's error names the first one that takes a function, so it reads 'expected
    # "Callable[[int], Never]"': this runnable's output against the function's parameter.
    @overload
    def pipe(self, other: Callable[[Out], Never], /, *, name: str | None = None) -> Runnable[In, Never]: ...

    @overload
    def pipe(self, other: Callable[[Out], Awaitable[C]], /, *, name: str | None = None) -> Runnable[In, C]: ...

    @overload
    def pipe(self, other: Callable[[Out], Runnable[Out, C]], /, *, name: str | None = None) -> Runnable[In, C]: ...

    @overload
    def pipe(self, other: Callable[[Out], C], /, *, name: str | None = None) -> Runnable[In, C]: ...

    @overload
    def pipe(self, other: Callable[[Iterator[Out]], Iterator[C]], /, *, name: str | None = None) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self,
        other: Callable[[AsyncIterator[Out]], AsyncIterator[C]],
        /,
        *,
        name: str | None = None,
    ) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self, other: Callable[[Out, RunConfig], Awaitable[C]], /, *, name: str | None = None
    ) -> Runnable[In, C]: ...

    @overload
    def pipe(self, other: Callable[[Out, RunConfig], C], /, *, name: str | None = None) -> Runnable[In, C]: ...

    @overload
    def pipe(
        self,
        other: Mapping[str, Branch[Out]],
        /,
        *,
        name: str | None = None,
    ) -> Runnable[In, dict[str, Any]]: ...

    # Every kind of step at once, last on purpose (it matches nothing the precise ones do not,
    # and infers what they infer, so mypy's lambdas stay typed): when none fits, pyright's error
    # names the last one, 'parameter "other" of type "Runnable[int, C@pipe] | ((int) -> C@pipe)
    # | ...": Parameter 1: type "int" is incompatible with type "str"', both sides.
    @overload
    def pipe(
        self,
        other: Runnable[Out, C] | Callable[[Out], C] | Mapping[str, Branch[Out]],
        /,
        *,
        name: str | None = None,
    ) -> Runnable[In, C]: ...

    def pipe(self, other: object, /, *, name: str | None = None) -> Runnable[In, object]:
        """The method form of ``|`` (one step; chain calls for more), with an optional name.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.strip).pipe(len, name="length").invoke(" ab ")
        2
        """
        return fluent.then(self, fluent.coerce(other), name=name)

    # ------------------------------------------------------------------ lists (map and bind: RunnableCalls)

    def each(self, *, executor: Executor | None = None) -> Runnable[Sequence[In], list[Out]]:
        """Element-wise over a list (LangChain's ``.map()``); with an ``executor``, the
        elements run on its workers (as they do when the config names one).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: x + 1).each().invoke([1, 2, 3])
        [2, 3, 4]
        """
        each = fluent.each(self)
        return each if executor is None else each.with_config(executor=executor)

    # ------------------------------------------------------------------ dict outputs

    @overload
    def pick(
        self: Runnable[In, Mapping[str, V]], keys: str, *, required: Literal[False] = False
    ) -> Runnable[In, V | None]: ...

    @overload
    def pick(
        self: Runnable[In, Mapping[str, V]],
        keys: list[str] | tuple[str, ...],
        *,
        required: Literal[False] = False,
    ) -> Runnable[In, dict[str, V] | None]: ...

    @overload
    def pick(self: Runnable[In, Mapping[str, V]], keys: str, *, required: Literal[True]) -> Runnable[In, V]: ...

    @overload
    def pick(
        self: Runnable[In, Mapping[str, V]],
        keys: list[str] | tuple[str, ...],
        *,
        required: Literal[True],
    ) -> Runnable[In, dict[str, V]]: ...

    def pick(
        self: Runnable[In, Mapping[str, V]],
        keys: str | list[str] | tuple[str, ...],
        *,
        required: bool = False,
    ) -> Runnable[In, object]:
        """Keep one key's value, or a dict of the listed keys that are present (a missing
        key gives None); with ``required=True`` a missing key is an error, never None.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: {"a": x, "b": 2}).pick("a").invoke(1)
        1
        >>> RunnableLambda(lambda x: {"a": x, "b": 2}).pick(["a", "b"], required=True).invoke(1)
        {'a': 1, 'b': 2}
        """
        return fluent.then(self, fluent.pick(keys, required))

    def assign(self: Runnable[In, Mapping[str, Any]], **mappers: Mapper) -> Runnable[In, dict[str, Any]]:
        """Add keys computed from the output dict to it (each mapper gets the dict, a ``dict``).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: {"n": x}).assign(sq=lambda d: d["n"] ** 2).invoke(3)
        {'n': 3, 'sq': 9}
        """
        return fluent.then(self, fluent.assign(mappers))

    # ------------------------------------------------------------------ tools

    def as_tool(
        self,
        *,
        name: str | None = None,
        description: str | None = None,
        args_schema: Mapping[str, object] | type[object] | None = None,
        arg_types: Mapping[str, object] | None = None,
    ) -> RunnableTool[Out]:
        """This runnable as a tool: arguments validated against a JSON Schema, then run.

        The schema is ``args_schema`` (a JSON Schema dict, or a TypedDict / attrs class),
        else built from ``arg_types`` (argument name -> type), else derived from the input
        type: an object type gives a tool taking those arguments as a dict, a ``str`` (or
        other plain) input a single-input tool. The description defaults to the peer's
        ``"Takes <input schema>."``. A tool call gives the raw output here;
        the components' ``@tool`` tools answer it with a ``ToolMessage``.

        >>> from typing import TypedDict
        >>> from combinators import RunnableLambda
        >>> class Pair(TypedDict):
        ...     a: int
        ...     b: int
        >>> def add(p: Pair) -> int:
        ...     return p["a"] + p["b"]
        >>> adder = RunnableLambda(add).as_tool(name="add", description="Add a and b.")
        >>> adder.invoke({"a": 1, "b": 2}), adder.args
        (3, {'a': {'type': 'integer'}, 'b': {'type': 'integer'}})
        """
        return fluent.as_tool(self, name=name, description=description, args_schema=args_schema, arg_types=arg_types)

    # ------------------------------------------------------------------ schemas

    def input_schema(self) -> dict[str, Any]:
        """JSON Schema of the input, derived from the types.

        >>> from combinators import RunnableLambda
        >>> def add(x: int) -> int:
        ...     return x + 1
        >>> RunnableLambda(add).input_schema()
        {'title': 'add_input', 'type': 'integer'}
        """
        return fluent.schema(self, "input")

    def output_schema(self) -> dict[str, Any]:
        """JSON Schema of the output, derived from the types.

        >>> from combinators import RunnableLambda
        >>> def add(x: int) -> int:
        ...     return x + 1
        >>> RunnableLambda(add).output_schema()
        {'title': 'add_output', 'type': 'integer'}
        """
        return fluent.schema(self, "output")

    # ------------------------------------------------------------------ graphs

    def get_graph(self) -> Graph:
        """The graph of this runnable: its steps as nodes, containers expanded.

        >>> from combinators import RunnableLambda
        >>> [n.name for n in (RunnableLambda(abs) | RunnableLambda(str)).get_graph().nodes]
        ['abs_input', 'abs', 'str', 'str_output']
        """
        return fluent.graph(self)

    # ------------------------------------------------------------------ the peer's schema names

    def get_input_schema(self, config: ConfigLike = None) -> dict[str, Any]:
        """The peer's name for ``input_schema()`` (a JSON Schema dict here, not a model class).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.upper).with_types(input_type=str).get_input_schema()
        {'title': 'upper_input', 'type': 'string'}
        """
        return self.input_schema()

    def get_output_schema(self, config: ConfigLike = None) -> dict[str, Any]:
        """The peer's name for ``output_schema()``.

        >>> from combinators import RunnableLambda
        >>> def size(text: str) -> int:
        ...     return len(text)
        >>> RunnableLambda(size).get_output_schema({"tags": ["x"]})
        {'title': 'size_output', 'type': 'integer'}
        """
        return self.output_schema()

    def get_input_jsonschema(self, config: ConfigLike = None) -> dict[str, Any]:
        """The input's JSON Schema (the same as ``get_input_schema``).

        >>> from combinators import RunnableLambda
        >>> def size(text: str) -> int:
        ...     return len(text)
        >>> RunnableLambda(size).get_input_jsonschema()
        {'title': 'size_input', 'type': 'string'}
        """
        return self.input_schema()

    def get_output_jsonschema(self, config: ConfigLike = None) -> dict[str, Any]:
        """The output's JSON Schema (the same as ``get_output_schema``).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.upper).with_types(output_type=str).get_output_jsonschema()
        {'title': 'upper_output', 'type': 'string'}
        """
        return self.output_schema()


default_hooks(RunnableCalls, RunnableHooks)

AnyRunnable: TypeAlias = "Runnable[Never, object]"
"""Any runnable at all (every ``Runnable[A, B]`` is one): for code that reads a chain's
structure (names, graphs, schemas) and never hands it an input."""
