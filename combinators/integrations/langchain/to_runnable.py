"""``to_langchain(ours)``: one of our runnables as a real langchain-core ``Runnable``, so a
team can move one chain at a time inside a LangChain or LangGraph application.

It is a projection, not a second engine: each call runs our chain, values crossing by the
one table (LangChain's in, ours inside, LangChain's out), and LangChain's config (tags,
metadata, ``run_name``, ``run_id``, ``configurable``, ``max_concurrency``,
``recursion_limit`` and its ``callbacks``) becomes ours. The callbacks reach our runs
through ``handlers.CallbackProjection``: our root run is told as the LangChain run of this
object (its parent the LCEL chain or LangGraph node that called it, its id the one the
config names), and our inner runs as its children. LangChain's ``astream_events`` and
``astream_log``, built on those callbacks, therefore show our inner runs as LangChain's own.

>>> from combinators import RunnableLambda
>>> from langchain_core.runnables import RunnableLambda as TheirLambda
>>> shout = to_langchain(RunnableLambda(str.upper))
>>> (TheirLambda(lambda text: text + "!") | shout).invoke("hi")
'HI!'
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar, cast, final, overload

from langchain_core.callbacks.manager import CallbackManager
from langchain_core.runnables import Runnable as TheirRunnable
from langchain_core.runnables import RunnableConfig as TheirConfig
from langchain_core.runnables.config import ensure_config, get_config_list

from combinators import AnyRunnable, Runnable
from combinators.integrations.langchain import conversion
from effects.config import RunConfigDict

if TYPE_CHECKING:
    from typing_extensions import TypeIs

_Configs: TypeAlias = "TheirConfig | list[TheirConfig] | None"
"""The config of a LangChain batch: one for every input, or one per input."""

In = TypeVar("In")
Out = TypeVar("Out")


def our_config(config: TheirConfig | None) -> RunConfigDict:
    """LangChain's config as ours: the same keys, the callbacks as LangChain would
    configure them (so a handler a context installs, as ``collect_runs`` does, is told too);
    no callbacks at all when no handler would be told.

    >>> our_config({"tags": ["a"], "run_name": "r", "configurable": {"k": 1}})
    {'tags': ['a'], 'metadata': {}, 'configurable': {'k': 1}, 'recursion_limit': 25, 'run_name': 'r'}
    """
    given = ensure_config(config)
    ours: RunConfigDict = {
        "tags": list(given.get("tags") or ()),
        "metadata": dict(given.get("metadata") or {}),
        "configurable": dict(given.get("configurable") or {}),
        "recursion_limit": given.get("recursion_limit", 25),
    }
    run_name, run_id, max_concurrency = given.get("run_name"), given.get("run_id"), given.get("max_concurrency")
    if run_name is not None:
        ours["run_name"] = run_name
    if run_id is not None:
        ours["run_id"] = run_id
    if max_concurrency is not None:
        ours["max_concurrency"] = max_concurrency
    manager = CallbackManager.configure(inheritable_callbacks=given.get("callbacks"))
    if manager.handlers or manager.inheritable_handlers:
        ours["callbacks"] = manager
    return ours


@final
class ToLangChain(TheirRunnable[In, Out], Generic[In, Out]):
    """One of our runnables as a langchain-core ``Runnable`` (made by `to_langchain`).

    >>> from combinators import RunnableLambda
    >>> doubled = ToLangChain(RunnableLambda(lambda x: x * 2, name="double"))
    >>> doubled.get_name(), doubled.batch([1, 2]), list(doubled.stream(3))
    ('double', [2, 4], [6])
    """

    def __init__(self, ours: Runnable[In, Out]) -> None:
        self.ours = ours
        self.name = ours.name

    def __repr__(self) -> str:
        return f"to_langchain({self.ours!r})"

    def _in(self, value: object) -> In:
        # LangChain's value as ours by the one table: the same meaning, so the input type stands.
        return cast(In, conversion.to_ours(value))

    def _out(self, value: object) -> Out:
        # Ours as LangChain's (an exception a batch returns stays one).
        return cast(Out, conversion.to_langchain(value))

    def _batch_args(self, inputs: list[In], config: _Configs) -> tuple[list[In], list[RunConfigDict]]:
        configs = [our_config(c) for c in get_config_list(config, len(inputs))]
        return [self._in(item) for item in inputs], configs

    def invoke(self, input: In, config: TheirConfig | None = None, **kwargs: object) -> Out:
        """Our ``invoke``, values converted both ways."""
        output = self.ours.invoke(self._in(input), our_config(config), **kwargs)
        return self._out(output)

    async def ainvoke(self, input: In, config: TheirConfig | None = None, **kwargs: object) -> Out:
        """Our ``ainvoke``, values converted both ways."""
        output = await self.ours.ainvoke(self._in(input), our_config(config), **kwargs)
        return self._out(output)

    def batch(
        self, inputs: list[In], config: _Configs = None, *, return_exceptions: bool = False, **kwargs: Any
    ) -> list[Out]:
        """Our ``batch`` (one config per input, as LangChain reads them; LangChain's keywords go on
        to ours, whose batch keywords are typed)."""
        given, configs = self._batch_args(inputs, config)
        outputs = self.ours.batch(given, configs, return_exceptions=return_exceptions, **kwargs)
        return [self._out(output) for output in outputs]

    async def abatch(
        self, inputs: list[In], config: _Configs = None, *, return_exceptions: bool = False, **kwargs: Any
    ) -> list[Out]:
        """Our ``abatch`` (one config per input, as LangChain reads them; LangChain's keywords go on
        to ours, whose batch keywords are typed)."""
        given, configs = self._batch_args(inputs, config)
        outputs = await self.ours.abatch(given, configs, return_exceptions=return_exceptions, **kwargs)
        return [self._out(output) for output in outputs]

    def stream(self, input: In, config: TheirConfig | None = None, **kwargs: object) -> Iterator[Out]:
        """Our ``stream``, chunks as LangChain's."""
        for chunk in self.ours.stream(self._in(input), our_config(config), **kwargs):
            yield self._out(chunk)

    async def astream(self, input: In, config: TheirConfig | None = None, **kwargs: object) -> AsyncIterator[Out]:
        """Our ``astream``, chunks as LangChain's."""
        async for chunk in self.ours.astream(self._in(input), our_config(config), **kwargs):
            yield self._out(chunk)

    def transform(self, input: Iterator[In], config: TheirConfig | None = None, **kwargs: object) -> Iterator[Out]:
        """Our ``transform``: the input streams in (the run's input is known at its end)."""
        given = (self._in(item) for item in input)
        for chunk in self.ours.transform(given, our_config(config), **kwargs):
            yield self._out(chunk)

    async def atransform(
        self, input: AsyncIterator[In], config: TheirConfig | None = None, **kwargs: object
    ) -> AsyncIterator[Out]:
        """Our ``atransform``: the input streams in."""

        async def given() -> AsyncIterator[In]:
            async for item in input:
                yield self._in(item)

        async for chunk in self.ours.atransform(given(), our_config(config), **kwargs):
            yield self._out(chunk)


def _is_runnable(value: object) -> TypeIs[AnyRunnable]:
    return isinstance(value, Runnable)


@overload
def to_langchain(value: Runnable[In, Out]) -> ToLangChain[In, Out]: ...
@overload
def to_langchain(value: object) -> object: ...
def to_langchain(value: object) -> object:
    """Ours as LangChain's: a runnable of ours as a langchain-core ``Runnable``
    (`ToLangChain`); a value (messages, documents, prompt values, inside lists, tuples
    and dicts) as LangChain's value, by the one table; anything else as is.

    >>> from combinators import RunnableLambda
    >>> from combinators.messages import HumanMessage
    >>> type(to_langchain(RunnableLambda(abs))).__name__
    'ToLangChain'
    >>> to_langchain(HumanMessage("hi", id="h1"))
    HumanMessage(content='hi', additional_kwargs={}, response_metadata={}, id='h1')
    """
    if _is_runnable(value):
        return ToLangChain(value)
    return conversion.to_langchain(value)


__all__ = ["ToLangChain", "our_config", "to_langchain"]
