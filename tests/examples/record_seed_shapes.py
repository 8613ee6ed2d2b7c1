"""Record langchain-core 1.8.3's printed shapes of the seed pages' examples (run by hand).

``python -m tests.examples.record_seed_shapes`` runs the seed pages' code examples (the
LangChain.js pages in ../shared/seeds/) against the real LangChain Python, translated by
the same mechanical rules as our ports (``tests/examples/test_seed_pages.py``), with the
same local stand-ins for the network services, and writes what each prints, and its
shape (``seed_shapes.shape``), to ``tests/examples/golden/seed_shapes.json``. Our ports
are checked against that file where the page's own output is JavaScript-only (a JS
object's console form, a JS error's stack).

The LangChain side of each stand-in: ``ChatOpenAI`` is langchain-community's (LangChain's
own OpenAI chat model built on the ``openai`` SDK; langchain-openai is not installed),
streaming in ``astream`` as langchain-openai's does; ``OpenAIEmbeddings`` is a small
``Embeddings`` calling the stub through the ``openai`` SDK (langchain-community's needs
tiktoken's files from the network); ``HNSWLib`` is LangChain's ``InMemoryVectorStore``;
``formatDocumentsAsString`` (JS-only) is written out; ``AgentExecutor`` and
``create_openai_functions_agent`` are langchain-classic's. Needs: langchain-core 1.8.3,
langchain-community, langchain-classic, openai.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.examples.seed_shapes import GOLDEN, normalise, shape
from tests.examples.seed_stub import SEARCH_RESULT, stub_reply
from tests.unit.combinators.integrations.openai.fake_server import FakeOpenAIServer

Example = Callable[[], None]


def stream() -> None:
    from langchain_core.prompts import PromptTemplate

    from tests.examples.seed_langchain_standins import ChatOpenAI

    async def main() -> None:
        model = ChatOpenAI()
        prompt_template = PromptTemplate.from_template("Tell me a joke about {topic}")

        chain = prompt_template.pipe(model)

        stream = chain.astream({"topic": "bears"})

        # Each chunk has the same interface as a chat message
        async for chunk in stream:
            print(chunk.content if chunk is not None else None)

    asyncio.run(main())


def invoke() -> None:
    from langchain_core.prompts import PromptTemplate
    from langchain_core.runnables import RunnableSequence

    from tests.examples.seed_langchain_standins import ChatOpenAI

    async def main() -> None:
        model = ChatOpenAI()
        prompt_template = PromptTemplate.from_template("Tell me a joke about {topic}")

        # You can also create a chain using an array of runnables
        chain = RunnableSequence(*[prompt_template, model])  # RunnableSequence.from: the peer's constructor

        result = await chain.ainvoke({"topic": "bears"})

        print(result)

    asyncio.run(main())


def batch() -> None:
    from langchain_core.prompts import PromptTemplate

    from tests.examples.seed_langchain_standins import ChatOpenAI

    async def main() -> None:
        model = ChatOpenAI()
        prompt_template = PromptTemplate.from_template("Tell me a joke about {topic}")

        chain = prompt_template.pipe(model)

        result = await chain.abatch([{"topic": "bears"}, {"topic": "cats"}])

        print(result)

    asyncio.run(main())


def batch_with_options() -> None:
    from langchain_core.prompts import PromptTemplate

    from tests.examples.seed_langchain_standins import ChatOpenAI

    async def main() -> None:
        model = ChatOpenAI(model="badmodel")
        prompt_template = PromptTemplate.from_template("Tell me a joke about {topic}")

        chain = prompt_template.pipe(model)

        result = await chain.abatch(
            [{"topic": "bears"}, {"topic": "cats"}], {"max_concurrency": 1}, return_exceptions=True
        )

        print(result)

    asyncio.run(main())


def stream_log() -> None:
    from langchain_core.load import dumpd
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.prompts import ChatPromptTemplate, HumanMessagePromptTemplate, SystemMessagePromptTemplate
    from langchain_core.runnables import RunnablePassthrough, RunnableSequence
    from langchain_core.vectorstores import InMemoryVectorStore

    from tests.examples.seed_langchain_standins import ChatOpenAI, OpenAIEmbeddings, format_documents_as_string

    async def main() -> None:
        # Initialize the LLM to use to answer the question.
        model = ChatOpenAI()

        vector_store = InMemoryVectorStore.from_texts(  # HNSWLib: the in-memory store of the same form
            ["mitochondria is the powerhouse of the cell", "mitochondria is made of lipids"],
            OpenAIEmbeddings(),
            [{"id": 1}, {"id": 2}],
        )

        # Initialize a retriever wrapper around the vector store
        vector_store_retriever = vector_store.as_retriever()

        # Create a system & human prompt for the chat model
        system_template = """Use the following pieces of context to answer the question at the end.
If you don't know the answer, just say that you don't know, don't try to make up an answer.
----------------
{context}"""
        messages = [
            SystemMessagePromptTemplate.from_template(system_template),
            HumanMessagePromptTemplate.from_template("{question}"),
        ]
        prompt = ChatPromptTemplate.from_messages(messages)

        chain = RunnableSequence(
            *[
                {
                    "context": vector_store_retriever.pipe(format_documents_as_string),
                    "question": RunnablePassthrough(),
                },
                prompt,
                model,
                StrOutputParser(),
            ]
        )

        log_stream = chain.astream_log("What is the powerhouse of the cell?")

        state: Any = None

        async for log_patch in log_stream:
            print(json.dumps({"ops": log_patch.ops}, default=dumpd))  # JSON.stringify: the JS object's JSON form
            if not state:
                state = log_patch
            else:
                state = state + log_patch

        print("aggregate", state)

    asyncio.run(main())


def stream_events_of_an_agent(tools_agent: bool = True) -> None:
    from langchain_classic.agents import AgentExecutor, create_openai_functions_agent, create_openai_tools_agent

    if tools_agent:  # see FUNCTIONS_AGENT_NOTE
        create_openai_functions_agent = create_openai_tools_agent
    from langchain_core.prompts import ChatPromptTemplate
    from langchain_core.tools import BaseTool

    from tests.examples.seed_langchain_standins import ChatOpenAI

    class TavilySearchResults(BaseTool):  # the network search service's local stand-in
        name: str = "tavily_search_results_json"
        description: str = "A search engine. Input should be a search query."

        def _run(self, input: str) -> str:
            return SEARCH_RESULT

    # The hub prompt hwchase17/openai-functions-agent, written out.
    def pull(name: str) -> ChatPromptTemplate:
        assert name == "hwchase17/openai-functions-agent"
        return ChatPromptTemplate.from_messages(
            [
                ("system", "You are a helpful assistant"),
                ("placeholder", "{chat_history}"),
                ("human", "{input}"),
                ("placeholder", "{agent_scratchpad}"),
            ]
        )

    async def main() -> None:
        # Define the tools the agent will have access to.
        tools = [TavilySearchResults()]

        llm = ChatOpenAI(model="gpt-3.5-turbo-1106", temperature=0, streaming=True)

        # Get the prompt to use - you can modify this!
        prompt = pull("hwchase17/openai-functions-agent")

        agent = create_openai_functions_agent(llm=llm, tools=tools, prompt=prompt)

        agent_executor = AgentExecutor(agent=agent, tools=tools).with_config(run_name="Agent")

        event_stream = agent_executor.astream_events({"input": "what is the weather in SF"}, version="v1")

        async for event in event_stream:
            event_type = event["event"]
            if event_type == "on_chain_start":
                # Was assigned when creating the agent with `.with_config(run_name="Agent")` above
                if event["name"] == "Agent":
                    print("\n-----")
                    print(f"Starting agent: {event['name']} with input: {json.dumps(event['data']['input'])}")
            elif event_type == "on_chain_end":
                # Was assigned when creating the agent with `.with_config(run_name="Agent")` above
                if event["name"] == "Agent":
                    print("\n-----")
                    print(f"Finished agent: {event['name']}\n")
                    print(f"Agent output was: {event['data']['output']}")
                    print("\n-----")
            elif event_type == "on_chat_model_stream":
                content = event["data"]["chunk"].content
                # Empty content in the context of OpenAI means
                # that the model is asking for a tool to be invoked via function call.
                # So we only print non-empty content
                if content is not None and content != "":
                    print(f"| {content}")
            elif event_type == "on_tool_start":
                print("\n-----")
                print(f"Starting tool: {event['name']} with inputs: {event['data']['input']}")
            elif event_type == "on_tool_end":
                print("\n-----")
                print(f"Finished tool: {event['name']}\n")
                print(f"Tool output was: {event['data']['output']}")
                print("\n-----")

    asyncio.run(main())


def dispatch_custom_event() -> None:
    # The same example on both API reference pages (Runnable.streamEvents).
    from langchain_core.callbacks import adispatch_custom_event
    from langchain_core.runnables import RunnableLambda

    async def main() -> None:
        async def slow_thing_fn(some_input: str) -> str:
            # Placeholder for some slow operation
            await asyncio.sleep(0.01)
            await adispatch_custom_event("progress_event", {"message": "Finished step 1 of 2"})
            await asyncio.sleep(0.01)
            return "Done"

        slow_thing = RunnableLambda(slow_thing_fn)

        event_stream = slow_thing.astream_events("hello world", version="v2")

        async for event in event_stream:
            if event["event"] == "on_custom_event":
                print(event)

    asyncio.run(main())


FUNCTIONS_AGENT_NOTE = (
    "langchain-core 1.8.3 cannot run the page's agent with langchain-classic's create_openai_functions_agent:"
    " v1 events are built from the run log, whose handler refuses to load the FunctionMessage of the scratchpad"
    " ('Deserialization of ... FunctionMessage is not allowed'), and the stream then fails with a"
    " JsonPointerException. The shape is recorded with create_openai_tools_agent, the peer's tool-calling"
    " agent (ours answers to both names)."
)

EXAMPLES: dict[str, Example] = {
    "stream": stream,
    "invoke": invoke,
    "batch": batch,
    "batch_with_options": batch_with_options,
    "stream_log": stream_log,
    "stream_events_of_an_agent": stream_events_of_an_agent,
    "dispatch_custom_event": dispatch_custom_event,
}


def run(example: Example) -> str:
    """What ``example`` prints, run against the stub."""
    names = ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY")
    saved = {name: os.environ.get(name) for name in names}
    printed = io.StringIO()
    try:
        with FakeOpenAIServer() as server:
            server.responder = stub_reply
            os.environ["OPENAI_BASE_URL"] = os.environ["OPENAI_API_BASE"] = server.url
            os.environ["OPENAI_API_KEY"] = "sk-local-stub"
            with contextlib.redirect_stdout(printed):
                example()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return printed.getvalue()


def main() -> None:
    """Run every example against LangChain and write the golden file."""
    import langchain_core

    assert langchain_core.__version__ == "1.8.3", langchain_core.__version__
    warnings.filterwarnings("ignore")  # langchain-community's deprecation notices
    recorded: dict[str, Any] = {"langchain_core": langchain_core.__version__, "examples": {}}
    try:
        run(lambda: stream_events_of_an_agent(tools_agent=False))
    except Exception as error:  # recorded, see FUNCTIONS_AGENT_NOTE
        recorded["functions_agent"] = {"error": f"{type(error).__name__}", "note": FUNCTIONS_AGENT_NOTE}
    for name, example in EXAMPLES.items():
        printed = run(example)
        recorded["examples"][name] = {"printed": normalise(printed).splitlines(), "shape": shape(name, printed)}
        print(f"{name}: {len(printed.splitlines())} lines", file=sys.stderr)
    Path(GOLDEN).write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
