"""Fifty typical mistakes against the typed application, one per function.

Not type-clean on purpose: excluded from ``make typecheck``; ``count_mistakes.py`` runs
both checkers over it and counts the functions each checker flags. A function whose
docstring starts with "LIMIT" is a documented limit (plain dicts for dict-parallel keys
and tool calls): its typed spelling is the function after it.
"""

from combinators import RunnableLambda, RunnableParallel, chain
from combinators.components import JsonOutputParser
from tests.typesafety.app import batching, custom, extraction, fanout, rag, tools
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
