"""Component types pinned: tools, parsers, prompts, models, retrievers, and the quickstart.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import Any, TypedDict, reveal_type

import attrs

from combinators import RunnableLambda, RunnablePassthrough
from combinators.documents import Document
from combinators.language_models import FakeListChatModel, FakeListLLM, GenericFakeChatModel, Script
from combinators.messages import AIMessage, ToolMessage
from combinators.output_parsers import JsonOutputParser, StrOutputParser
from combinators.prompts import ChatPromptTemplate, PromptTemplate
from combinators.retrievers import Bm25Index
from combinators.tools import tool


@tool
def multiply(a: int, b: int = 2) -> int:
    """Multiply two numbers."""
    return a * b


@tool
async def fetch(url: str) -> str:
    """Fetch a page."""
    return url


class Joke(TypedDict):
    setup: str
    punchline: str


@attrs.frozen
class Person:
    name: str
    age: int


class Question(TypedDict):
    question: str
    context: str


def format_documents(docs: list[Document]) -> str:
    return "\n".join(doc.page_content for doc in docs)


index = Bm25Index.from_documents([Document("The lamp is lit at dusk.")])
retriever = index.as_retriever(k=2)
prompt = ChatPromptTemplate.from_messages([("system", "Answer from: {context}"), ("human", "{question}")])
model = FakeListChatModel(responses=["hi"])


# ---------------------------------------------------------------- tools


def tool_from_a_function() -> None:
    reveal_type(multiply)  # R-mypy: RunnableTool[int | ToolMessage, [a: int, b: int =], int, str | Mapping[str, Any] | ToolCallLike]  # R-pyright: RunnableTool[int | ToolMessage, (a: int, b: int = 2), int, str | Mapping[str, Any] | ToolCallLike]


def tool_invoked_with_arguments() -> None:
    reveal_type(multiply.invoke({"a": 3}))  # R: int | ToolMessage


def tool_called_with_typed_arguments() -> None:
    reveal_type(multiply.call(3, b=4))  # R: int


async def async_tool_called_with_typed_arguments() -> None:
    reveal_type(await fetch.acall("https://example.org"))  # R: str


def tool_answering_a_tool_call() -> None:
    reveal_type(multiply.invoke({"name": "multiply", "args": {"a": 1}, "id": "c1", "type": "tool_call"}))  # R: int | ToolMessage


# ---------------------------------------------------------------- parsers


def json_parser_without_a_schema() -> None:
    reveal_type(JsonOutputParser())  # R-mypy: JsonOutputParser[None | bool | int | float | str | list[...] | dict[str, ...]]  # R-pyright: JsonOutputParser[bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None]


def json_parser_with_a_typed_dict() -> None:
    reveal_type(JsonOutputParser(Joke).invoke("{}"))  # R-mypy: TypedDict(Joke, {'setup': str, 'punchline': str})  # R-pyright: Joke


def json_parser_with_an_attrs_class() -> None:
    reveal_type(JsonOutputParser(Person).invoke("{}"))  # R: Person


def str_parser() -> None:
    reveal_type(StrOutputParser())  # R: StrOutputParser


# ---------------------------------------------------------------- prompts and models


def prompt_template() -> None:
    reveal_type(PromptTemplate.from_template("{topic}").invoke({"topic": "fog"}))  # R: StringPromptValue


def chat_prompt_template() -> None:
    reveal_type(prompt.invoke({"question": "q", "context": "c"}))  # R: ChatPromptValue


def prompt_typed_by_its_variables() -> None:
    reveal_type(prompt.with_variables(Question))  # R-mypy: Runnable[TypedDict(Question, {'question': str, 'context': str}), ChatPromptValue]  # R-pyright: Runnable[Question, ChatPromptValue]


def chat_model_invoked() -> None:
    reveal_type(model.invoke("hi"))  # R: AIMessage | AIMessageChunk


def fake_models_take_lists() -> None:
    reveal_type(FakeListChatModel(responses=["a", "b"]))  # R: FakeListChatModel
    reveal_type(FakeListLLM(responses=["a"]))  # R: FakeListLLM
    reveal_type(GenericFakeChatModel(Script(["x"])))  # R: GenericFakeChatModel


def model_with_kwargs_is_a_binding() -> None:
    reveal_type(model.with_kwargs(stop=["\n"]).kwargs)  # R: Mapping[str, object]


def retriever_invoked() -> None:
    reveal_type(retriever.invoke("lamp"))  # R: list[Document]


# ---------------------------------------------------------------- the quickstart


def quickstart_chain() -> None:
    chain = {"context": retriever | format_documents, "question": RunnablePassthrough()} | prompt | model | StrOutputParser()
    reveal_type(chain)  # R: Runnable[str, str]


def model_reply_to_a_tool_call(message: AIMessage) -> None:
    reveal_type([multiply.invoke(call) for call in message.tool_calls])  # R: list[int | ToolMessage]


def tool_message_content(reply: ToolMessage) -> None:
    reveal_type(reply.tool_call_id)  # R: str


def typed_json_extraction() -> None:
    reveal_type(prompt | model | JsonOutputParser(Joke))  # R-mypy: Runnable[Mapping[str, Any] | str, TypedDict(Joke, {'setup': str, 'punchline': str})]  # R-pyright: Runnable[Mapping[str, Any] | str, Joke]


def passthrough_with_a_lambda_step() -> None:
    reveal_type(RunnableLambda(format_documents))  # R: RunnableLambda[list[Document], str, list[Document]]


def unused(x: Any) -> None:
    pass
