"""Chat histories written the LangChain way: BaseChatMessageHistory (issue 26)."""

from __future__ import annotations

import asyncio

import pydantic
import pytest

from combinators import RunnableLambda
from combinators.chat_history import BaseChatMessageHistory, ChatHistory
from combinators.messages import AIMessage, BaseMessage, HumanMessage, Message
from combinators.chat_history import RunnableWithMessageHistory


class History(BaseChatMessageHistory, pydantic.BaseModel):
    messages: list[BaseMessage] = pydantic.Field(default_factory=list)

    def add_messages(self, messages: object) -> None:
        self.messages.extend(messages)  # type: ignore[arg-type]

    def clear(self) -> None:
        self.messages = []


def test_a_pydantic_history_is_a_chat_history_with_the_peer_s_methods() -> None:
    history = History()
    assert isinstance(history, ChatHistory)
    history.add_user_message("hi")
    history.add_ai_message("hello")
    history.add_message(HumanMessage("again"))
    assert history.messages == [HumanMessage("hi"), AIMessage("hello"), HumanMessage("again")]
    assert asyncio.run(history.aget_messages()) == history.messages
    asyncio.run(history.aclear())
    assert history.messages == []


def test_runnable_with_message_history_takes_it() -> None:
    store: dict[str, History] = {}

    def session(session_id: str) -> History:
        return store.setdefault(session_id, History())

    chat = RunnableWithMessageHistory(RunnableLambda(lambda messages: f"{len(messages)} seen"), session)
    config = {"configurable": {"session_id": "s"}}
    assert chat.invoke("hi", config) == "1 seen"
    assert chat.invoke("hi", config) == "3 seen"
    assert [m.type for m in store["s"].messages] == ["human", "ai", "human", "ai"]


def test_a_history_without_an_add_method_says_which_to_write() -> None:
    class Bare(BaseChatMessageHistory):
        messages: list[Message] = []

        def clear(self) -> None:
            pass

    with pytest.raises(NotImplementedError, match="add_messages or add_message"):
        Bare().add_user_message("x")
