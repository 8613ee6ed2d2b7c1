"""The shipped strategies: well-typed chains, fakes, inputs, readable shrunk examples."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from combinators import (
    ConfigurableField,
    Runnable,
    RunnableBranch,
    RunnableLambda,
    RunnableParallel,
    RunnablePassthrough,
    RunnableSequence,
    parallel,
)
from combinators.authoring import DrawText, DrawThrough, DrawVariables, InputDraw
from combinators.prompts import PromptTemplate
from combinators.components.retrieval.documents import BaseRetriever, Document
from combinators.components.models.fakes import GenericFakeChatModel
from combinators.components.messages.message_classes import AIMessage
from combinators.testing import (
    Flaky,
    Record,
    ScriptedFailure,
    ScriptedRetriever,
    chat_models,
    documents,
    functions,
    inputs_for,
    retrievers,
    runnables,
    agent_scripts,
    values_of,
)
from combinators.testing import steps
from combinators.testing.agents import UNKNOWN_TOOL
from combinators.testing.steps import VALUE_TYPES
from effects.clock import FakeClock, use_clock
from tests.message_ids import RUN_ID

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def is_value_of(value: object, tp: object) -> bool:
    if tp is int:
        return type(value) is int
    if tp is str:
        return isinstance(value, str) and value != ""
    if tp == list[int]:
        return isinstance(value, list) and all(type(v) is int for v in value)  # pyright: ignore[reportUnknownVariableType]
    if tp is Record:
        return isinstance(value, dict) and type(value.get("a")) is int and type(value.get("b")) is int  # pyright: ignore[reportUnknownMemberType]
    assert tp == tuple[int, str]
    return isinstance(value, tuple) and len(value) == 2 and type(value[0]) is int and isinstance(value[1], str)  # pyright: ignore[reportUnknownArgumentType]


@pytest.mark.parametrize("a", VALUE_TYPES, ids=steps.type_name)
@pytest.mark.parametrize("b", VALUE_TYPES, ids=steps.type_name)
def test_chains_take_and_give_the_types_asked_for(a: Any, b: Any) -> None:
    @settings(max_examples=8, deadline=None)
    @given(runnables(a, b, max_leaves=5, failures=False), st.data())
    def check(chain: Runnable[Any, Any], data: st.DataObject) -> None:
        x = data.draw(inputs_for(chain))
        assert is_value_of(x, a)
        assert is_value_of(chain.invoke(x), b), repr(chain)

    check()


@FEW
@given(runnables(max_leaves=1, failures=False))
def test_one_leaf_is_a_step_not_a_composite(chain: Runnable[Any, Any]) -> None:
    for kind in ("Branch", "Parallel", ".bind(", ".each(", ".with_retry(", ".with_fallbacks(", "Flaky"):
        assert kind not in repr(chain)


def test_larger_sizes_reach_every_kind_of_node() -> None:
    seen: set[str] = set()

    # Derandomized: coverage of every kind is a fact about this fixed sample, not luck.
    @settings(max_examples=400, deadline=None, database=None, derandomize=True)
    @given(runnables(max_leaves=8))
    def collect(chain: Runnable[Any, Any]) -> None:
        seen.update(kind for kind in KINDS if kind in repr(chain))

    collect()
    assert seen == set(KINDS)


KINDS = (
    "RunnableBranch(",
    "RunnableParallel(",
    "parallel(",
    ".assign(",
    "RunnablePick(",
    ".bind(Switch(",
    ".each()",
    ".with_retry(",
    ".with_fallbacks(",
    ".with_config(",
    "Flaky(",
    "fail_on_odd_size",
    "RunnableGenerator(",
    "pure(",
    "RunnablePassthrough()",
)


def test_unknown_value_types_are_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"runnables\(\) builds chains over int, str, list\[int\], Record"):
        runnables(float, int)
    with pytest.raises(ValueError, match="max_leaves >= 1"):
        runnables(int, int, max_leaves=0)


@FEW
@given(runnables(max_leaves=6).filter(lambda c: ".with_config(" not in repr(c)))
def test_chains_survive_pickling(chain: Runnable[Any, Any]) -> None:
    # with_config is left out while a bound RunConfig does not pickle (see test_known_bugs).
    copy = pickle.loads(pickle.dumps(chain))
    assert copy == chain
    assert repr(copy) == repr(chain)


@FEW
@given(runnables(max_leaves=6))
def test_reprs_read_like_expressions(chain: Runnable[Any, Any]) -> None:
    shown = repr(chain)
    assert " object at 0x" not in shown and "parts=" not in shown and "<function" not in shown


def test_a_shrunk_chain_prints_as_its_expression() -> None:
    @settings(max_examples=100, deadline=None, database=None)
    @given(runnables(int, int, max_leaves=4, failures=False))
    def never_a_sequence(chain: Runnable[int, int]) -> None:
        assert not isinstance(chain, RunnableSequence)

    with pytest.raises(AssertionError) as failure:
        never_a_sequence()
    notes = "\n".join(getattr(failure.value, "__notes__", []))
    shown = notes.split("chain=", 1)[1].rsplit(",", 1)[0]
    assert " | " in shown and "parts=" not in shown and "func=" not in shown, notes


# ----------------------------------------------------------------------------- Flaky


def test_flaky_fails_its_first_calls_then_runs_its_step() -> None:
    flaky = Flaky(RunnableLambda(steps.inc), failures=2)
    outcomes = flaky.batch([1, 1, 1], return_exceptions=True)
    assert sorted(map(repr, outcomes))[0] == "2"
    assert sum(isinstance(o, ScriptedFailure) for o in outcomes) == 2
    assert flaky.invoke(1) == 2


@FEW
@given(st.integers(0, 3), st.lists(values_of(int), max_size=6))
def test_retry_with_more_attempts_than_failures_always_recovers(failures: int, xs: list[int]) -> None:
    chain = Flaky(RunnableLambda(steps.inc), failures=failures).with_retry(
        stop_after_attempt=failures + 1, wait_exponential_jitter=False
    )
    assert chain.batch(xs) == [x + 1 for x in xs]
    assert asyncio.run(chain.abatch(xs)) == [x + 1 for x in xs]


def test_a_flaky_stream_fails_before_its_first_chunk() -> None:
    flaky = Flaky(RunnableLambda(steps.words), failures=1)
    stream = flaky.stream("a b")
    with pytest.raises(ScriptedFailure):
        next(stream)
    assert list(flaky.stream("a b")) == ["a ", "b "]
    retried = Flaky(RunnableLambda(steps.words), failures=1).with_retry(
        stop_after_attempt=2, wait_exponential_jitter=False
    )
    assert list(retried.stream("a b")) == ["a ", "b "]


def test_flaky_refuses_a_negative_number_of_failures() -> None:
    with pytest.raises(ValueError, match="failures >= 0"):
        Flaky(RunnableLambda(steps.inc), failures=-1)


# ----------------------------------------------------------------------------- inputs


def test_inputs_for_reads_annotations_through_wrappers() -> None:
    def parse(text: str) -> int:
        return int(text or "0")

    chain: Runnable[Any, int] = (RunnablePassthrough() | RunnableLambda(parse)).with_retry().with_config(tags=["x"])
    assert isinstance(find(inputs_for(chain), lambda _: True), str)
    each = RunnableLambda(steps.inc).each()
    assert find(inputs_for(each), lambda xs: len(xs) > 1) == [0, 0]
    declared = RunnableLambda(lambda v: v).with_types(input_type=int)
    assert find(inputs_for(declared), lambda v: v > 4) == 5


def test_inputs_for_a_custom_runnable_reads_its_base() -> None:
    @attrs.frozen
    class Shout(Runnable[str, str]):
        def step_invoke(self, input: str, scope: Any, kwargs: Any) -> str:
            return input.upper()

    assert find(inputs_for(Shout()), lambda t: len(t) > 2) == "aaa"


def test_inputs_for_a_custom_runnable_asks_its_declared_type_hook() -> None:
    # The node's own hook answers (as for its schemas), not a walk of its bases here.
    @attrs.frozen
    class Counted(Runnable[Any, int]):
        def declared_type(self, which: Any) -> object:
            return int if which == "input" else super().declared_type(which)

        def step_invoke(self, input: Any, scope: Any, kwargs: Any) -> int:
            return int(input)

    assert find(inputs_for(Counted()), lambda n: n > 4) == 5


def test_inputs_for_a_custom_runnable_draws_what_its_input_draw_hook_answers() -> None:
    # A runnable of one's own answers the same hook as the library's nodes.
    @attrs.frozen
    class Search(Runnable[Any, list[str]]):
        def input_draw(self) -> InputDraw:
            return DrawText()

        def step_invoke(self, input: Any, scope: Any, kwargs: Any) -> list[str]:
            return str(input).split()

    @attrs.frozen
    class Logged(Runnable[Any, Any]):
        inner: Runnable[Any, Any]

        def input_draw(self) -> InputDraw:
            return DrawThrough((self.inner,))

        def step_invoke(self, input: Any, scope: Any, kwargs: Any) -> Any:
            return scope.invoke(self.inner, input)

    @attrs.frozen
    class Letter(Runnable[Any, str]):
        def input_draw(self) -> InputDraw:
            return DrawVariables(("name", "city"))

        def step_invoke(self, input: Any, scope: Any, kwargs: Any) -> str:
            return "Dear {name} of {city}".format(**input)

    assert find(inputs_for(Search()), lambda q: " " in q) == "fog fog"
    assert find(inputs_for(Logged(Search())), lambda q: " " in q) == "fog fog"
    assert find(inputs_for(Logged(RunnablePassthrough()) | Letter()), lambda _: True) == {"name": "fog", "city": "fog"}
    assert find(inputs_for(Search().each()), lambda qs: len(qs) > 1) == ["fog", "fog"]
    with pytest.raises(TypeError, match="inputs_for cannot tell"):
        inputs_for(Logged(RunnablePassthrough()))


def _parse(text: str) -> int:
    return int(text or "0")


_PARSE: Runnable[Any, Any] = RunnableLambda(_parse)
_ANY: Runnable[Any, Any] = RunnableLambda(lambda x: x)


@pytest.mark.parametrize(
    ("node", "first"),
    [
        (RunnablePassthrough() | _PARSE, "a"),
        (_PARSE.with_config(tags=["x"]), "a"),
        (_PARSE.with_retry(), "a"),
        (_PARSE.bind(lambda _: _ANY), "a"),
        (Flaky(_PARSE), "a"),
        (_ANY.with_fallbacks([_PARSE]), "a"),
        (RunnableParallel(a=_ANY, b=_PARSE), "a"),
        (parallel(_ANY, _PARSE), "a"),
        (RunnablePassthrough.assign(a=_ANY, b=_PARSE), "a"),
        (RunnableBranch((_ANY, _PARSE), RunnablePassthrough()), "a"),
        (_PARSE.each(), ["a"]),
        (_ANY.with_types(input_type=int), 0),
        (
            RunnablePassthrough() | PromptTemplate("{text}").configurable_fields(template=ConfigurableField(id="t")),
            {"text": "fog"},
        ),
    ],
    ids=[
        "sequence",
        "binding",
        "retry",
        "bind",
        "Flaky",
        "fallbacks",
        "parallel",
        "parallel tuple",
        "assign",
        "branch",
        "each",
        "with_types",
        "configurable fields",
    ],
)
def test_inputs_for_each_library_node_draws_what_its_parts_draw(node: Runnable[Any, Any], first: object) -> None:
    assert find(inputs_for(node), lambda x: x != []) == first


def test_inputs_for_alternatives_that_cannot_say_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="inputs_for cannot tell"):
        inputs_for(_ANY.with_fallbacks([_ANY]))


def test_inputs_for_models_retrievers_and_prompts_are_text() -> None:
    model = find(chat_models(), lambda _: True)
    retriever = find(retrievers(), lambda _: True)
    assert find(inputs_for(model), lambda _: True) == "a"
    assert find(inputs_for(retriever), lambda q: " " in q) == "fog fog"
    prompt = PromptTemplate.from_template("{b} and {a}")
    assert find(inputs_for(prompt | model), lambda _: True) == {"a": "fog", "b": "fog"}


def test_inputs_for_an_unknown_input_type_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match=r"inputs_for cannot tell the input type of RunnableLambda\(lambda x: x\)"):
        inputs_for(RunnableLambda(lambda x: x))


def test_values_of_and_functions() -> None:
    assert find(values_of(int | None), lambda v: v is None) is None
    assert find(values_of(dict[str, int]), lambda d: len(d) == 1) == {"a": 0}
    assert find(values_of(tuple[int, ...]), lambda t: len(t) == 2) == (0, 0)
    assert find(functions(int, int), lambda f: f(2) == 4).__name__ == "double"
    assert find(functions(object, object), lambda f: f(1) == [1]).__name__ == "singleton_list"
    with pytest.raises(ValueError, match="functions\\(\\) has none from str to float"):
        functions(str, float)


# ----------------------------------------------------------------------------- fakes


@FEW
@given(chat_models(max_replies=2, max_failures=2))
def test_scripted_failures_are_caught_by_retry(model: GenericFakeChatModel) -> None:
    first_reply = next(r for r in model.script.replies if isinstance(r, str))
    retried = model.with_retry(stop_after_attempt=3, wait_exponential_jitter=False)
    assert retried.invoke("hi") == AIMessage(first_reply, id=RUN_ID)


@FEW
@given(chat_models(token_delays=st.sampled_from([0.0, 0.25, 1.0])))
def test_token_delays_go_through_the_clock(model: GenericFakeChatModel) -> None:
    reply = model.script.replies[0]
    assert isinstance(reply, str)
    clock = FakeClock()
    with use_clock(clock):
        tokens = [chunk.text for chunk in model.stream("hi")]
    assert "".join(tokens) == reply
    assert clock.sleeps == ([model.token_delay] * len(tokens) if model.token_delay else [])


@FEW
@given(documents(with_ids=True))
def test_documents_are_small_valid_values(document: Document) -> None:
    assert document.page_content and document.id is not None
    assert set(document.metadata) <= {"source", "year"}


@FEW
@given(retrievers(max_documents=5), st.data())
def test_retrievers_return_documents_of_their_corpus(retriever: BaseRetriever, data: st.DataObject) -> None:
    query = data.draw(inputs_for(retriever))
    found = retriever.invoke(query)
    assert all(isinstance(d, Document) for d in found)
    assert retriever.invoke(query) == found  # deterministic


@FEW
@given(retrievers(scripted=True, max_failures=1, delays=st.just(0.5)))
def test_scripted_retrievers_fail_and_wait_as_scripted(retriever: BaseRetriever) -> None:
    assert isinstance(retriever, ScriptedRetriever)
    clock = FakeClock()
    with use_clock(clock):
        outcomes = retriever.batch(["q"] * len(retriever.results), return_exceptions=True)
    assert sorted(map(repr, outcomes)) == sorted(
        map(repr, (r if isinstance(r, BaseException) else list(r) for r in retriever.results))
    )
    assert clock.sleeps == [0.5] * len(retriever.results)


_ARGS = st.fixed_dictionaries({"a": st.integers(0, 9), "b": st.integers(0, 9)})


@FEW
@given(agent_scripts({"add": _ARGS, "mul": _ARGS}, max_steps=3, max_calls=2, unknown_tools=True, finish=None))
def test_agent_scripts_draw_the_steps_calls_and_tools_asked_for(script: list[AIMessage]) -> None:
    asking = [m for m in script if m.tool_calls]
    assert len(asking) <= 3 and all(1 <= len(m.tool_calls) <= 2 for m in asking)
    assert {c.name for m in asking for c in m.tool_calls} <= {"add", "mul", UNKNOWN_TOOL}
    assert all(set(c.args) == {"a", "b"} for m in asking for c in m.tool_calls if c.name != UNKNOWN_TOOL)
    assert script[: len(asking)] == asking  # the answer, if any, comes last
    assert len(script) - len(asking) in (0, 1) and all(m.text for m in script[len(asking) :])


def test_agent_scripts_finish_as_asked_and_need_a_tool() -> None:
    always = find(agent_scripts({"add": _ARGS}, finish=True), lambda s: True)
    never = find(agent_scripts({"add": _ARGS}, finish=False, max_steps=2), lambda s: len(s) == 2)
    assert not always[-1].tool_calls and all(m.tool_calls for m in never)
    assert find(agent_scripts({"add": _ARGS}), lambda s: any(c.id is None for m in s for c in m.tool_calls))
    with pytest.raises(ValueError, match="at least one tool"):
        agent_scripts({})


def test_inputs_for_alternatives_draws_what_their_default_draws() -> None:
    # Alternatives stand for their default: over a prompt they draw its variables (they
    # drew values of the prompt's declared input type before StandIn answered the hook).
    prompt = PromptTemplate.from_template("{b} and {a}")
    alternatives = prompt.configurable_alternatives(ConfigurableField(id="p"), other=prompt)
    assert find(inputs_for(alternatives), lambda _: True) == {"a": "fog", "b": "fog"}
    assert find(inputs_for(alternatives), lambda _: True) == find(inputs_for(prompt), lambda _: True)
