"""``ExtractiveChatModel``: a small, honest local model that answers from its context.

It needs no network and no weights: it reads the context and the question from
the conversation, ranks the context's sentences by BM25 against the question,
and answers with the best ones, streamed word by word. It never invents text:
every word of an answer comes from the context (or it says it does not know).

Two things make the ranking read like a person would: a sentence is indexed together
with the title of its section (a Markdown heading above it: what the passage is about,
which its sentences rarely repeat), and words are matched by their stem ("keeps",
"keeper" and "keepers" all match "keep").

The conversation is read like this: the text after ``Context:`` (up to
``Question:``) is the context, the text after ``Question:`` is the question; with
no markers, the last human message is the question and the other messages are
the context.

>>> from combinators.components.messages.message_classes import HumanMessage
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

from combinators.components.retrieval.bm25 import ENGLISH_STOPWORDS, Bm25Index, tokenize
from combinators.components.models.chat_model import BaseChatModel
from combinators.components.retrieval.documents import Document
from combinators.components.messages.message_classes import AIMessage, AIMessageChunk, Message

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


def context_sentences(context: str) -> list[tuple[str, str]]:
    """The context's sentences, each with the title of the section it is in ("" when none).

    >>> context_sentences("# The lamp\\n\\nIt is lit. It turns.\\n\\nNo title.")
    [('It is lit.', 'The lamp'), ('It turns.', 'The lamp'), ('No title.', '')]
    """
    found: list[tuple[str, str]] = []
    # Headings (markdown "# ...") are titles, not answers; a blank line after a section
    # that had no heading of its own ends the title's reach.
    for block in re.split(r"\n\s*\n", context):
        lines = block.splitlines()
        headings = [line for line in lines if line.lstrip().startswith("#")]
        if headings:
            title = headings[-1].lstrip("# ").strip()
            if len(headings) == len(lines):
                found.append(("", title))  # a heading alone: its section follows
                continue
        elif found and found[-1][0] == "":
            title = found.pop()[1]
        else:
            title = ""
        text = " ".join(line for line in lines if not line.lstrip().startswith("#"))
        found += [(sentence.strip(), title) for sentence in _SENTENCE_END.split(text) if sentence.strip()]
    return [(sentence, title) for sentence, title in found if sentence]


_SUFFIXES: Final = ("ies", "ing", "ed", "er", "es", "s")


def _stem(word: str) -> str:
    """A light English stem: enough to match "keeps", "keeper", "keepers" and "kept"'s kin.

    >>> [_stem(w) for w in ("keeps", "keeper", "keepers", "lights", "running", "ferries", "is")]
    ['keep', 'keep', 'keep', 'light', 'run', 'ferry', 'is']
    """
    for _ in range(2):  # "keepers": -s, then -er
        for suffix in _SUFFIXES:
            stem = word[: -len(suffix)]
            if word.endswith(suffix) and len(stem) >= 3 and not word.endswith(("ss", "us", "is")):
                if suffix == "ies":
                    stem += "y"
                elif suffix in ("ing", "ed", "er") and len(stem) >= 4 and stem[-1] == stem[-2]:
                    stem = stem[:-1]  # "running" -> "runn" -> "run"
                word = stem
                break
    return word


def _stems(text: str) -> str:
    return " ".join(_stem(word) for word in tokenize(text, ENGLISH_STOPWORDS))


# What kind of answer a question asks for, by its first words, and how to see one in a
# sentence: a time (of day), a person (a capitalised name inside the sentence), a quantity.
_TIME = re.compile(
    r"\b(?:1\d{3}|20\d{2}|january|february|march|april|may|june|july|august|september|october|"
    r"november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|"
    r"autumn|winter|morning|afternoon|evening|night|dawn|dusk|sunset|sunrise|o'clock|daily|"
    r"every|once|twice|hours?|minutes?|weeks?|years?)\b",
    re.IGNORECASE,
)
_TIME_OF_DAY = re.compile(
    r"\b(?:morning|afternoon|evening|night|noon|midnight|dawn|dusk|sunset|sunrise|o'clock|\d{1,2}[:.]\d{2})\b",
    re.IGNORECASE,
)
_NAME = re.compile(r"(?<=[a-z,] )[A-Z][a-z]+ [A-Z][a-z]+")
_QUANTITY = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)\b",
    re.IGNORECASE,
)
_ANSWER_KINDS: Final = (
    (re.compile(r"^\s*(?:what|which) time\b", re.I), _TIME_OF_DAY),
    (re.compile(r"^\s*(?:when|what year|how often)\b", re.I), _TIME),
    (re.compile(r"^\s*who\b", re.I), _NAME),
    (re.compile(r"^\s*how (?:many|much|far|tall|long|high|old|big)\b", re.I), _QUANTITY),
)
_KIND_WEIGHT: Final = 2.0
_TITLE_WEIGHT: Final = 0.5


def ranked_sentences(question: str, sentences: list[tuple[str, str]]) -> list[tuple[int, float]]:
    """The sentences' positions, best match first (equal scores in context order).

    A sentence's score is its BM25 score over stems, plus half its section title's (scored
    among the titles, so a word that names a section is not made common by it), times 2
    when the sentence holds the kind of answer the question asks for.

    >>> ranked_sentences("Who lights it?", [("It is lit by the lamp.", ""), ("Then Ada Brand lights it.", "")])
    [(1, ...)]
    """
    query = _stems(question)
    by_sentence = Bm25Index.from_documents([Document(_stems(sentence)) for sentence, _ in sentences]).scores(query)
    titles = sorted({title for _, title in sentences if title})
    by_title = dict(zip(titles, Bm25Index.from_documents([Document(_stems(t)) for t in titles]).scores(query)))
    wanted = next((kind for asks, kind in _ANSWER_KINDS if asks.search(question)), None)
    scored: list[tuple[int, float]] = []
    for order, (sentence, title) in enumerate(sentences):
        score = by_sentence[order] + _TITLE_WEIGHT * by_title.get(title, 0.0)
        if wanted is not None and score > 0 and wanted.search(sentence):
            score *= _KIND_WEIGHT
        scored.append((order, score))
    scored.sort(key=lambda hit: (-hit[1], hit[0]))
    return [hit for hit in scored if hit[1] > 0]


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
        sentences = context_sentences(context)
        if not sentences or not question:
            return NO_ANSWER
        ranked = ranked_sentences(question, sentences)
        hits = [(order, score) for order, score in ranked[: self.max_sentences] if score > self.min_score]
        if not hits:
            return NO_ANSWER
        # Keep the context's own order, so a multi-sentence answer reads as written.
        chosen = sorted(order for order, _ in hits)
        return " ".join(sentences[order][0] for order in chosen)

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
