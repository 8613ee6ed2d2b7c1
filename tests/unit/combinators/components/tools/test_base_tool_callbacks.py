"""callbacks= on a tool written as a class, as LangChain's BaseTool takes it."""

from __future__ import annotations

from typing import Any

from langchain_core.tools import BaseTool as TheirBaseTool

from combinators.tools import BaseTool
from tests.unit.combinators.integrations.langchain.recording import Recorder


class Shout(BaseTool):
    """Shouts the text."""

    def _run(self, text: str) -> str:
        return text.upper()


class TheirShout(TheirBaseTool):
    name: str = "Shout"
    description: str = "Shouts the text."

    def _run(self, text: str, **kwargs: Any) -> str:
        return text.upper()


def test_a_tools_own_handlers_see_its_runs_as_langchains_do() -> None:
    mine, peer = Recorder(), Recorder()
    assert Shout(callbacks=[mine]).invoke({"text": "a"}) == TheirShout(callbacks=[peer]).invoke({"text": "a"}) == "A"
    assert (
        [name for name, _, _ in mine.calls] == [name for name, _, _ in peer.calls] == ["on_tool_start", "on_tool_end"]
    )
    assert mine.calls[0][1][0]["name"] == peer.calls[0][1][0]["name"] == "Shout"
    assert mine.calls[-1][1][0] == "A"
    assert Shout() == Shout(callbacks=[mine])  # handlers are not part of the tool's value
