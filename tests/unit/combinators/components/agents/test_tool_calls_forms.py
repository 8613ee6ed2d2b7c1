"""Every tool form runs in both drivers (agent_loop and AgentExecutor), sync and async (issue 26).

A ``BaseTool`` subclass used to crash the loop: sync with ``AttributeError: ... 'func'``
(the sync check read a ``RunnableTool`` field), async with ``TypeError: ... 'reply'``
(``attrs.evolve`` on a class without that field).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from combinators import RunnableLambda
from combinators.documents import Document
from combinators.language_models import ScriptedChatModel
from combinators.prompts import ChatPromptTemplate
from combinators.retrievers import BaseRetriever
from combinators.tools import BaseTool, StructuredTool, tool
from combinators.agents import AgentExecutor, agent_loop, create_tool_calling_agent
from tests.unit.combinators.components.agents.helpers import calls


def multiply_function(a: int, b: int) -> int:
    """Multiply two numbers."""
    return a * b


@tool
def multiply_decorated(a: int, b: int) -> int:
    """Multiply two numbers."""
    return a * b


multiply_structured = StructuredTool.from_function(multiply_function, name="multiply_structured")


class MultiplyTool(BaseTool):
    name: str = "multiply_class"
    description: str = "Multiply two numbers."

    def _run(self, a: int, b: int) -> int:
        return a * b


def _product(args: dict[str, int]) -> int:
    return args["a"] * args["b"]


SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}
multiply_runnable = RunnableLambda(_product).as_tool(name="multiply_runnable", args_schema=SCHEMA)


class Shelf(BaseRetriever):
    def _get_relevant_documents(self, query: str) -> list[Document]:
        return [Document(f"about {query}")]


search_shelf = Shelf().as_tool(name="search_shelf", description="Search the shelf.")

# (tool, its name, the arguments a model sends, text the model then sees in the answer)
FORMS: dict[str, tuple[Any, str, dict[str, Any], str]] = {
    "function": (multiply_function, "multiply_function", {"a": 6, "b": 7}, "42"),
    "@tool": (multiply_decorated, "multiply_decorated", {"a": 6, "b": 7}, "42"),
    "StructuredTool": (multiply_structured, "multiply_structured", {"a": 6, "b": 7}, "42"),
    "BaseTool subclass": (MultiplyTool(), "multiply_class", {"a": 6, "b": 7}, "42"),
    "runnable.as_tool()": (multiply_runnable, "multiply_runnable", {"a": 6, "b": 7}, "42"),
    "retriever.as_tool()": (search_shelf, "search_shelf", {"query": "owls"}, "about owls"),
}
PROMPT = ChatPromptTemplate.from_messages([("human", "{input}"), ("placeholder", "{agent_scratchpad}")])


def _script(name: str, args: dict[str, Any]) -> ScriptedChatModel:
    return ScriptedChatModel([calls((name, args)), "Done."])


def _seen_by_model(model: ScriptedChatModel) -> str:
    return str(model.calls[1].messages[-1].content)


Run = Callable[[Any, ScriptedChatModel], object]


def _loop_sync(t: Any, model: ScriptedChatModel) -> object:
    return agent_loop(model, [t]).invoke("go").output


def _loop_async(t: Any, model: ScriptedChatModel) -> object:
    return asyncio.run(agent_loop(model, [t]).ainvoke("go")).output


def _executor(t: Any, model: ScriptedChatModel) -> AgentExecutor:
    return AgentExecutor(agent=create_tool_calling_agent(model, [t], PROMPT), tools=[t])


def _executor_sync(t: Any, model: ScriptedChatModel) -> object:
    return _executor(t, model).invoke({"input": "go"})["output"]


def _executor_async(t: Any, model: ScriptedChatModel) -> object:
    return asyncio.run(_executor(t, model).ainvoke({"input": "go"}))["output"]


DRIVERS: dict[str, Run] = {
    "agent_loop sync": _loop_sync,
    "agent_loop async": _loop_async,
    "AgentExecutor sync": _executor_sync,
    "AgentExecutor async": _executor_async,
}


@pytest.mark.parametrize("driver", list(DRIVERS))
@pytest.mark.parametrize("form", list(FORMS))
def test_every_tool_form_runs_in_every_driver(form: str, driver: str) -> None:
    given, name, args, seen = FORMS[form]
    model = _script(name, args)
    assert DRIVERS[driver](given, model) == "Done."
    assert seen in _seen_by_model(model)
    assert model.calls[0].tools == (name,)


def test_something_that_is_no_tool_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match=r"as_tool\(\)"):
        agent_loop(ScriptedChatModel(["x"]), [RunnableLambda(_product)])  # type: ignore[list-item]
