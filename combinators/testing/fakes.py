"""Strategies for fake models and retrievers: scripted replies, streaming, delays, failures.

Delays go through the runtime's clock: install ``effects.clock.FakeClock`` with
``use_clock`` and nothing really sleeps, while ``clock.sleeps`` records each delay.

>>> from hypothesis import find
>>> from effects.clock import FakeClock, use_clock
>>> model = find(chat_models(token_delays=st.just(0.5)), lambda m: True)
>>> model
GenericFakeChatModel(messages=Script(['fog'], cycle=True), token_delay=0.5)
>>> clock = FakeClock()
>>> with use_clock(clock):
...     [chunk.text for chunk in model.stream("hi")], clock.sleeps
(['fog'], [0.5])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar, final

import attrs
from hypothesis import strategies as st

from combinators.components.retrieval.bm25 import Bm25Retriever
from combinators.components.retrieval.documents import BaseRetriever, Document
from combinators.components.retrieval.embeddings import HashedNgramEmbeddings
from combinators.components.models.fakes import GenericFakeChatModel, Script
from combinators.components.retrieval.vectorstore import InMemoryVectorStore
from combinators.testing.nodes import CallCounter
from combinators.testing.steps import ScriptedFailure
from combinators.testing.plain_values import sentences
from effects.clock import current_clock

_FAILURES = st.sampled_from(
    [ScriptedFailure("rate limited"), ScriptedFailure("timed out"), ScriptedFailure("server error")]
)


T = TypeVar("T")


def _scripted(
    draw: st.DrawFn, replies: st.SearchStrategy[T], min_replies: int, max_replies: int, max_failures: int
) -> list[T | ScriptedFailure]:
    entries: list[T | ScriptedFailure] = draw(st.lists(replies, min_size=min_replies, max_size=max_replies))
    failures = draw(st.lists(_FAILURES, max_size=max_failures))
    # Failures first, then the replies: shrinking moves them towards a script that
    # fails its first calls, the case retry is for.
    return draw(st.permutations([*failures, *entries])) if failures else entries


def chat_models(
    replies: st.SearchStrategy[str] | None = None,
    *,
    min_replies: int = 1,
    max_replies: int = 3,
    max_failures: int = 0,
    token_delays: st.SearchStrategy[float] | None = None,
    cycle: bool = True,
) -> st.SearchStrategy[GenericFakeChatModel]:
    """``GenericFakeChatModel`` values: a ``Script`` of replies (streamed word by word)
    with up to ``max_failures`` ``ScriptedFailure`` entries, and a per-token delay.

    A script moves on at every call, so a model with more than one entry gives
    different answers to different calls: for ``check_laws`` use one reply
    (``max_replies=1``, no failures), and script failures with ``Flaky`` under retry.

    >>> from hypothesis import find
    >>> model = find(chat_models(max_failures=1), lambda m: len(m.script.replies) == 2)
    >>> model
    GenericFakeChatModel(messages=Script([ScriptedFailure('rate limited'), 'fog'], cycle=True), token_delay=0.0)
    >>> model.with_retry(stop_after_attempt=2, wait_exponential_jitter=False).invoke("hi")
    AIMessage('fog', id='lc_run--...')
    """
    chosen = replies if replies is not None else sentences
    delays = token_delays if token_delays is not None else st.just(0.0)

    @st.composite
    def models(draw: st.DrawFn) -> GenericFakeChatModel:
        script = _scripted(draw, chosen, min_replies, max_replies, max_failures)
        return GenericFakeChatModel(Script(script, cycle=cycle), token_delay=draw(delays))

    return models()


def documents(texts: st.SearchStrategy[str] | None = None, *, with_ids: bool = False) -> st.SearchStrategy[Document]:
    """``Document`` values: short contents, a little metadata, optionally an id.

    >>> from hypothesis import find
    >>> find(documents(with_ids=True), lambda d: True)
    Document(id='0', metadata={}, page_content='fog')
    """
    contents = texts if texts is not None else sentences
    metadata = st.fixed_dictionaries(
        {}, optional={"source": st.sampled_from(["a.md", "b.md", "c.md"]), "year": st.integers(1990, 2030)}
    )
    ids: st.SearchStrategy[str | None] = st.integers(0, 99).map(str) if with_ids else st.none()
    return st.builds(Document, contents, metadata, id=ids)


Result = tuple[Document, ...] | BaseException
"""One scripted result of a ``ScriptedRetriever``: documents, or an error to raise."""


def _results(value: Sequence[Sequence[Document] | BaseException]) -> tuple[Result, ...]:
    return tuple(item if isinstance(item, BaseException) else tuple(item) for item in value)


@final
@attrs.frozen
class ScriptedRetriever(BaseRetriever):
    """Answers every query with the next scripted result (cycling), after ``delay`` seconds
    on the runtime's clock; a scripted error is raised instead.

    >>> retriever = ScriptedRetriever([[Document("fog")], ScriptedFailure("down")])
    >>> retriever.invoke("q")
    [Document(metadata={}, page_content='fog')]
    >>> retriever.invoke("q")
    Traceback (most recent call last):
    ...
    combinators.testing.steps.ScriptedFailure: down
    """

    # Typed as what the constructor takes: mypy reads these classes' fields through
    # dataclass_transform, which ignores converters.
    results: Sequence[Sequence[Document] | BaseException] = attrs.field(converter=_results)
    delay: float = 0.0
    counter: CallCounter = attrs.field(factory=CallCounter, eq=False, repr=False)

    def _next(self) -> list[Document]:
        if not self.results:
            raise IndexError("ScriptedRetriever has no results")
        result = self.results[(self.counter.take() - 1) % len(self.results)]
        if isinstance(result, BaseException):
            raise result
        return list(result)

    def _get_relevant_documents(self, query: str) -> list[Document]:
        if self.delay:
            current_clock().sleep(self.delay)
        return self._next()

    async def _aget_relevant_documents(self, query: str) -> list[Document]:
        if self.delay:
            await current_clock().asleep(self.delay)
        return self._next()


def retrievers(
    docs: st.SearchStrategy[Document] | None = None,
    *,
    max_documents: int = 6,
    scripted: bool = False,
    max_failures: int = 0,
    delays: st.SearchStrategy[float] | None = None,
) -> st.SearchStrategy[BaseRetriever]:
    """Retrievers over drawn documents: BM25 and vector-store search (deterministic), or
    with ``scripted=True`` a ``ScriptedRetriever`` with up to ``max_failures`` failures
    and a delay per call.

    >>> from hypothesis import find
    >>> retriever = find(retrievers(), lambda r: len(r.invoke("fog")) > 0)
    >>> retriever.invoke("fog")
    [Document(metadata={}, page_content='fog')]
    """
    chosen = docs if docs is not None else documents()
    corpora = st.lists(chosen, max_size=max_documents)
    k = st.integers(1, 4)
    if scripted:
        results = st.lists(chosen, max_size=3).map(tuple)
        wait = delays if delays is not None else st.just(0.0)

        @st.composite
        def scripts(draw: st.DrawFn) -> BaseRetriever:
            script = _scripted(draw, results, 1, 3, max_failures)
            return ScriptedRetriever(tuple(script), delay=draw(wait))

        return scripts()
    bm25: st.SearchStrategy[BaseRetriever] = st.builds(_bm25, corpora, k)
    return st.one_of(bm25, st.builds(_vector_search, corpora, k))


def _bm25(corpus: list[Document], k: int) -> BaseRetriever:
    return Bm25Retriever.from_documents(corpus, k=k)


def _vector_search(corpus: list[Document], k: int) -> BaseRetriever:
    store = InMemoryVectorStore.from_documents(corpus, HashedNgramEmbeddings(dimension=64))
    return store.as_retriever(k=k)
