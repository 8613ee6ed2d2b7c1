"""Typical mistakes against the typed application, one per function (82: the first 51,
four that both checkers missed before, a misspelled import from each package root, then
one per typed surface added since: the config mapping, client_configurable, a remote
chain, an executor, the LangChain bridge, bind, the wire form).

Not type-clean on purpose: excluded from ``make typecheck``; ``count_mistakes.py`` runs
both checkers over it and counts the functions each checker flags. A function whose
docstring starts with "LIMIT" is a documented limit (plain dicts for dict-parallel keys
and tool calls): its typed spelling is the function after it.
"""

from typing import TypedDict

from combinators import Runnable, RunnableBranch, RunnableLambda, RunnableParallel, chain
from combinators.output_parsers import JsonOutputParser
from langchain_core.runnables import RunnableLambda as TheirLambda

from combinators.integrations.langchain import from_langchain
from combinators.integrations.serving import RemoteRunnable, from_wire, serve
from effects import RunConfig
from tests.typesafety.app import batching, custom, extraction, fanout, interop, rag, tools
from tests.typesafety.app.extraction import Joke


def m01() -> object:
    return rag.rag_chain.invoke(42)


def m02() -> object:
    return rag.rag_chain.invoke("q") + 1


def m03() -> None:
    x: int = rag.rag_chain.invoke("q")
    print(x)


def m04() -> object:
    return rag.rag_chain.batch("q1")


def m05() -> object:
    return rag.rag_chain.batch([1, 2])


def m06() -> object:
    return rag.rag_chain.invoke("q", {"max_concurrency": "4"})


def m07() -> object:
    return rag.rag_chain.invoke("q", {"tags": "fast"})


def m08() -> object:
    return rag.rag_chain.with_config(run_name=3)


def m09() -> object:
    return rag.rag_chain.invoke("q", {"max_concurency": 4})


def m10() -> object:
    return rag.rag_chain.with_retry(stop_after_attempt="3")


def m11() -> object:
    return rag.rag_chain.with_fallbacks([fanout.stats])


def m12() -> object:
    return rag.rag_chain.with_timeout("5")


def m13() -> object:
    return rag.typed_prompt.invoke({"questoin": "q", "context": "c"})


def m14() -> object:
    return rag.typed_prompt.invoke({"question": "q"})


def m15() -> object:
    return RunnableLambda(fanout.length) | rag.typed_prompt


def m16() -> object:
    return fanout.stats | fanout.ratio


def m17() -> object:
    return fanout.first_word(3)


def m18() -> object:
    return fanout.stats.invoke("a")[3]


def m19() -> object:
    a, b = fanout.stats.invoke("a")
    return a, b


def m20() -> object:
    return fanout.stats.invoke("a")[1].upper()


def m21() -> object:
    return RunnableParallel(words=RunnableLambda(fanout.words), loud=RunnableLambda(fanout.summary)).invoke("a")


def m22() -> object:
    """LIMIT: a dict-parallel's keys are not typed (its output is a dict[str, Any])."""
    return fanout.by_key.invoke("x")["sizee"]


def m23() -> object:
    return fanout.stats.invoke("x")[1] + "!"


def m24() -> object:
    return tools.multiply.call(a="3", b=2)


def m25() -> object:
    return tools.multiply.call(1, 2, 3)


def m26() -> object:
    return tools.multiply.call(a=1, c=2)


def m27() -> object:
    """LIMIT: a tool called with a plain dict of arguments is checked at run time only."""
    return tools.multiply.invoke({"a": "three"})


def m28() -> object:
    return tools.product("1", 2)


async def m29() -> object:
    return await tools.lookup.acall(3)


def m30() -> object:
    return tools.lookup.invoke({"word": "x"})


def m31() -> object:
    @chain
    async def slow(text: str) -> str:
        return text

    return slow.invoke("x")


def m32() -> object:
    return extraction.joke_about(1)


def m33() -> object:
    return extraction.joke_chain.invoke({"topic": 3})


def m34() -> object:
    return extraction.joke_about("x")["setupp"]


def m35() -> object:
    return extraction.joke_about("x")["setup"] + 1


def m36() -> object:
    return extraction.age_of("x").upper()


def m37() -> object:
    return extraction.person_chain.invoke({"name": "x"}).nam


def m38() -> object:
    return JsonOutputParser(Joke).invoke(42)


def m39() -> object:
    return RunnableLambda(fanout.length) | rag.model


def m40() -> object:
    return rag.model | fanout.shout


def m41() -> object:
    return custom.Repeat("3")


def m42() -> object:
    return custom.Twice(rag.rag_chain).invoke(3)


def m43() -> object:
    return custom.clean.invoke(3)


def m44() -> object:
    return custom.pipeline.invoke("x").upper()


def m45() -> object:
    return custom.logged(RunnableLambda(fanout.length)) | fanout.shout


def m46() -> object:
    return batching.parsed_or_zero("123")


def m47() -> object:
    return rag.rag_chain.stream_events("q", include_types="chat_model")


def m48() -> object:
    return rag.rag_chain.stream_events("q", include_types=["chatmodel"])


def m49() -> object:
    return [op["value"] for patch in rag.rag_chain.stream_log("q") for op in patch.ops if op["op"] == "remove"]


def m50() -> object:
    return [e["data"]["output"] for e in rag.rag_chain.stream_events("q") if e["event"] == "on_chat_model_stream"]


def m51() -> object:
    return batching.parser.batch("123")


# The mistakes both checkers missed before (issue 27's "still missed" list).


def branch_returns_other_than_declared() -> object:
    routed: Runnable[str, str] = RunnableBranch((fanout.is_loud, fanout.length), fanout.shout)
    return routed


def parallel_branches_take_different_inputs() -> object:
    """LIMIT (mypy): standing alone, mypy solves the shared input to Never (pyright reports it)."""
    return RunnableParallel(words=RunnableLambda(fanout.words), total=RunnableLambda(fanout.summary))


def reads_a_key_assign_never_added() -> object:
    """LIMIT: assign's output is a dict[str, Any]; typing its keys would need a plugin."""
    return fanout.with_ratio.invoke("a b")["ratoi"]


def misspelled_template_variable() -> object:
    """LIMIT: the TypedDict is checked against the template when built (InputError), not by
    the checkers: reading the template string would need a plugin."""

    class Questoin(TypedDict):
        questoin: str
        context: str

    return rag.prompt.with_variables(Questoin)


# A misspelled import from each package root (the roots' run-time __getattr__ is hidden
# from the checkers, so only declared names import).


def misspelled_import_from_combinators() -> object:
    from combinators import RunableLambda

    return RunableLambda


def misspelled_import_from_effects() -> object:
    from effects import FakeClok

    return FakeClok


def misspelled_import_from_components() -> object:
    from combinators.components import ChatPromptTemplat

    return ChatPromptTemplat


def misspelled_import_from_prompts() -> object:
    from combinators.prompts import PromptTemplat

    return PromptTemplat


def misspelled_import_from_prompt_values() -> object:
    from combinators.prompt_values import StringPromptVal

    return StringPromptVal


def misspelled_import_from_messages() -> object:
    from combinators.messages import HumanMesage

    return HumanMesage


def misspelled_import_from_language_models() -> object:
    from combinators.language_models import GenericFakeChatModle

    return GenericFakeChatModle


def misspelled_import_from_outputs() -> object:
    from combinators.outputs import ChatGenerations

    return ChatGenerations


def misspelled_import_from_output_parsers() -> object:
    from combinators.output_parsers import StrOutputParsr

    return StrOutputParsr


def misspelled_import_from_tools() -> object:
    from combinators.tools import StructuredTol

    return StructuredTol


def misspelled_import_from_documents() -> object:
    from combinators.documents import Documnt

    return Documnt


def misspelled_import_from_retrievers() -> object:
    from combinators.retrievers import BaseRetreiver

    return BaseRetreiver


def misspelled_import_from_embeddings() -> object:
    from combinators.embeddings import Embedings

    return Embedings


def misspelled_import_from_vectorstores() -> object:
    from combinators.vectorstores import InMemoryVectorStor

    return InMemoryVectorStor


def misspelled_import_from_chat_history() -> object:
    from combinators.chat_history import InMemoryHistoryStor

    return InMemoryHistoryStor


def misspelled_import_from_agents() -> object:
    from combinators.agents import AgentExecuter

    return AgentExecuter


def misspelled_import_from_load() -> object:
    from combinators.load import dump

    return dump


def misspelled_import_from_secrets() -> object:
    from combinators.secrets import Secrets

    return Secrets


# Issue 27's "everything new is typed": one mistake per new typed surface.


def config_is_read_only() -> None:
    def f(name: str, config: RunConfig) -> str:
        config["tags"] = ["x"]
        return name

    RunnableLambda(f)


def configurable_value_is_not_a_str() -> object:
    def f(name: str, config: RunConfig) -> str:
        return config["configurable"]["user_id"].upper()

    return RunnableLambda(f)


def client_configurable_is_ids() -> object:
    return serve({"/greet": interop.greet}, client_configurable=5)


def remote_answers_are_declared() -> object:
    remote = RemoteRunnable[str, str]("http://127.0.0.1:1/greet")
    n: int = remote.invoke("x")
    return n


def executor_is_an_executor() -> object:
    return interop.greet.batch(["a"], executor="dask")


def from_langchain_declared_output() -> object:
    wrong: Runnable[str, str] = from_langchain(TheirLambda(len), str, int)
    return wrong


def their_chat_model_takes_model_input() -> object:
    return interop.their_model.invoke(42)


def bind_kwargs_are_not_a_reader() -> object:
    return interop.greet.bind(5)


def wire_values_are_narrowed() -> object:
    return from_wire({"type": "ai", "content": "hi"}).text
