"""Streaming JSON, offline: partial objects, JSON-patch diffs, and a typed result.

    prompt | model | JsonOutputParser()           # partial values as the reply grows
    prompt | model | JsonOutputParser(diff=True)  # the JSON-patch ops between them
    prompt | model | JsonOutputParser(Book)       # a Book, checked against its schema

The fake model replies with a JSON object in a markdown code fence, streamed word by
word; the parser strips the fence, closes what is still open (strings, lists,
objects) and yields only when the value changes. The prompt tells the model the
schema (``get_format_instructions``).

Run it with ``python examples/json_stream.py``.
"""

from __future__ import annotations

import json

import attrs

from combinators.language_models import GenericFakeChatModel, Script
from combinators.output_parsers import JsonOutputParser
from combinators.prompts import ChatPromptTemplate

REPLY = """```json
{"title": "Moby-Dick", "author": "Herman Melville", "year": 1851, "tags": ["whale", "sea"]}
```"""


@attrs.frozen
class Book:
    title: str
    author: str
    year: int
    tags: list[str] = attrs.field(factory=list[str])


def prompt() -> ChatPromptTemplate:
    """Asks for a book as JSON, with the schema in the instructions."""
    return ChatPromptTemplate.from_messages(
        [("system", "{format_instructions}"), ("human", "Recommend a book about {topic}.")]
    ).partial(format_instructions=JsonOutputParser(Book).get_format_instructions())


def model() -> GenericFakeChatModel:
    return GenericFakeChatModel(Script([REPLY], cycle=True))


def main() -> None:
    print("format instructions:")
    print("  " + prompt().invoke("the sea").to_messages()[0].text.splitlines()[0])

    print("partial values:")
    for value in (prompt() | model() | JsonOutputParser()).stream("the sea"):
        print("  " + json.dumps(value))

    print("diffs:")
    for ops in (prompt() | model() | JsonOutputParser(diff=True)).stream("the sea"):
        print("  " + json.dumps(ops))

    print("typed:")
    book = (prompt() | model() | JsonOutputParser(Book)).invoke("the sea")
    print(f"  {book!r}")


if __name__ == "__main__":
    main()
