"""from_langchain is typed by what it wraps: a chat model as our model, a retriever as
ours, anything else by the types the caller gives; a wrong pipe is an error.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import reveal_type

from langchain_core.language_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser as TheirStrParser
from langchain_core.retrievers import BaseRetriever as TheirRetriever

from combinators import RunnableLambda
from combinators.components import Document, StrOutputParser
from combinators.integrations.langchain import from_langchain


def count(documents: list[Document]) -> int:
    return len(documents)


def a_chat_model_is_our_model() -> None:
    model = from_langchain(FakeListChatModel(responses=["hi"]))
    reveal_type(model.invoke("hi"))  # R: AIMessage | AIMessageChunk
    reveal_type((model | StrOutputParser()).invoke([("human", "hi")]))  # R: str
    model.invoke(3)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def a_retriever_gives_our_documents(theirs: TheirRetriever) -> None:
    retriever = from_langchain(theirs)
    reveal_type(retriever)  # R: Runnable[str, list[Document]]
    reveal_type(retriever | RunnableLambda(count))  # R: Runnable[str, int]


def anything_else_is_typed_by_the_caller() -> None:
    parser = from_langchain(TheirStrParser(), str, str)
    reveal_type(parser)  # R: Runnable[str, str]
    reveal_type(parser.invoke("x"))  # R: str


def anything_else_needs_its_types() -> None:
    from_langchain(TheirStrParser())  # type: ignore[call-overload]  # E: call-overload / reportCallIssue, reportArgumentType


def the_constructor_keywords_are_typed(theirs: TheirRetriever) -> None:
    reveal_type(from_langchain(theirs, name="shelf", tags=["t"], metadata={"k": 1}))  # R: Runnable[str, list[Document]]
    reveal_type(from_langchain(TheirStrParser(), str, str, verbose=True, callbacks=[]))  # R: Runnable[str, str]
    from_langchain(theirs, metadata=["k"])  # type: ignore[call-overload]  # E: call-overload / reportCallIssue, reportArgumentType
