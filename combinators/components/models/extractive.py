"""``ExtractiveChatModel``: a small, honest local model that answers from its context.

It needs no network and no weights: it reads the context and the question from
the conversation, ranks the context's sentences by BM25 against the question,
and answers with the best ones, streamed word by word. It never invents text:
every word of an answer comes from the context (or it says it does not know).

The conversation is read like this: the text after ``Context:`` (up to
``Question:``) is the context, the text after ``Question:`` is the question; with
no markers, the last human message is the question and the other messages are
the context.

>>> from combinators.components.messages.values import HumanMessage
>>> model = ExtractiveChatModel()
>>> prompt = "Context:\\nThe ferry leaves at nine. The lighthouse is red.\\nQuestion: What colour is the lighthouse?"
>>> model.invoke(prompt).text
'The lighthouse is red.'
>>> [c.text for c in model.stream(prompt)][:3]
['The', ' ', 'lighthouse']
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any, Final, final

import attrs

from combinators.components.retrieval.bm25 import ENGLISH_STOPWORDS, Bm25Index
from combinators.components.models.chat_model import BaseChatModel
from combinators.components.retrieval.documents import Document
from combinators.components.messages.values import AIMessage, AIMessageChunk, Message

NO_ANSWER: Final = "I don't know: the context does not say."

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _split_conversation(messages: list[Message]) -> tuple[str, str]:
    text = "\n".join(m.text for m in messages)
    if "Question:" in text:
        before, question = text.rsplit("Question:", 1)
        context = before.split("Context:", 1)[1] if "Context:" in before else before
        return context.strip(), question.strip()
    human = [m for m in messages if m.type == "human"]
    question = human[-1].text if human else (messages[-1].text if messages else "")
    context = "\n".join(m.text for m in messages if m.text != question)
    return context.strip(), question.strip()


def _sentences(context: str) -> list[str]:
    # Headings (markdown "# ...") are titles, not answers.
    lines = [line for line in context.splitlines() if not line.lstrip().startswith("#")]
    return [s.strip() for s in _SENTENCE_END.split(" ".join(lines)) if s.strip()]


def _words(text: str) -> list[str]:
    return [t for t in re.split(r"(\s)", text) if t]


@final
@attrs.frozen
class ExtractiveChatModel(BaseChatModel):
    """Answers with the ``max_sentences`` context sentences that best match the question."""

    max_sentences: int = 1
    min_score: float = 0.0

    def answer(self, messages: list[Message]) -> str:
        """The answer text for a conversation."""
        context, question = _split_conversation(messages)
        sentences = _sentences(context)
        if not sentences or not question:
            return NO_ANSWER
        index = Bm25Index.from_documents(
            [Document(s, {"order": i}) for i, s in enumerate(sentences)],
            stopwords=ENGLISH_STOPWORDS,
        )
        hits = [(doc, score) for doc, score in index.search(question, self.max_sentences) if score > self.min_score]
        if not hits:
            return NO_ANSWER
        # Keep the context's own order, so a multi-sentence answer reads as written.
        chosen = sorted(hits, key=lambda hit: int(str(hit[0].metadata["order"])))
        return " ".join(doc.page_content for doc, _ in chosen)

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage(self.answer(messages))

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        for word in _words(self.answer(messages)):
            yield AIMessageChunk(word)

    async def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        for word in _words(self.answer(messages)):
            yield AIMessageChunk(word)
