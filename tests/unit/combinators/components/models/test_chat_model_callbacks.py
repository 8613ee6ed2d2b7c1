"""callbacks= on a chat model, as LangChain's chat models take it: the handlers are told
about the model's own runs, as langchain-core tells a model's own handlers."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import FakeListChatModel as TheirFakeModel
from langchain_core.runnables import RunnableLambda as TheirLambda

from combinators import RunnableLambda
from combinators.components.models.chat_model import BaseChatModel
from combinators.messages import AIMessage
from tests.unit.combinators.integrations.langchain.recording import Recorder, tree


class Echo(BaseChatModel):
    """A model of the user's, declaring LangChain's ``callbacks`` field."""

    callbacks: Any = None

    def _generate(self, messages: list[Any], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage("ab")


def _question(text: str) -> str:
    return text


def test_a_models_own_handlers_see_its_runs_as_langchains_do() -> None:
    mine, peer = Recorder(), Recorder()
    ours = RunnableLambda(_question, name="question") | Echo(callbacks=[mine])
    theirs = TheirLambda(_question, name="question") | TheirFakeModel(responses=["ab"], callbacks=[peer])
    assert ours.invoke("hi").content == theirs.invoke("hi").content == "ab"
    assert [name for name, _, _ in mine.calls] == [name for name, _, _ in peer.calls]
    assert [name for name, _, _ in mine.calls] == ["on_chat_model_start", "on_llm_end"]
    # Its parent is the sequence's run, which only LangChain's bookkeeping (and ours, for
    # these handlers' sake) gives an id: the handlers see none of it.
    parent, their_parent = mine.calls[0][2]["parent_run_id"], peer.calls[0][2]["parent_run_id"]
    assert parent is not None and their_parent is not None
    told = tree(mine.calls, root_parent=parent)
    assert told == {("Echo",): told[("Echo",)]}
    assert told[("Echo",)][1][:2] == ("end", ("ai", "ab"))


def test_without_handlers_a_model_has_no_binding() -> None:
    assert Echo().step_binding is None
    assert Echo(callbacks=[]).step_binding is None
    assert Echo(callbacks=[Recorder()]).step_binding is not None
