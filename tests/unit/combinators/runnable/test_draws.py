"""The ``input_draw()`` hook: its default, and each library node's answer in its own module."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any, TypeVar

import attrs
import pytest

from combinators import (
    ConfigurableField,
    Runnable,
    RunnableBranch,
    RunnableGenerator,
    RunnableLambda,
    RunnableParallel,
    RunnablePassthrough,
    parallel,
)
from combinators.authoring import (
    DrawFirstKnown,
    DrawFromNext,
    DrawListOf,
    DrawText,
    DrawThrough,
    DrawUnknown,
    DrawValues,
    DrawVariables,
    InputDraw,
)
from combinators.components.models.fakes import FakeListChatModel, FakeListLLM
from combinators.prompts import ChatPromptTemplate, PromptTemplate
from combinators.testing import Flaky, ScriptedRetriever

T = TypeVar("T")


def parse(text: str) -> int:
    return int(text or "0")


def twice(x: T) -> list[T]:
    return [x, x]


def numbers(texts: Iterator[str]) -> Iterator[int]:
    for text in texts:
        yield len(text)


PARSE: Runnable[Any, Any] = RunnableLambda(parse)
SAME: Runnable[Any, Any] = RunnablePassthrough[object]()
ANY: Runnable[Any, Any] = RunnableLambda(lambda x: x)


@attrs.frozen
class Shout(Runnable[str, str]):
    def step_invoke(self, input: str, scope: Any, kwargs: Any) -> str:
        return input.upper()


@pytest.mark.parametrize(
    ("runnable", "answer"),
    [
        (Shout(), DrawValues(str)),
        (PARSE, DrawValues(str)),
        (RunnableGenerator(numbers), DrawValues(str)),
        (SAME, DrawFromNext()),  # a type variable at both ends: the steps after it decide
        (RunnableLambda(twice), DrawUnknown()),  # a type variable only in: it cannot say
        (ANY, DrawUnknown()),
    ],
    ids=[
        "class's Runnable[In, Out]",
        "lambda's hints",
        "generator's Iterator[X]",
        "passthrough",
        "T to list[T]",
        "Any",
    ],
)
def test_the_default_answers_from_the_declared_input_type(runnable: Runnable[Any, Any], answer: InputDraw) -> None:
    assert runnable.input_draw() == answer


def test_the_default_asks_a_runnable_s_own_declared_type_hook() -> None:
    @attrs.frozen
    class Counted(Runnable[Any, int]):
        def declared_type(self, which: Any) -> object:
            return int if which == "input" else super().declared_type(which)

    assert Counted().input_draw() == DrawValues(int)


def _branch() -> Runnable[Any, Any]:
    return RunnableBranch((ANY, PARSE), SAME)


@pytest.mark.parametrize(
    ("node", "answer"),
    [
        (SAME | PARSE | ANY, DrawThrough((SAME, PARSE, ANY))),
        (PARSE.with_config(tags=["x"]), DrawThrough((PARSE,))),
        (ANY.with_types(input_type=int), DrawValues(int)),
        (PARSE.with_retry(), DrawThrough((PARSE,))),
        (PARSE.bind(lambda _: ANY), DrawThrough((PARSE,))),
        (Flaky(PARSE), DrawThrough((PARSE,))),
        (ANY.with_fallbacks([PARSE]), DrawFirstKnown((ANY, PARSE))),
        (RunnableParallel(a=ANY, b=PARSE), DrawFirstKnown((ANY, PARSE))),
        (parallel(ANY, PARSE), DrawFirstKnown((ANY, PARSE))),
        (RunnablePassthrough.assign(a=ANY, b=PARSE), DrawThrough((RunnableParallel(a=ANY, b=PARSE),))),
        (_branch(), DrawFirstKnown((ANY, PARSE, SAME))),
        (PARSE.each(), DrawListOf(PARSE)),
    ],
    ids=[
        "sequence",
        "binding",
        "with_types",
        "retry",
        "bind",
        "Flaky",
        "fallbacks",
        "parallel",
        "parallel tuple",
        "assign",
        "branch",
        "each",
    ],
)
def test_each_library_node_points_at_its_parts(node: Runnable[Any, Any], answer: InputDraw) -> None:
    assert node.input_draw() == answer


def test_configurable_fields_draw_what_their_runnable_draws() -> None:
    prompt = PromptTemplate("{topic}")
    assert prompt.configurable_fields(template=ConfigurableField(id="t")).input_draw() == DrawThrough((prompt,))


def test_components_say_what_their_inputs_are() -> None:
    assert FakeListChatModel(responses=["a"]).input_draw() == DrawValues(str)
    assert FakeListLLM(responses=["a"]).input_draw() == DrawValues(str)
    assert ScriptedRetriever(results=()).input_draw() == DrawText()
    assert PromptTemplate("{b} and {a}").input_draw() == DrawVariables(("a", "b"))
    chat = ChatPromptTemplate.from_messages([("system", "{b}"), ("human", "{a}")])
    assert chat.input_draw() == DrawVariables(("a", "b"))


def test_running_and_building_never_load_the_answers() -> None:
    # Building the answers' classes costs more than a node's import: only a property test asks.
    code = (
        "import sys\n"
        "from combinators import RunnableLambda, RunnablePassthrough\n"
        "from combinators.prompts import PromptTemplate\n"
        "import combinators.authoring\n"
        "chain = PromptTemplate('{x}') | RunnablePassthrough() | RunnableLambda(lambda value: value.text).with_retry()\n"
        "assert chain.invoke({'x': 'fog'}) == 'fog'\n"
        "print('combinators.runnable.draws' in sys.modules)\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "False"
