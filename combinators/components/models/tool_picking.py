"""``ToolPickingChatModel``: a small, honest local model that calls tools.

It needs no network and no weights, and it does exactly this:

1. The question is the text of the last human message.
2. If tool results (``ToolMessage`` s) follow that question, it answers from them:
   a result of one sentence is the answer as it is; from a longer one it takes the
   ``max_sentences`` sentences that best match the question (BM25), in their order.
   It never writes a word that is not in a result.
3. Otherwise, if tools are bound (``bind_tools``), it picks the tool whose name and
   description share the most words with the question (stop words left out; a
   question holding an arithmetic expression such as ``12 * (3 + 4)`` also counts
   the word "arithmetic"), and calls it once. Its arguments: a string parameter
   named ``expression`` gets that arithmetic expression, any other string parameter
   the question; integer and number parameters get the numbers of the question, in
   order. Only required parameters are given.
4. With no tool bound, or none sharing a word with the question, it says it does not know.

It streams its text word by word and each tool call as one chunk, as a provider would.

>>> from combinators.tools import tool
>>> @tool
... def calculator(expression: str) -> str:
...     '''Evaluate an arithmetic expression.'''
...     return "84"
>>> model = ToolPickingChatModel()
>>> asked = model.bind_tools([calculator]).invoke("What is 12 * (3 + 4)?")
>>> asked.tool_calls[0].name, asked.tool_calls[0].args
('calculator', {'expression': '12 * (3 + 4)'})
>>> from combinators.messages import HumanMessage, ToolMessage
>>> model.invoke([HumanMessage("What is 12 * (3 + 4)?"), asked, ToolMessage("84", tool_call_id=asked.tool_calls[0].id or "")]).text
'84'
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, Final, final

import attrs

from combinators.components.retrieval.bm25 import ENGLISH_STOPWORDS, tokenize
from combinators.components.models.chat_model import BaseChatModel
from combinators.components.messages.message_classes import AIMessage, AIMessageChunk, Message, ToolCall, ToolMessage
from combinators.components.models.chunking import apaced, message_chunks
from combinators.components.messages.ai_fields import fresh_id
from combinators.components.models.extractive import context_sentences, ranked_sentences
from combinators.components.tools.specs import bound_functions
from effects.authoring import is_list_or_tuple, is_str_mapping

NO_TOOL: Final = "I don't know: none of my tools matches the question."

_EXPRESSION = re.compile(r"[(\d][\d\s.()]*(?:[-+*/][\s(]*[\d.]+[\d\s.()]*)+")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def arithmetic(text: str) -> str | None:
    """The arithmetic expression in ``text``, if it holds one.

    >>> arithmetic("What is 12 * (3 + 4)?"), arithmetic("Who keeps the light?")
    ('12 * (3 + 4)', None)
    """
    for found in _EXPRESSION.finditer(text):
        expression = found.group(0).strip()
        if expression.count("(") == expression.count(")"):
            return expression
    return None


def _words(text: str) -> set[str]:
    return {w for w in tokenize(text) if w not in ENGLISH_STOPWORDS}


def _object(value: object) -> Mapping[str, object]:
    return value if is_str_mapping(value) else {}


@final
@attrs.frozen
class ToolPickingChatModel(BaseChatModel):
    """Calls the bound tool that best matches the question, then answers from its result."""

    max_sentences: int = 1

    def reply(self, messages: Sequence[Message], kwargs: Mapping[str, object]) -> AIMessage:
        """The reply to a conversation (see the module for exactly how)."""
        asked = max((i for i, m in enumerate(messages) if m.type == "human"), default=-1)
        question = messages[asked].text if asked >= 0 else ""
        results = [m.text for m in messages[asked + 1 :] if isinstance(m, ToolMessage)]
        if results:
            return AIMessage(self._answer(question, results))
        call = self._call(question, bound_functions(kwargs))
        return AIMessage(NO_TOOL) if call is None else AIMessage("", tool_calls=[call])

    def _answer(self, question: str, results: list[str]) -> str:
        # Ranked as ExtractiveChatModel ranks: stems, section titles, the kind of answer asked for.
        sentences = context_sentences("\n\n".join(results))
        if len(sentences) <= 1:
            return " ".join(sentence for sentence, _ in sentences)
        ranked = ranked_sentences(question, sentences)[: self.max_sentences]
        if not ranked:
            return sentences[0][0]
        return " ".join(sentences[order][0] for order in sorted(order for order, _ in ranked))

    def _call(self, question: str, specs: list[Mapping[str, object]]) -> ToolCall | None:
        expression = arithmetic(question)
        asked = _words(question) | ({"arithmetic"} if expression else set[str]())
        best: tuple[int, Mapping[str, object]] | None = None
        for spec in specs:
            said = _words(f"{str(spec.get('name', '')).replace('_', ' ')} {spec.get('description', '')}")
            score = len(asked & said)
            if score > 0 and (best is None or score > best[0]):
                best = (score, spec)
        if best is None:
            return None
        spec = best[1]
        return ToolCall(str(spec["name"]), self._arguments(spec, question, expression), id=fresh_id("call_"))

    def _arguments(self, spec: Mapping[str, object], question: str, expression: str | None) -> dict[str, object]:
        parameters = _object(spec.get("parameters"))
        properties = _object(parameters.get("properties"))
        listed = parameters.get("required")
        required = [str(name) for name in listed] if is_list_or_tuple(listed) and listed else list(properties)
        numbers = iter(_NUMBER.findall(question))
        arguments: dict[str, object] = {}
        for name in required:
            kind = _object(properties.get(name)).get("type")
            if kind in ("integer", "number"):
                found = next(numbers, None)
                if found is not None:
                    arguments[name] = int(float(found)) if kind == "integer" else float(found)
            elif name == "expression" and expression is not None:
                arguments[name] = expression
            else:
                arguments[name] = question
        return arguments

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return self.reply(messages, kwargs)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        yield from message_chunks(self.reply(messages, kwargs))

    async def _astream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        async for chunk in apaced(message_chunks(self.reply(messages, kwargs)), 0.0):
            yield chunk
