"""``from_langchain``: a langchain-core runnable (chat model, retriever, prompt, parser,
LCEL chain, compiled graph) as a typed runnable of ours.

Values cross by ``values`` (ours in, LangChain's to the object, ours out). The call's
tags, metadata, ``configurable``, ``max_concurrency`` and ``recursion_limit`` go to the
object in its config; the wrapper counts as one leaf step of ours, so ``max_concurrency``
keeps LangChain's per-batch meaning inside it. ``run_name`` names the wrapper's own run.

>>> from langchain_core.language_models import FakeListChatModel
>>> model = from_langchain(FakeListChatModel(responses=["hello"]))
>>> model.invoke("hi")
AIMessage('hello', id=...)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Never, TypeVar, Unpack, cast, final, overload

import attrs

from combinators import AnyRunnable, Runnable
from combinators.documents import Document
from combinators.components.models.chat_model import ChatOutput, LanguageModelInput
from combinators.components.run_fields import NamedRunFields, RunFieldsKwargs
from combinators.integrations.langchain.conversion import to_langchain, to_ours
from combinators import RunConfig
from effects import NOTHING
from effects.config import EMPTY_CONFIG
from effects.authoring import Scope, arun_on_total, closing, is_a, run_on_total

if TYPE_CHECKING:
    from combinators.integrations.langchain.callbacks import EffectsHandler
    from langchain_core.language_models import BaseChatModel as TheirChatModel
    from langchain_core.retrievers import BaseRetriever as TheirRetriever
    from langchain_core.runnables import Runnable as TheirRunnable
    from langchain_core.runnables import RunnableConfig as TheirConfig

In = TypeVar("In")
Out = TypeVar("Out")


def langchain_config(config: RunConfig) -> TheirConfig:
    """What of our call's config a LangChain object is given.

    >>> langchain_config(RunConfig(tags=("a",), metadata={"k": 1}, max_concurrency=2))
    {'tags': ['a'], 'metadata': {'k': 1}, 'configurable': {}, 'recursion_limit': 25, 'max_concurrency': 2}
    """
    given: TheirConfig = {
        "tags": list(config.tags),
        "metadata": dict(config.metadata),
        "configurable": dict(config.configurable),
        "recursion_limit": config.recursion_limit,
    }
    if config.max_concurrency is not None:
        given["max_concurrency"] = config.max_concurrency
    return given


def _their_config(scope: Scope, input: object) -> TheirConfig | None:
    if scope.run is None and scope.config is EMPTY_CONFIG:
        # A call with nothing to pass on: LangChain's own defaults are the same values,
        # and building none keeps the wrapper's cost off the object's (the bench's W16).
        return None
    return _handled(scope, input)[0]


def _handled(scope: Scope, input: object) -> tuple[TheirConfig, EffectsHandler | None]:
    # Observed, the object's inner runs become ours (below this run); unobserved, it gets
    # no handler, so LangChain builds no run of its own for us.
    given = langchain_config(scope.config)
    if scope.run is None:
        return given, None
    from combinators.integrations.langchain.callbacks import EffectsHandler

    handler = EffectsHandler(scope, input)
    given["callbacks"] = [handler]
    return given, handler


@final
@attrs.frozen(repr=False)
class FromLangChain(NamedRunFields, Runnable[In, Out]):
    """A langchain-core runnable as one of ours (made by `from_langchain`), with the
    constructor keywords of LangChain's components (``name=``, ``tags=``, ``metadata=``,
    ``verbose=``, ``callbacks=``), which act on the wrapper's own run.

    >>> from langchain_core.runnables import RunnableLambda as TheirLambda
    >>> shout = FromLangChain[str, str](TheirLambda(str.upper))
    >>> (shout | (lambda text: text + "!")).invoke("hi")
    'HI!'
    """

    wrapped: TheirRunnable[Any, Any]
    """Any LangChain runnable: it is run on our inputs as LangChain's values, which no
    type parameter of its own says (LangChain's ``Runnable`` is invariant in both)."""

    @property
    def name(self) -> str:
        """The given ``name``, else the wrapped object's own (``FakeListChatModel``,
        ``RunnableSequence``...)."""
        return self.run_name or self.wrapped.get_name()

    def __repr__(self) -> str:
        return f"from_langchain({self.wrapped!r})"

    def _out(self, value: object) -> Out:
        # LangChain's output as ours by the one table: what ``from_langchain`` was told it gives.
        return cast(Out, to_ours(value))

    def _chunk(self, chunk: object, handler: EffectsHandler | None) -> Out:
        converted = self._out(chunk)
        if handler is not None:
            handler.root_chunk(converted)
        return converted

    def _outcome(self, output: object) -> Out | Exception:
        return output if isinstance(output, Exception) else self._out(output)

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        """The object's ``invoke``, values converted both ways."""
        output = self.wrapped.invoke(to_langchain(input), _their_config(scope, input), **kwargs)
        return self._out(output)

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        """The object's ``ainvoke``, values converted both ways."""
        output = await self.wrapped.ainvoke(to_langchain(input), _their_config(scope, input), **kwargs)
        return self._out(output)

    def step_batch(
        self, inputs: Sequence[In], scopes: Sequence[Scope], kwargs: Mapping[str, object]
    ) -> list[Out | Exception]:
        """The object's own ``batch`` over every input at once (each item's config and
        inner runs its own; ``max_concurrency`` is LangChain's, per batch); one output or
        exception per input."""
        configs = [_handled(scope, input)[0] for scope, input in zip(scopes, inputs, strict=True)]
        outputs = self.wrapped.batch([to_langchain(i) for i in inputs], configs, return_exceptions=True, **kwargs)
        return [self._outcome(output) for output in outputs]

    async def step_abatch(
        self, inputs: Sequence[In], scopes: Sequence[Scope], kwargs: Mapping[str, object]
    ) -> list[Out | Exception]:
        """The object's own ``abatch`` over every input at once."""
        configs = [_handled(scope, input)[0] for scope, input in zip(scopes, inputs, strict=True)]
        outputs = await self.wrapped.abatch(
            [to_langchain(i) for i in inputs], configs, return_exceptions=True, **kwargs
        )
        return [self._outcome(output) for output in outputs]

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        """The object's ``transform`` of the input as it comes (an object that needs its
        whole input adds it up itself, as LangChain's do); chunks as ours. A root call's
        input is whole: the object's ``stream`` of it, so its events show it at the start."""
        if _input_is_whole(scope):

            def streamed(input: In) -> Iterator[Out]:
                config, handler = _handled(scope, input)
                for chunk in self.wrapped.stream(to_langchain(input), config, **kwargs):
                    yield self._chunk(chunk, handler)

            return run_on_total(inputs, streamed)
        return self._transform(inputs, scope, kwargs)

    def _transform(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        theirs = (to_langchain(chunk) for chunk in inputs)
        config, handler = _handled(scope, NOTHING)
        chunks = self.wrapped.transform(theirs, config, **kwargs)
        try:
            for chunk in chunks:
                yield self._chunk(chunk, handler)
        finally:
            close = getattr(chunks, "close", None)  # LangChain's transforms are generators
            if close is not None:
                close()

    def step_astream(self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]) -> AsyncIterator[Out]:
        """The object's ``atransform`` of the input as it comes (``astream`` of a root
        call's whole input), chunks as ours."""
        if _input_is_whole(scope):

            async def streamed(input: In) -> AsyncIterator[Out]:
                config, handler = _handled(scope, input)
                async for chunk in self.wrapped.astream(to_langchain(input), config, **kwargs):
                    yield self._chunk(chunk, handler)

            return arun_on_total(inputs, streamed)
        return self._atransform(inputs, scope, kwargs)

    async def _atransform(
        self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[Out]:
        async def theirs() -> AsyncIterator[object]:
            async for chunk in inputs:
                yield to_langchain(chunk)

        config, handler = _handled(scope, NOTHING)
        async with closing(self.wrapped.atransform(theirs(), config, **kwargs)) as chunks:
            async for chunk in chunks:
                yield self._chunk(chunk, handler)


def _input_is_whole(scope: Scope) -> bool:
    # A root run's input is the call's, whole; below a streamed parent it comes in chunks.
    run = scope.run
    return run is not None and not run.parent_ids


@overload
def from_langchain(
    obj: TheirChatModel, **run_fields: Unpack[RunFieldsKwargs]
) -> Runnable[LanguageModelInput, ChatOutput]: ...
@overload
def from_langchain(obj: TheirRetriever, **run_fields: Unpack[RunFieldsKwargs]) -> Runnable[str, list[Document]]: ...
@overload
def from_langchain(
    obj: TheirRunnable[Any, Any], input_type: type[In], output_type: type[Out], **run_fields: Unpack[RunFieldsKwargs]
) -> Runnable[In, Out]: ...
def from_langchain(
    obj: TheirRunnable[Any, Any],
    input_type: object = None,
    output_type: object = None,
    **run_fields: Unpack[RunFieldsKwargs],
) -> AnyRunnable:
    """A langchain-core runnable as a typed runnable of ours: a chat model takes what
    our models take and gives ``AIMessage`` (chunks when streamed), a retriever takes a
    str and gives our ``Document``s; anything else is typed by the caller,
    ``from_langchain(chain, In, Out)`` (the two types are for the checkers only).
    ``name=``, ``tags=``, ``metadata=``, ``verbose=`` and ``callbacks=`` act on the
    wrapper's own run, as LangChain's components take them.

    >>> from langchain_core.prompts import PromptTemplate as TheirPrompt
    >>> from_langchain(TheirPrompt.from_template("Say {x}"), dict, object).invoke({"x": "hi"})
    StringPromptValue(text='Say hi')
    >>> from_langchain(TheirPrompt.from_template("{x}"), dict, object, name="ask").name
    'ask'
    >>> from_langchain("not a runnable")  # type: ignore[call-overload]
    Traceback (most recent call last):
    ...
    TypeError: from_langchain expects a langchain_core Runnable, got str
    """
    from langchain_core.runnables import Runnable as TheirRunnableClass

    if not is_a(obj, TheirRunnableClass):  # an untyped caller's value
        raise TypeError(f"from_langchain expects a langchain_core Runnable, got {type(obj).__name__}")
    return FromLangChain[Never, object](obj, **run_fields)


__all__ = ["FromLangChain", "from_langchain", "langchain_config"]
