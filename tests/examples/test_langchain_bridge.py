"""examples/langchain_bridge.py runs offline: LangChain's loader, splitter and store inside
our chain, the answer streamed and LangChain's inner runs among ours in the events; then our
chain as a LangGraph node, its model's tokens streamed as LangGraph's messages."""

from __future__ import annotations

from collections import Counter

from tests.examples.test_examples import run_example, section


def test_the_bridge_example_streams_an_answer_with_langchains_runs_among_ours() -> None:
    lines = run_example("langchain_bridge.py")
    assert section(lines, "corpus") == ["16 documents, 45 pieces"]
    [answer] = section(lines, "answer")
    assert answer.startswith("At the highest spring tides, usually in March and in October")
    runs = section(lines, "runs")
    assert runs[0] == "on_chain_start RunnableSequence" and runs[-1] == "on_chain_end RunnableSequence"
    # Every run that starts ends; LangChain's retriever is a run below our wrapper of it.
    starts = Counter(line.replace("_start ", " ") for line in runs if "_start " in line)
    ends = Counter(line.replace("_end ", " ") for line in runs if "_end " in line)
    assert starts == ends
    wrapper = runs.index("      on_chain_start VectorStoreRetriever")
    inner = runs.index("        on_retriever_start VectorStoreRetriever")
    assert wrapper < inner
    assert [line.strip() for line in runs if "Extractive" in line or "Prompt" in line or "Parser" in line] == [
        "on_prompt_start ChatPromptTemplate",
        "on_prompt_end ChatPromptTemplate",
        "on_chat_model_start ExtractiveChatModel",
        "on_parser_start StrOutputParser",
        "on_chat_model_end ExtractiveChatModel",
        "on_parser_end StrOutputParser",
    ]


def test_the_bridge_example_runs_our_chain_as_a_langgraph_node() -> None:
    lines = run_example("langchain_bridge.py")
    [answer] = section(lines, "answer")
    # stream_mode="messages": our model's tokens, added up, are the same answer.
    assert section(lines, "langgraph messages") == [answer]
    assert section(lines, "langgraph updates") == ["answer: ['answer']"]
