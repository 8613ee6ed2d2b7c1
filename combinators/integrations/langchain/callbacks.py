"""The inner runs of a wrapped LangChain object as ours: a LangChain callback handler
that turns each callback into our effect, adopted below the wrapper's run.

The wrapper passes one only when its run is observed (events, log, listeners,
recordings, tracing); unobserved, LangChain is given no handler and builds nothing.
It runs inline (``run_inline``), so the effects keep LangChain's order, and it taps the
streams of inner runnables as LangChain's own event handlers do (``tap_output_iter``), so
a parser's or a chain's chunks show as they flow.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import TypeVar
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, GenerationChunk, LLMResult
from langchain_core.tracers._streaming import _StreamingCallbackHandler  # LangGraph checks for this base

from combinators.integrations.langchain.conversion import to_ours
from effects import NOTHING, CustomEmitted, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed
from effects.authoring import Scope, is_list

T = TypeVar("T")

_UNKNOWN_INPUT: dict[str, object] = {"input": ""}  # what LangChain starts a streamed run with


def _name(serialized: Mapping[str, object] | None, kwargs: Mapping[str, object], default: str) -> str:
    given = kwargs.get("name")
    if isinstance(given, str) and given:
        return given
    if serialized:
        named = serialized.get("name")
        if isinstance(named, str) and named:
            return named
        ids = serialized.get("id")
        if is_list(ids) and ids:
            return str(ids[-1])
    return default


class EffectsHandler(BaseCallbackHandler, _StreamingCallbackHandler[object]):
    """LangChain's callbacks as our effects, adopted by ``scope`` (the wrapper's run).

    >>> from langchain_core.runnables import RunnableLambda as TheirLambda
    >>> from combinators.integrations.langchain import from_langchain
    >>> inner = TheirLambda(str.upper, name="upper")
    >>> [(e.run.name, type(e).__name__) for e in from_langchain(inner, str, str).stream_effects("a")]
    [('upper', 'RunStarted'), ('upper', 'RunStarted'), ('upper', 'RunStreamed'), ('upper', 'RunStreamed'), ('upper', 'RunEnded'), ('upper', 'RunEnded')]
    """

    # LangGraph hands its nodes' streams to a handler only when LangChain's streaming
    # protocol is among its bases (langchain-core itself checks the methods).
    run_inline = True
    raise_error = True

    def __init__(self, scope: Scope, root_input: object) -> None:
        self._scope = scope
        # LangChain starts a streamed root run with a placeholder input; its events show
        # the call's input there, as ours do.
        self._root_input: object = root_input
        self._root: UUID | None = None
        self._tapped: set[UUID] = set()
        self._runs: dict[UUID, tuple[RunInfo, object]] = {}

    # -- starts -------------------------------------------------------------------------

    def _start(
        self,
        run_type: str,
        name: str,
        input: object,
        run_id: UUID,
        parent_run_id: UUID | None,
        tags: list[str] | None,
        metadata: Mapping[str, object] | None,
    ) -> None:
        parent = self._runs.get(parent_run_id) if parent_run_id is not None else None
        if parent_run_id is None and self._root is None:
            self._root = run_id
            input = self._root_input
        lineage = () if parent is None else (*parent[0].parent_ids, parent[0].run_id)
        run = RunInfo(run_id, lineage, name, run_type, tuple(tags or ()), dict(metadata or {}))
        self._runs[run_id] = (run, input)
        self._scope.adopt([RunStarted(run, input, self._scope.clock.now())])

    def on_chain_start(
        self,
        serialized: Mapping[str, object],
        inputs: Mapping[str, object],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: Mapping[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        """A chain, prompt or parser run started (its ``run_type`` says which)."""
        run_type = kwargs.get("run_type") or "chain"
        name = _name(serialized, kwargs, "chain")
        # A streamed run starts before its input is known (LangChain's placeholder): ours
        # then reports it at the end, from on_chain_end's ``inputs``.
        shown = NOTHING if inputs == _UNKNOWN_INPUT else to_ours(inputs)
        self._start(str(run_type), name, shown, run_id, parent_run_id, tags, metadata)

    def on_chat_model_start(
        self,
        serialized: Mapping[str, object],
        messages: Sequence[Sequence[object]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: Mapping[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        """A chat model run started."""
        name = _name(serialized, kwargs, "chat_model")
        self._start("chat_model", name, {"messages": to_ours(messages)}, run_id, parent_run_id, tags, metadata)

    def on_llm_start(
        self,
        serialized: Mapping[str, object],
        prompts: list[str],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: Mapping[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        """A text model run started."""
        self._start(
            "llm", _name(serialized, kwargs, "llm"), {"prompts": list(prompts)}, run_id, parent_run_id, tags, metadata
        )

    def on_tool_start(
        self,
        serialized: Mapping[str, object],
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: Mapping[str, object] | None = None,
        inputs: Mapping[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        """A tool run started."""
        shown = to_ours(inputs) if inputs is not None else input_str
        self._start("tool", _name(serialized, kwargs, "tool"), shown, run_id, parent_run_id, tags, metadata)

    def on_retriever_start(
        self,
        serialized: Mapping[str, object],
        query: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: Mapping[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        """A retriever run started."""
        name = _name(serialized, kwargs, "retriever")
        self._start("retriever", name, {"query": query}, run_id, parent_run_id, tags, metadata)

    # -- tokens, ends, errors, custom events ----------------------------------------------

    def on_llm_new_token(
        self,
        token: str | Sequence[str | Mapping[str, object]],
        *,
        chunk: GenerationChunk | ChatGenerationChunk | None = None,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        **kwargs: object,
    ) -> None:
        """A model's token: streamed as our chunk (the message chunk when there is one)."""
        known = self._runs.get(run_id)
        if known is not None:
            shown = to_ours(chunk.message) if isinstance(chunk, ChatGenerationChunk) else token
            self._scope.adopt([RunStreamed(known[0], shown, self._scope.clock.now())])

    def _stream(self, run_id: UUID, chunk: object) -> None:
        self._tapped.add(run_id)
        known = self._runs.get(run_id)
        if known is not None:
            self._scope.adopt([RunStreamed(known[0], to_ours(chunk), self._scope.clock.now())])

    def root_chunk(self, chunk: object) -> None:
        """A chunk of the object's own stream (already ours), shown as a chunk of its root
        run unless LangChain tapped that stream itself (a compiled LangGraph graph does
        not: LangChain's own events show its chunks from the caller's side too)."""
        root = self._root
        if root is None or root in self._tapped:
            return
        known = self._runs.get(root)
        if known is not None:
            self._scope.adopt([RunStreamed(known[0], chunk, self._scope.clock.now())])

    def tap_output_iter(self, run_id: UUID, output: Iterator[T]) -> Iterator[T]:
        """The chunks an inner runnable streams, each shown as our chunk of its run (LangChain
        hands its streaming handlers each stream this way)."""
        for chunk in output:
            self._stream(run_id, chunk)
            yield chunk

    async def tap_output_aiter(self, run_id: UUID, output: AsyncIterator[T]) -> AsyncIterator[T]:
        """`tap_output_iter` for async streams."""
        async for chunk in output:
            self._stream(run_id, chunk)
            yield chunk

    def _end(self, run_id: UUID, output: object) -> None:
        known = self._runs.pop(run_id, None)
        if known is not None:
            self._scope.adopt([RunEnded(known[0], known[1], output, self._scope.clock.now())])

    def _fail(self, run_id: UUID, error: BaseException) -> None:
        known = self._runs.pop(run_id, None)
        if known is not None:
            self._scope.adopt([RunFailed(known[0], known[1], error, self._scope.clock.now())])

    def on_chain_end(
        self, outputs: Mapping[str, object], *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: object
    ) -> None:
        """A chain run ended (with its input, when it was not known at the start)."""
        known = self._runs.get(run_id)
        if known is not None and known[1] is NOTHING and "inputs" in kwargs:
            self._runs[run_id] = (known[0], to_ours(kwargs["inputs"]))
        self._end(run_id, to_ours(outputs))

    def on_llm_end(
        self, response: LLMResult, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: object
    ) -> None:
        """A model run ended: its output is the message (the text for a text model)."""
        first = response.generations[0][0] if response.generations and response.generations[0] else None
        if isinstance(first, ChatGeneration):
            self._end(run_id, to_ours(first.message))
        else:
            self._end(run_id, None if first is None else first.text)

    def on_tool_end(self, output: object, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: object) -> None:
        """A tool run ended."""
        self._end(run_id, to_ours(output))

    def on_retriever_end(
        self, documents: Sequence[object], *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: object
    ) -> None:
        """A retriever run ended: its documents as ours."""
        self._end(run_id, to_ours(list(documents)))

    def on_chain_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: object
    ) -> None:
        """A chain run failed."""
        self._fail(run_id, error)

    def on_llm_error(
        self,
        error: BaseException,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        **kwargs: object,
    ) -> None:
        """A model run failed."""
        self._fail(run_id, error)

    def on_tool_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: object
    ) -> None:
        """A tool run failed."""
        self._fail(run_id, error)

    def on_retriever_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: object
    ) -> None:
        """A retriever run failed."""
        self._fail(run_id, error)

    def on_custom_event(
        self,
        name: str,
        data: object,
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        metadata: Mapping[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        """A custom event of an inner run, as ours from that run."""
        known = self._runs.get(run_id)
        if known is not None:
            self._scope.adopt([CustomEmitted(known[0], name, to_ours(data), self._scope.clock.now())])


__all__ = ["EffectsHandler"]
