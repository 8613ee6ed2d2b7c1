"""Issues 28 and 33: a node built on a prompt publishes the prompt's input schema (its
variables, required), as langchain-core 1.8.3 does, not its broad declared type.
Each expectation was probed on the peer (``get_input_jsonschema``)."""

from __future__ import annotations

from typing import Any

from combinators import ConfigurableField, RunnableLambda, RunnableParallel, RunnablePassthrough
from combinators.agents import AgentExecutor, agent_loop, create_tool_calling_agent
from combinators.language_models import FakeListChatModel, ScriptedChatModel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder, PromptTemplate
from combinators.tools import tool

PROMPT = ChatPromptTemplate.from_messages([("system", "Be {tone}."), ("human", "{question}")])
VARIABLES = {"tone": {"title": "Tone", "type": "string"}, "question": {"title": "Question", "type": "string"}}


def _model() -> Any:
    return FakeListChatModel(responses=["ok"])


def test_the_prompt_itself() -> None:
    schema = PROMPT.input_schema()
    # The peer titles every prompt's input schema "PromptInput", whatever its class or name.
    assert schema["title"] == "PromptInput"
    assert PromptTemplate.from_template("{a}").input_schema()["title"] == "PromptInput"
    assert (PROMPT | _model()).input_schema()["title"] == "PromptInput"
    assert schema["properties"] == VARIABLES and schema["required"] == ["question", "tone"]


def test_a_sequence_publishes_its_first_steps_schema() -> None:
    chain = PROMPT | _model() | StrOutputParser()
    assert chain.input_schema() == PROMPT.input_schema()
    assert chain.get_input_jsonschema() == PROMPT.input_schema()
    assert ((PROMPT | _model()) | StrOutputParser()).input_schema() == PROMPT.input_schema()


def test_wrappers_publish_the_inner_schema() -> None:
    expected = PROMPT.input_schema()
    chain = PROMPT | _model()
    assert PROMPT.with_retry().input_schema() == expected
    assert PROMPT.with_fallbacks([PROMPT]).input_schema() == expected
    assert chain.with_retry().input_schema() == expected
    assert chain.with_fallbacks([chain]).input_schema() == expected
    assert PROMPT.bind(stop=["x"]).input_schema() == expected
    assert chain.with_config(tags=["x"]).input_schema() == expected
    assert chain.with_config(tags=["x"]).get_input_jsonschema() == expected
    configured = PROMPT | _model().configurable_fields(responses=ConfigurableField(id="responses"))
    assert configured.input_schema() == expected
    alternatives = chain.configurable_alternatives(ConfigurableField(id="which"), other=chain)
    assert alternatives.input_schema() == expected


def test_with_types_still_wins_over_the_inner_schema() -> None:
    assert (PROMPT | _model()).with_types(input_type=str).input_schema()["type"] == "string"


def test_each_is_a_list_of_the_inner_schema() -> None:
    schema = PROMPT.map().input_schema()
    assert schema["type"] == "array"
    assert schema["items"]["properties"] == VARIABLES and schema["items"]["required"] == ["question", "tone"]


def test_a_parallel_merges_its_branches_objects() -> None:
    other = PromptTemplate.from_template("{other}")
    schema = RunnableParallel(a=PROMPT, b=other).input_schema()
    assert schema["title"] == "RunnableParallel<a,b>Input" and schema["type"] == "object"
    assert list(schema["properties"]) == ["question", "tone", "other"]
    assert schema["required"] == ["question", "tone", "other"]


def test_a_parallel_with_a_branch_taking_no_object_keeps_its_own_schema() -> None:
    def shout(text: str) -> str:
        return text.upper()

    assert RunnableParallel(a=PROMPT, b=shout).input_schema().get("properties") is None


def test_a_parallel_with_a_passthrough_branch_takes_the_prompts_object() -> None:
    schema = RunnableParallel(a=PROMPT, b=RunnablePassthrough()).input_schema()
    assert schema["required"] == ["question", "tone"]


def test_assign_then_prompt_requires_only_what_is_not_assigned() -> None:
    # The peer: the prompt's variables less the assigned keys, titled as the sequence.
    chain = RunnablePassthrough.assign(tone=RunnableLambda(lambda _: "kind")) | PROMPT
    schema = chain.input_schema()
    assert schema["title"] == "RunnableSequenceInput"
    assert schema["properties"] == {"question": VARIABLES["question"]}
    assert schema["required"] == ["question"]


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def test_agent_executor_takes_an_input_string() -> None:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You multiply."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    agent = create_tool_calling_agent(ScriptedChatModel(["done"]), [multiply], prompt)
    schema = AgentExecutor(agent=agent, tools=[multiply]).input_schema()
    assert schema["type"] == "object" and schema["required"] == ["input"]
    assert schema["properties"]["input"] == {"title": "Input", "type": "string"}


def test_agent_loop_without_a_prompt_takes_its_union() -> None:
    schema = agent_loop(ScriptedChatModel(["done"]), [multiply]).input_schema()
    assert [arm.get("title") for arm in schema["anyOf"]] == [
        "Question",
        "Messages",
        "QuestionAndHistory",
        "Conversation",
    ]
