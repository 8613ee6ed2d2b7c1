"""Third-party handlers trace our chains unchanged: langchain-core's own tracer classes
(RunCollectorCallbackHandler, ConsoleCallbackHandler) and OpenInference's LangChain
instrumentation (spans to an in-memory exporter) give the same run tree for our chain, through
to_langchain or config["callbacks"], as for the same chain of langchain-core's parts.

(LangSmith's and Langfuse's handlers need their services; they are not tested here.)"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tracers import ConsoleCallbackHandler
from langchain_core.tracers.run_collector import RunCollectorCallbackHandler
from langchain_core.tracers.schemas import Run
from openinference.instrumentation.langchain import LangChainInstrumentor
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.unit.combinators.integrations.langchain.test_handlers import _boom, ours, theirs
from tests.unit.combinators.integrations.langchain.test_to_runnable import both

_LANGCHAINS_OWN = ("lc_versions", "ls_integration")
_IDS = re.compile(r"lc_run--[0-9a-f-]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _plain(value: object) -> str:
    # Run ids (and the message ids made of them) differ between any two runs.
    return _IDS.sub("<id>", repr(value))


def _run_tree(run: Run, path: tuple[str, ...] = ()) -> Iterator[tuple[object, ...]]:
    here = (*path, run.name)
    metadata = {
        k: v for k, v in (run.extra or {}).get("metadata", {}).items() if k not in ("lc_versions", "ls_integration")
    }
    yield (
        here,
        run.run_type,
        tuple(sorted(run.tags or [])),
        _plain(sorted(metadata.items())),
        _plain(run.inputs),
        _plain(run.outputs),
        None if run.error is None else run.error.splitlines()[0],
        [event["name"] for event in run.events],
    )
    for child in sorted(run.child_runs, key=lambda c: c.name):
        yield from _run_tree(child, here)


def _collected(chain: Any, config: dict[str, Any], fails: bool = False) -> list[tuple[object, ...]]:
    collector = RunCollectorCallbackHandler()
    try:
        chain.invoke({"q": "hi"}, {**config, "callbacks": [collector]})
    except ValueError:
        assert fails
    [root] = collector.traced_runs
    return list(_run_tree(root))


@pytest.mark.parametrize("fails", [False, True])
def test_langchains_run_collector_traces_ours_as_its_own(fails: bool) -> None:
    config: dict[str, Any] = {"tags": ["T"], "metadata": {"m": 1}}
    mine, peer = (ours(_boom), theirs(_boom)) if fails else (ours(), theirs())
    assert _collected(mine, config, fails) == _collected(peer, config, fails)
    mine_wrapped, peer_wrapped = both(_boom) if fails else both()
    got = _collected(mine_wrapped, config, fails)
    assert got == _collected(peer_wrapped, config, fails)
    assert [row[0] for row in got][:3] == [
        ("RunnableSequence",),
        ("RunnableSequence", "RunnableSequence"),
        ("RunnableSequence", "RunnableSequence", "ChatPromptTemplate"),
    ]


def test_langchains_console_handler_prints_ours_as_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    def printed(chain: Any) -> list[str]:
        chain.invoke({"q": "hi"}, {"callbacks": [ConsoleCallbackHandler()]})
        text = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().out)
        text = re.sub(r"\[\d+(\.\d+)?m?s\]", "[time]", text)
        return _IDS.sub("<id>", text).splitlines()

    got, expected = printed(ours()), printed(theirs())
    assert got == expected
    assert any("[chain/end] [chain:RunnableSequence > chain:last]" in line for line in got)


def _spans(exporter: InMemorySpanExporter) -> list[tuple[object, ...]]:
    spans: tuple[ReadableSpan, ...] = exporter.get_finished_spans()
    exporter.clear()
    by_id = {span.context.span_id: span for span in spans if span.context is not None}
    shapes: list[tuple[object, ...]] = []
    for span in spans:
        path: list[str] = []
        at: ReadableSpan | None = span
        while at is not None:
            path.insert(0, at.name)
            at = by_id.get(at.parent.span_id) if at.parent is not None else None
        attributes = dict(span.attributes or {})
        if "metadata" in attributes:
            metadata = json.loads(str(attributes["metadata"]))
            attributes["metadata"] = _plain(sorted((k, v) for k, v in metadata.items() if k not in _LANGCHAINS_OWN))
        # The one difference: a model's invocation parameters are each library's own (ours:
        # its describe_params).
        kept = {key: _plain(value) for key, value in attributes.items() if key != "llm.invocation_parameters"}
        shapes.append((tuple(path), str(span.status.status_code), sorted(kept.items())))
    return sorted(shapes)


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    exported = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exported))
    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        yield exported
    finally:
        instrumentor.uninstrument()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_openinference_traces_ours_as_langchains_own(exporter: InMemorySpanExporter) -> None:
    mine, peer = both()
    mine.invoke({"q": "hi"})
    got = _spans(exporter)
    peer.invoke({"q": "hi"})
    assert got == _spans(exporter)
    assert len(got) == 7
    kinds = {path[-1]: dict(attributes).get("openinference.span.kind") for path, _, attributes in got}
    assert kinds["FakeListChatModel"] == "'LLM'" and kinds["ChatPromptTemplate"] == "'PROMPT'"
    [prompt] = [dict(attributes) for path, _, attributes in got if path[-1] == "ChatPromptTemplate"]
    assert prompt["llm.prompt_template.template"] == "'{q}'"
    assert prompt["llm.prompt_template.variables"] == repr(json.dumps({"q": "hi"}))


def _prompted(system: str, partial: bool) -> tuple[Any, Any]:
    """A prompt with a system template (its style partial or given), a model and a parser:
    ours and langchain-core's."""
    from langchain_core.language_models import FakeListChatModel as TheirModel
    from langchain_core.output_parsers import StrOutputParser as TheirParser
    from langchain_core.prompts import ChatPromptTemplate as TheirPrompt

    from combinators.language_models import FakeListChatModel
    from combinators.output_parsers import StrOutputParser
    from combinators.prompts import ChatPromptTemplate

    messages = [("system", system), ("placeholder", "{history}"), ("human", "{q}")]
    mine: Any = ChatPromptTemplate.from_messages(messages)
    peer: Any = TheirPrompt.from_messages(messages)
    if partial:
        mine, peer = mine.partial(style="brief"), peer.partial(style="brief")
    return (
        mine | FakeListChatModel(responses=["ok"]) | StrOutputParser(),
        peer | TheirModel(responses=["ok"]) | TheirParser(),
    )


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("partial", [False, True])
def test_openinference_reads_our_prompts_template_and_variables(exporter: InMemorySpanExporter, partial: bool) -> None:
    mine, peer = _prompted("Be {style}, {name}.", partial)
    given: dict[str, Any] = {"q": "hi", "name": "Ann", "history": []} | ({} if partial else {"style": "terse"})
    mine.invoke(given, {"callbacks": [BaseCallbackHandler()]})
    got = _spans(exporter)
    peer.invoke(given, {"callbacks": [BaseCallbackHandler()]})
    assert got == _spans(exporter)
    [prompt] = [dict(attributes) for path, _, attributes in got if path[-1] == "ChatPromptTemplate"]
    assert prompt["llm.prompt_template.template"] == repr("Be {style}, {name}.")
    variables = {"style": "brief" if partial else "terse", "name": "Ann"}
    assert json.loads(eval(prompt["llm.prompt_template.variables"])) == variables


def _text(value: Any) -> str:
    return str(value.to_string())


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_openinference_reads_a_string_prompts_template(exporter: InMemorySpanExporter) -> None:
    from langchain_core.prompts import PromptTemplate as TheirPrompt
    from langchain_core.runnables import RunnableLambda as TheirLambda

    from combinators import RunnableLambda
    from combinators.prompts import PromptTemplate

    handled: Any = {"callbacks": [BaseCallbackHandler()]}
    (PromptTemplate.from_template("Say {x}") | RunnableLambda(_text)).invoke({"x": "hi"}, handled)
    got = _spans(exporter)
    (TheirPrompt.from_template("Say {x}") | TheirLambda(_text)).invoke({"x": "hi"}, handled)
    assert got == _spans(exporter)
    [prompt] = [dict(attributes) for path, _, attributes in got if path[-1] == "PromptTemplate"]
    assert prompt["llm.prompt_template.template"] == repr("Say {x}")
    assert prompt["llm.prompt_template.variables"] == repr(json.dumps({"x": "hi"}))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_openinference_traces_our_own_call_given_a_handler(exporter: InMemorySpanExporter) -> None:
    # OpenInference joins every LangChain callback manager: a call of ours that is given
    # any handler is traced, as LangChain's own calls are.
    ours().invoke({"q": "hi"}, {"callbacks": [BaseCallbackHandler()]})
    got = _spans(exporter)
    theirs().invoke({"q": "hi"}, {"callbacks": [BaseCallbackHandler()]})
    assert got == _spans(exporter)
    assert [path for path, _, _ in got][0] == ("RunnableSequence",)
