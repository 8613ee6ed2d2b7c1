"""Component bases transform their subclasses: the checkers see the declared fields.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import Any, reveal_type

from combinators.documents import Document
from combinators.language_models import BaseChatModel
from combinators.messages import AIMessage
from combinators.retrievers import BaseRetriever
from combinators.tools import BaseTool
from combinators.components.messages.message_classes import Message


class Notes(BaseRetriever):
    documents: list[Document]
    k: int = 3

    def _get_relevant_documents(self, query: str) -> list[Document]:
        return self.documents[: self.k]


class Echo(BaseChatModel):
    prefix: str = "> "

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage(self.prefix)


class Scale(BaseTool):
    factor: int = 2

    def _run(self, x: int) -> int:
        return x * self.factor


def fields_are_constructor_keywords() -> None:
    reveal_type(Notes(documents=[], k=1).k)  # R: int
    reveal_type(Echo(prefix="$ ").prefix)  # R: str
    reveal_type(Scale(factor=3, name="scale").factor)  # R: int


def a_wrong_field_type() -> object:
    return Notes(documents=[], k="many")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def an_unknown_field() -> object:
    return Echo(suffix="!")  # type: ignore[call-arg]  # E: call-arg / reportCallIssue


def fields_are_frozen(notes: Notes) -> None:
    notes.k = 2  # type: ignore[misc]  # E: misc / reportAttributeAccessIssue
