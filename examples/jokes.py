"""Jokes, offline: a prompt template piped into a fake chat model.

    PromptTemplate.from_template("Tell me a joke about {topic}") | model

It shows ``invoke``, ``batch`` (at most two calls at a time, with a failure kept in
its slot instead of raised) and ``stream`` (tokens printed as they arrive). The model
is a fake that knows a joke per topic, so the run is the same every time and needs
no network.

Run it with ``python examples/jokes.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import final

import attrs

from combinators import Runnable
from combinators.language_models import ChatOutput, SimpleChatModel
from combinators.messages import Message
from combinators.output_parsers import StrOutputParser
from combinators.components.prompts.inputs import PromptInput
from combinators.prompts import PromptTemplate

JOKES: Mapping[str, str] = {
    "cats": "Why did the cat sit on the computer? To keep an eye on the mouse.",
    "dogs": "What do you call a dog magician? A labracadabrador.",
    "owls": "Why do owls never go out in the rain? It is too wet to woo.",
}


@final
@attrs.frozen
class JokeBook(SimpleChatModel):
    """A fake chat model: the joke about the last word of the prompt, word by word."""

    jokes: Mapping[str, str] = attrs.field(hash=False)

    def _joke(self, messages: list[Message]) -> str:
        topic = messages[-1].text.split()[-1]
        if topic not in self.jokes:
            raise LookupError(f"no joke about {topic!r}")
        return self.jokes[topic]

    def _call(self, messages: list[Message], stop: list[str] | None = None) -> str:
        return self._joke(messages)

    def _call_stream(self, messages: list[Message], stop: list[str] | None = None) -> Iterator[str]:
        words = self._joke(messages).split(" ")
        yield words[0]
        for word in words[1:]:
            yield " " + word


def build_chain() -> Runnable[PromptInput, ChatOutput]:
    """The prompt piped into the model."""
    prompt = PromptTemplate.from_template("Tell me a joke about {topic}")
    return prompt | JokeBook(JOKES)


def main() -> None:
    chain = build_chain()

    print("invoke:")
    print("  " + chain.invoke({"topic": "cats"}).text)

    print("batch (max_concurrency=2, return_exceptions=True):")
    topics = ["dogs", "unicorns", "owls"]
    results = chain.batch([{"topic": t} for t in topics], {"max_concurrency": 2}, return_exceptions=True)
    for topic, result in zip(topics, results, strict=True):
        shown = f"error: {type(result).__name__}: {result}" if isinstance(result, Exception) else result.text
        print(f"  {topic}: {shown}")

    print("stream:")
    tokens = list((chain | StrOutputParser()).stream("owls"))
    print("  " + "|".join(tokens))


if __name__ == "__main__":
    main()
