"""JSON extraction into a TypedDict and an attrs class, with retries and fallbacks."""

from typing import TypedDict

import attrs

from combinators import Runnable
from combinators.language_models import GenericFakeChatModel, ModelServerError, Script
from combinators.output_parsers import JsonOutputParser
from combinators.prompts import ChatPromptTemplate, PromptTemplate


class Joke(TypedDict):
    setup: str
    punchline: str


@attrs.frozen
class Person:
    name: str
    age: int


joke_prompt = PromptTemplate.from_template("Tell a joke about {topic} as JSON.")
person_prompt = ChatPromptTemplate.from_messages([("human", "Who is {name}? Answer in JSON.")])

primary = GenericFakeChatModel(Script(['{"setup": "a", "punchline": "b"}'], cycle=True))
backup = GenericFakeChatModel(Script(['{"setup": "c", "punchline": "d"}'], cycle=True))
resilient = primary.with_retry(
    stop_after_attempt=3, retry_if_exception_type=(ModelServerError,)
).with_fallbacks([backup])

joke_chain: Runnable[dict[str, str], Joke] = joke_prompt | resilient | JsonOutputParser(Joke)
person_chain = person_prompt | primary | JsonOutputParser(Person)


def joke_about(topic: str) -> Joke:
    return joke_chain.invoke({"topic": topic})


def age_of(name: str) -> int:
    return person_chain.invoke({"name": name}).age
