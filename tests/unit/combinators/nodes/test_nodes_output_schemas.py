"""Issues 26 and 33: a node built on others publishes its inner runnable's output schema,
title included, as langchain-core 1.8.3 does (each expectation probed on the peer's
``get_output_jsonschema``)."""

from __future__ import annotations

from combinators import ConfigurableField, RunnableLambda, RunnableParallel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import PromptTemplate

PARSED = {"title": "StrOutputParserOutput", "type": "string"}


def size(text: str) -> int:
    return len(text)


def test_a_sequence_gives_its_last_steps_schema() -> None:
    assert (PromptTemplate.from_template("{x}") | RunnableLambda(str) | StrOutputParser()).output_schema() == PARSED
    assert (RunnableLambda(str) | RunnableLambda(size)).output_schema() == {"title": "size_output", "type": "integer"}


def test_wrappers_forward_their_runnables_schema() -> None:
    parser = StrOutputParser()
    assert parser.with_retry().output_schema() == PARSED
    assert parser.with_config(tags=["x"]).output_schema() == PARSED
    assert parser.with_fallbacks([StrOutputParser()]).output_schema() == PARSED
    chosen = parser.configurable_alternatives(ConfigurableField(id="p"), other=StrOutputParser())
    assert chosen.output_schema() == PARSED
    prompt = PromptTemplate.from_template("{x}")
    fields = prompt.configurable_fields(template=ConfigurableField(id="t"))
    assert fields.output_schema() == prompt.output_schema()


def test_with_types_still_wins() -> None:
    typed = RunnableLambda(size).with_types(output_type=str)
    assert typed.output_schema() == {"title": "size_output", "type": "string"}


def test_each_is_an_array_of_its_runnables_schema() -> None:
    assert StrOutputParser().map().output_schema() == {
        "title": "RunnableEach<StrOutputParser>Output",
        "type": "array",
        "items": {"type": "string"},
    }


def test_a_parallel_titles_each_property_after_its_key_and_requires_them_all() -> None:
    both = RunnableParallel(n_chars=RunnableLambda(size), x__y=StrOutputParser())
    assert both.output_schema() == {
        "title": "RunnableParallel<n_chars,x__y>Output",
        "type": "object",
        "properties": {"n_chars": {"title": "N Chars", "type": "integer"}, "x__y": {"title": "X  Y", "type": "string"}},
        "required": ["n_chars", "x__y"],
    }
