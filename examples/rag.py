"""The quickstart: a retrieval chain over a small bundled corpus, offline.

    {"context": retriever | format_documents_as_string, "question": RunnablePassthrough()}
    | prompt | chat model | StrOutputParser()

It prints the answer as it streams, then a compact tree of the run built from its
effects (names, types, durations). ``--log`` also prints the ``stream_log``
patches; ``--timeline FILE.svg`` writes a picture of the run (a waterfall of its steps,
drawn from the same effects). The chat model is a local extractive one (it answers with the context's
best-matching sentences, word by word); set ``OPENAI_BASE_URL`` (and
``OPENAI_API_KEY``, ``OPENAI_MODEL``) to use a server that speaks the OpenAI
chat-completions protocol instead.

Run it with ``make quickstart`` or ``python examples/rag.py "your question"``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from combinators import Runnable, RunnableParallel, RunnablePassthrough
from combinators.documents import format_documents_as_string, load_text_documents
from combinators.language_models import ExtractiveChatModel
from combinators.retrievers import ENGLISH_STOPWORDS, Bm25Index
from combinators.language_models import BaseChatModel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from effects.projections.run_tree import RunTreeText
from effects.projections.timeline import Timeline
from effects.effect_values import RunStreamed

CORPUS = Path(__file__).parent / "corpus"
DEFAULT_QUESTION = "What pattern of flashes does the light show?"


def chat_model() -> BaseChatModel:
    """The local extractive model, or an OpenAI-compatible server when configured."""
    base_url = os.environ.get("OPENAI_BASE_URL")
    if not base_url:
        return ExtractiveChatModel(max_sentences=2)
    from combinators.integrations.openai.chat import ChatOpenAI

    return ChatOpenAI(model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"), base_url=base_url)


def build_chain(model: BaseChatModel) -> Runnable[str, str]:
    """The seed's retrieval chain."""
    retriever = Bm25Index.from_documents(load_text_documents(CORPUS), stopwords=ENGLISH_STOPWORDS).as_retriever(k=3)
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "Answer the question from the context only."),
            ("human", "Context:\n{context}\n\nQuestion: {question}"),
        ]
    )
    return (
        RunnableParallel(
            context=retriever | format_documents_as_string,
            question=RunnablePassthrough[str](),
        )
        | prompt
        | model
        | StrOutputParser()
    )


def chain() -> Runnable[str, str]:
    """The chain on the configured model (``python -m combinators.integrations.serving examples.rag:chain``)."""
    return build_chain(chat_model())


async def run(question: str, show_log: bool, timeline_path: str | None = None) -> str:
    """Stream the answer, then print the run tree (and the log patches, the timeline, if asked)."""
    chain = build_chain(chat_model())
    tree = RunTreeText()
    timeline = Timeline()
    answer: list[str] = []
    print(f"Q: {question}\nA: ", end="", flush=True)
    async for effect in chain.astream_effects(question):
        tree.feed(effect)
        timeline.feed(effect)
        if isinstance(effect, RunStreamed) and not effect.run.parent_ids:
            chunk: Any = effect.chunk
            answer.append(str(chunk))
            print(chunk, end="", flush=True)
    print("\n\nRun tree:")
    print(tree.render())
    if timeline_path is not None:
        Path(timeline_path).write_text(timeline.render(f"Q: {question}"), encoding="utf-8")
        print(f"\nTimeline written to {timeline_path}")
    if show_log:
        print("\nRun log patches:")
        async for patch in chain.astream_log(question):
            print(patch)
    return "".join(answer)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("question", nargs="?", default=DEFAULT_QUESTION)
    parser.add_argument("--log", action="store_true", help="also print the stream_log patches")
    parser.add_argument("--timeline", metavar="FILE.svg", help="write a timeline of the run as SVG")
    args = parser.parse_args(argv)
    asyncio.run(run(args.question, args.log, args.timeline))
    return 0


if __name__ == "__main__":
    sys.exit(main())
