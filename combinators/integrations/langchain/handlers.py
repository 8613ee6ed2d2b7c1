"""LangChain's callback handlers as one more projection of our effects.

``config={"callbacks": [...]}`` (a list of handlers, or a LangChain callback manager that
carries a parent run, as LangGraph passes it) becomes a `CallbackProjection` observer at the
call's entry: every effect of the runs it watches turns into the handler call LangChain's
own run managers make (``on_chain_start``/``on_chat_model_start``/``on_llm_new_token``/
``on_llm_end``/``on_tool_*``/``on_retriever_*``/``on_*_error``/``on_custom_event``), with
the run's id, its parent's id, its run type, name, tags and metadata. Chunks of a chain,
prompt or parser run reach a streaming handler (the ones behind LangChain's
``astream_events`` and ``astream_log``) through its ``tap_output_iter``, as LangChain's
streaming runnables hand them.

The handler rules are LangChain's: a handler's ``ignore_chain``/``ignore_llm``/
``ignore_chat_model``/``ignore_agent``/``ignore_retriever``/``ignore_custom_event`` skip it;
one that raises is logged and counted (`callback_error_count`), and the error is raised
only when it sets ``raise_error``; an async handler's coroutines are awaited before the
run goes on in an async call (``run_inline`` ones first, in order), and run to completion
on a helper thread in a sync call. Everything a handler receives is redacted first:
values that are secrets show their redacted form.

Handlers are never shipped: the entry strips them from the config, so Dask workers and
servers run without them and the driver replays the effects it adopts into them.

>>> from langchain_core.callbacks import BaseCallbackHandler
>>> from combinators import RunnableLambda
>>> class Names(BaseCallbackHandler):
...     def __init__(self): self.seen = []
...     def on_chain_start(self, serialized, inputs, **kw): self.seen.append(("start", kw["name"], inputs))
...     def on_chain_end(self, outputs, **kw): self.seen.append(("end", outputs))
>>> names = Names()
>>> RunnableLambda(str.upper).invoke("hi", config={"callbacks": [names]})
'HI'
>>> names.seen
[('start', 'upper', 'hi'), ('end', 'HI')]
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final, Protocol, final
from uuid import UUID

import attrs
from langchain_core.callbacks import BaseCallbackHandler, BaseCallbackManager
from langchain_core.callbacks.manager import AsyncCallbackManager, CallbackManager
from langchain_core.messages import BaseMessage as TheirMessage
from langchain_core.messages import get_buffer_string
from langchain_core.outputs import ChatGenerationChunk

from combinators.integrations.langchain.model_calls import as_chunk, as_model_input, llm_result
from combinators.integrations.langchain.serialized import serialized_prompt, unserializable
from combinators.integrations.langchain.conversion import to_langchain
from combinators.components.models.chat_model import to_messages
from combinators.components.models.llm import to_prompt_text
from combinators import RunConfig
from effects.executors import kept_by_the_caller
from effects import NOTHING, CustomEmitted, Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed
from effects.hooks import CALLBACKS, FailureCount
from effects.projections.jsonable import is_secret, redacted_form
from effects.guards import is_dict, is_list_of, is_list_or_tuple, is_mapping

if TYPE_CHECKING:
    from typing import TypeGuard

_log: Final = logging.getLogger("combinators.integrations.langchain")

_STREAMED_INPUT: Final[Mapping[str, str]] = {"input": ""}  # what LangChain starts a streamed run with

# What each kind of run is told through, and which handler flag skips it (LangChain's pairs).
_IGNORE: Final[Mapping[str, str]] = {
    "chain": "ignore_chain",
    "prompt": "ignore_chain",
    "parser": "ignore_chain",
    "chat_model": "ignore_llm",
    "llm": "ignore_llm",
    "tool": "ignore_agent",
    "retriever": "ignore_retriever",
}
_FAMILY: Final[Mapping[str, str]] = {
    "chat_model": "llm",
    "llm": "llm",
    "tool": "tool",
    "retriever": "retriever",
}


@final
class _Errors(FailureCount):
    """Handler failures LangChain logs and swallows: counted here too."""

    __slots__ = ()

    def note(self, handler: object, event: str, error: BaseException) -> None:
        self.add()
        _log.warning("Error in %s.%s callback: %r", type(handler).__name__, event, error)


_ERRORS: Final = _Errors()


def callback_error_count() -> int:
    """How many handler calls raised and were logged instead (since the process started).

    >>> callback_error_count() >= 0
    True
    """
    return _ERRORS.count


def redacted(value: object) -> object:
    """``value`` as a handler may see it: secrets in their redacted form, LangChain's
    values for ours (inside lists, tuples and dicts too).

    >>> from combinators.secrets import Secret
    >>> redacted({"key": Secret("sk-1"), "n": [1]})
    {'key': '**********', 'n': [1]}
    """
    kind = type(value)
    if value is None or kind is str or kind is int or kind is float or kind is bool:
        return value
    if (kind is list or kind is tuple) and is_list_or_tuple(value):
        items = [redacted(item) for item in value]
        return items if kind is list else tuple(items)
    if is_mapping(value):
        return {key: redacted(item) for key, item in value.items()}
    if is_secret(value):
        return redacted_form(value)
    return to_langchain(value)


def _call(handler: BaseCallbackHandler, event: str, args: tuple[object, ...], kwargs: dict[str, object]) -> object:
    """One handler call as LangChain's ``handle_event`` makes it (a chat-model start a
    handler does not implement falls back to ``on_llm_start`` with the messages as text)."""
    try:
        return getattr(handler, event)(*args, **kwargs)
    except NotImplementedError as error:
        if event == "on_chat_model_start":
            serialized, messages = args[0], args[1]
            groups = messages if is_list_or_tuple(messages) else ()
            prompts = [get_buffer_string(list(m)) for m in groups if is_list_of(m, TheirMessage)]
            if not getattr(handler, "ignore_llm", False):
                return _call(handler, "on_llm_start", (serialized, prompts, *args[2:]), kwargs)
            return None
        _log.warning("NotImplementedError in %s.%s callback: %r", type(handler).__name__, event, error)
        return None


async def _awaited(handler: BaseCallbackHandler, event: str, pending: Awaitable[object]) -> None:
    try:
        await pending
    except Exception as error:
        _ERRORS.note(handler, event, error)
        if handler.raise_error:
            raise


def _run_on_helper_thread(coroutines: list[Coroutine[object, object, None]]) -> None:
    # A sync call runs an async handler's coroutines to completion on a loop of its own,
    # on a helper thread when this thread already runs one (LangChain's sync rule).
    def run() -> None:
        with asyncio.Runner() as runner:
            for coroutine in coroutines:
                try:
                    runner.run(coroutine)
                except Exception as error:  # already counted by _awaited; raise_error is async-only
                    _log.warning("Error in callback coroutine: %r", error)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        run()
        return
    done = threading.Thread(target=run, name="langchain-callbacks", daemon=True)
    done.start()
    done.join()


@attrs.frozen
class _Handlers:
    """The handlers, parent and tags a run is told with (a LangChain run manager's view)."""

    handlers: tuple[BaseCallbackHandler, ...]
    inheritable: tuple[BaseCallbackHandler, ...]
    parent_run_id: UUID | None
    tags: tuple[str, ...]
    inheritable_tags: tuple[str, ...]
    metadata: Mapping[str, object]
    inheritable_metadata: Mapping[str, object]


@final
@attrs.define(eq=False)
class _Live:
    """What the projection keeps of a run it told the handlers about."""

    run_id: UUID
    parent_run_id: UUID | None
    handlers: tuple[BaseCallbackHandler, ...]
    tags: list[str]
    metadata: dict[str, object]
    kind: str
    streamed: bool
    taps: Iterator[object] | None = attrs.field(default=None, init=False)
    feed: deque[object] = attrs.field(factory=deque[object], init=False)


def _merged_tags(first: Sequence[str], then: Sequence[str]) -> list[str]:
    return list(dict.fromkeys((*first, *then)))


class _Tapper(Protocol):
    def tap_output_iter(self, run_id: UUID, output: Iterator[object]) -> Iterator[object]: ...


def _streaming(handler: object) -> TypeGuard[_Tapper]:
    # LangChain's _StreamingCallbackHandler, structurally (its event and log handlers).
    return callable(getattr(handler, "tap_output_iter", None))


@final
class CallbackProjection:
    """An observer that tells LangChain callback handlers about the runs it watches.

    Made per call by `LangChainCallbacks.make_observer`; an ``AwaitingObserver``, so an
    async call awaits an async handler's coroutines before the run goes on.

    >>> from langchain_core.callbacks import BaseCallbackHandler
    >>> from combinators import RunnableLambda
    >>> class Ends(BaseCallbackHandler):
    ...     def __init__(self): self.outputs = []
    ...     def on_chain_end(self, outputs, **kw): self.outputs.append(outputs)
    >>> ends = Ends()
    >>> (RunnableLambda(abs) | str).invoke(-2, config={"callbacks": [ends]})
    '2'
    >>> ends.outputs
    [2, '2', '2']
    """

    __slots__ = ("_root", "_live", "_pending", "wants_chunks")

    def __init__(self, root: _Handlers) -> None:
        self._root = root
        self._live: dict[UUID, _Live] = {}
        self._pending: list[Awaitable[object]] = []
        handlers = (*root.handlers, *root.inheritable)
        # LangChain's chat models stream under a streaming handler even when invoked.
        self.wants_chunks = any(_streaming(handler) for handler in handlers)

    # -- the observer protocol ----------------------------------------------------------

    def emit(self, effect: Effect) -> None:
        """Tell the handlers about ``effect``."""
        if type(effect) is RunStarted:
            self._started(effect)
        elif type(effect) is RunStreamed:
            self._streamed(effect)
        elif type(effect) is RunEnded:
            self._ended(effect)
        elif type(effect) is RunFailed:
            self._failed(effect)
        elif type(effect) is CustomEmitted:
            self._custom(effect)

    def take_pending(self) -> list[Awaitable[object]]:
        """The async handlers' coroutines due so far (the runtime awaits them in an async call)."""
        pending, self._pending = self._pending, []
        return pending

    def run_pending(self, pending: list[Awaitable[object]]) -> None:
        """A sync call's turn at the coroutines: run them to completion now."""
        _run_on_helper_thread([_as_coroutine(item) for item in pending])

    # -- dispatch -----------------------------------------------------------------------

    def _tell(
        self, handlers: Sequence[BaseCallbackHandler], event: str, ignore: str | None, *args: object, **kwargs: object
    ) -> None:
        deferred: list[tuple[BaseCallbackHandler, Awaitable[object]]] = []
        for handler in handlers:
            if ignore is not None and getattr(handler, ignore, False):
                continue
            try:
                answer = _call(handler, event, args, kwargs)
            except Exception as error:
                _ERRORS.note(handler, event, error)
                if handler.raise_error:
                    raise
                continue
            if inspect.isawaitable(answer):
                deferred.append((handler, answer))
        if deferred:
            # run_inline handlers first, in order; the others after them (LangChain gathers those).
            deferred.sort(key=lambda pair: not pair[0].run_inline)
            self._pending.extend(_awaited(handler, event, answer) for handler, answer in deferred)
            if not self._in_async_call():
                self.run_pending(self.take_pending())

    def _in_async_call(self) -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def _view(self, run: RunInfo) -> tuple[tuple[BaseCallbackHandler, ...], UUID | None, list[str], dict[str, object]]:
        # A run whose parent this projection is not following is one of its roots: told
        # with the entry's own handlers, tags and parent; the others as their children.
        parent = self._live.get(run.parent_ids[-1]) if run.parent_ids else None
        root = self._root
        if parent is None:
            # Below a run it does not follow (handlers bound to an inner step or given to a
            # component), a root's parent is still its run's own, as LangChain's local
            # handlers see it; a manager's parent run wins.
            parent_id = root.parent_run_id
            if parent_id is None and run.parent_ids:
                parent_id = run.parent_ids[-1]
            return (
                root.handlers,
                parent_id,
                _merged_tags(root.tags, run.tags),
                {**root.metadata, **run.metadata},
            )
        tags = _merged_tags(root.inheritable_tags, run.tags)
        return root.inheritable, parent.run_id, tags, {**root.inheritable_metadata, **run.metadata}

    def _started(self, effect: RunStarted) -> None:
        run = effect.run
        handlers, parent_id, tags, metadata = self._view(run)
        kind = run.run_type
        streamed = effect.input is NOTHING
        live = _Live(run.run_id, parent_id, handlers, tags, metadata, kind, streamed)
        self._live[run.run_id] = live
        if not handlers:
            return
        common: dict[str, object] = {
            "run_id": run.run_id,
            "parent_run_id": parent_id,
            "tags": list(tags),
            "metadata": redacted(metadata),
        }
        family = _FAMILY.get(kind)
        if family is None:
            shown = dict(_STREAMED_INPUT) if streamed else redacted(effect.input)
            run_type = kind if kind in ("prompt", "parser") else None
            # A prompt hands its serialized self, as LangChain's prompts do (tracers read
            # the template there); other chains hand none.
            described = serialized_prompt(run.name, redacted(run.params)) if kind == "prompt" else None
            self._tell(
                handlers, "on_chain_start", "ignore_chain", described, shown, **common, run_type=run_type, name=run.name
            )
            return
        serialized = _serialized(run)
        if kind == "chat_model":
            messages = _field(effect.input, "messages", None) if run.parent_ids else None
            if messages is None:  # a root run shows the caller's raw input
                messages = [as_model_input(effect.input, run.name, to_messages, [])]
            self._tell(
                handlers,
                "on_chat_model_start",
                "ignore_chat_model",
                serialized,
                redacted(messages),
                **common,
                invocation_params=redacted(dict[str, object](run.params)),
                name=run.name,
                batch_size=1,
            )
        elif kind == "llm":
            prompts = _field(effect.input, "prompts", None) if run.parent_ids else None
            if prompts is None:
                prompts = [as_model_input(effect.input, run.name, to_prompt_text, "")]
            self._tell(handlers, "on_llm_start", "ignore_llm", serialized, redacted(prompts), **common, name=run.name)
        elif kind == "tool":
            given = redacted(effect.input)
            input_str = given if isinstance(given, str) else str(given)
            inputs = given if is_dict(given) else None
            self._tell(
                handlers, "on_tool_start", "ignore_agent", serialized, input_str, **common, name=run.name, inputs=inputs
            )
        else:
            query = _field(effect.input, "query", effect.input)
            self._tell(
                handlers, "on_retriever_start", "ignore_retriever", serialized, redacted(query), **common, name=run.name
            )

    def _streamed(self, effect: RunStreamed) -> None:
        live = self._live.get(effect.run.run_id)
        if live is None or not live.handlers or effect.run.whole_output:
            # A root's whole output, given on after its run ended (a model without a token
            # stream): LangChain tells no token and taps nothing for it.
            return
        if live.kind in ("chat_model", "llm"):
            chunk = redacted(effect.chunk)
            if isinstance(chunk, TheirMessage):
                token: str = chunk.text
                generation: object = ChatGenerationChunk(message=as_chunk(chunk))
            else:
                token = chunk if isinstance(chunk, str) else str(chunk)
                generation = None
            self._tell(
                live.handlers,
                "on_llm_new_token",
                "ignore_llm",
                token=token,
                chunk=generation,
                run_id=live.run_id,
                parent_run_id=live.parent_run_id,
                tags=list(live.tags),
            )
            return
        self._tap(live, redacted(effect.chunk))

    def _tap(self, live: _Live, chunk: object) -> None:
        # The first streaming handler taps the run's chunks, as LangChain hands them: one
        # iterator per run, fed a chunk at a time.
        if live.taps is None:
            tapper = next((h for h in live.handlers if _streaming(h)), None)
            if tapper is None:
                return
            feed = live.feed

            def fed() -> Iterator[object]:
                while feed:
                    yield feed.popleft()

            live.taps = iter(tapper.tap_output_iter(live.run_id, fed()))
        live.feed.append(chunk)
        try:
            next(live.taps)
        except StopIteration:
            pass
        except Exception as error:
            _ERRORS.note(live.taps, "tap_output_iter", error)

    def _finished(self, run_id: UUID) -> _Live | None:
        """The run that ``run_id`` finished, its taps closed; ``None`` when no handler hears it."""
        live = self._live.pop(run_id, None)
        if live is None:
            return None
        close = getattr(live.taps, "close", None)
        if callable(close):
            close()
        return live if live.handlers else None

    def _ended(self, effect: RunEnded) -> None:
        live = self._finished(effect.run.run_id)
        if live is None:
            return
        common: dict[str, object] = {
            "run_id": live.run_id,
            "parent_run_id": live.parent_run_id,
            "tags": list(live.tags),
        }
        kind = live.kind
        output = redacted(effect.output)
        if kind in ("chat_model", "llm"):
            self._tell(live.handlers, "on_llm_end", "ignore_llm", llm_result(output), **common)
        elif kind == "tool":
            self._tell(live.handlers, "on_tool_end", "ignore_agent", output, **common, name=effect.run.name)
        elif kind == "retriever":
            self._tell(live.handlers, "on_retriever_end", "ignore_retriever", output, **common)
        elif live.streamed:
            self._tell(live.handlers, "on_chain_end", "ignore_chain", output, **common, inputs=redacted(effect.input))
        else:
            self._tell(live.handlers, "on_chain_end", "ignore_chain", output, **common)

    def _failed(self, effect: RunFailed) -> None:
        live = self._finished(effect.run.run_id)
        if live is None:
            return
        family = _FAMILY.get(live.kind, "chain")
        ignore = _IGNORE.get(live.kind, "ignore_chain")
        common: dict[str, object] = {
            "run_id": live.run_id,
            "parent_run_id": live.parent_run_id,
            "tags": list(live.tags),
        }
        if family == "chain" and live.streamed and effect.input is not NOTHING:
            common["inputs"] = redacted(effect.input)
        self._tell(live.handlers, f"on_{family}_error", ignore, effect.error, **common)

    def _custom(self, effect: CustomEmitted) -> None:
        live = self._live.get(effect.run.run_id)
        if live is None:
            return
        handlers = self._root.inheritable
        self._tell(
            handlers,
            "on_custom_event",
            "ignore_custom_event",
            effect.name,
            redacted(effect.data),
            run_id=live.run_id,
            tags=list(live.tags),
            metadata=redacted(live.metadata),
        )


def _as_coroutine(awaitable: Awaitable[object]) -> Coroutine[object, object, None]:
    async def wait() -> None:
        await awaitable

    return wait()


def _field(value: object, key: str, default: object) -> object:
    if isinstance(value, Mapping) and key in value:
        return value[key]  # pyright: ignore[reportUnknownVariableType]
    return default


def _serialized(run: RunInfo) -> dict[str, object]:
    return unserializable(run.name)


def _root_view(callbacks: object, config: RunConfig | None, is_async: bool = False) -> _Handlers:
    """The handlers a call's ``callbacks`` entry names, as LangChain's ``configure`` reads it
    (a list of handlers, or a manager whose parent run parents ours)."""
    manager_class = AsyncCallbackManager if is_async else CallbackManager
    manager = manager_class.configure(inheritable_callbacks=_checked(callbacks))
    return _Handlers(
        tuple(manager.handlers),
        tuple(manager.inheritable_handlers),
        manager.parent_run_id,
        tuple(manager.tags),
        tuple(manager.inheritable_tags),
        dict(manager.metadata),
        dict(manager.inheritable_metadata),
    )


def _checked(callbacks: object) -> list[BaseCallbackHandler] | BaseCallbackManager:
    if isinstance(callbacks, BaseCallbackManager):
        return callbacks
    if isinstance(callbacks, Sequence) and not isinstance(callbacks, str | bytes):
        given: Sequence[object] = callbacks  # pyright: ignore[reportUnknownVariableType]
        for handler in given:
            if not callable(getattr(handler, "on_chain_start", None)) and not isinstance(handler, BaseCallbackHandler):
                raise TypeError(
                    f"config['callbacks'] must hold LangChain callback handlers, got {type(handler).__name__}"
                )
        return [_as_handler(handler) for handler in given]
    raise TypeError(
        f"config['callbacks'] must be a list of LangChain callback handlers or a callback manager,"
        f" got {type(callbacks).__name__}"
    )


def _as_handler(handler: object) -> BaseCallbackHandler:
    if isinstance(handler, BaseCallbackHandler):
        return handler
    return _Duck(handler)


class _Duck(BaseCallbackHandler):
    """Any object with LangChain's handler methods, with the flags it leaves out defaulted."""

    def __init__(self, handler: object) -> None:
        self._handler = handler
        for flag in ("raise_error", "run_inline"):
            setattr(self, flag, bool(getattr(handler, flag, False)))

    def __getattr__(self, name: str) -> object:
        if name.startswith("ignore_"):
            return bool(getattr(self._handler, name, False))
        return getattr(self._handler, name)

    def __getattribute__(self, name: str) -> object:
        if name.startswith("on_") or name.startswith("tap_output"):
            found = getattr(object.__getattribute__(self, "_handler"), name, None)
            if found is None:
                return _ignored
            return found
        return object.__getattribute__(self, name)


def _ignored(*args: object, **kwargs: object) -> None:
    return None


@final
@attrs.frozen(eq=False)
class LangChainCallbacks:
    """The observer factory of a ``callbacks`` config entry: handlers, or a manager.

    Pickled (a chain shipped to a Dask worker or a server), it carries no handler: it
    travels as a stand-in that marks the runs it would watch where a shipped batch item
    runs, and the handlers stay with the caller, whose driver replays those runs into them
    (``effects.executors.kept_by_the_caller``). Elsewhere the stand-in watches nothing.

    >>> from langchain_core.callbacks import StdOutCallbackHandler
    >>> import pickle
    >>> kept = LangChainCallbacks([StdOutCallbackHandler()])
    >>> shipped = pickle.loads(pickle.dumps(kept))
    >>> type(shipped).__name__, shipped.make_observer() is None
    ('StandIn', True)
    """

    callbacks: object

    def make_observer(self, config: RunConfig | None = None) -> CallbackProjection | None:
        """A fresh projection for one call (None when there is no handler)."""
        root = _root_view(self.callbacks, config)
        if not root.handlers and not root.inheritable:
            return None
        return CallbackProjection(root)

    def __reduce__(self) -> tuple[Callable[..., object], tuple[object]]:
        return kept_by_the_caller(self)


class _Provider:
    """What fills the ``CALLBACKS`` hook."""

    def callbacks(self, entry: object) -> LangChainCallbacks:
        """The observer factory of a ``callbacks`` entry (checked now, so a wrong entry
        fails at the call that gave it)."""
        _checked(entry)
        return LangChainCallbacks(entry)


CALLBACKS.fill(_Provider())

__all__ = ["CallbackProjection", "LangChainCallbacks", "callback_error_count", "redacted"]
