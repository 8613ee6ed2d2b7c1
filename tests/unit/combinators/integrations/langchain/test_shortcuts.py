"""Shortcuts for LangChain components that are not runnables: a text splitter over our
Documents, a loader giving them, a vector store as our retriever (added to through our
Documents), LangChain embeddings as ours, a LangChain tool as ours."""

import asyncio
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document as TheirDocument
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.tools import Tool as TheirTool
from langchain_core.tools import tool as their_tool
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter

from combinators import RunnableLambda
from combinators.documents import Document
from combinators.agents import LoopPolicy, agent_loop
from combinators.integrations.langchain import (
    add_documents,
    embeddings_of,
    load_with,
    split_with,
    tool_of,
    vector_store_retriever,
)
from combinators.language_models import ScriptedChatModel
from combinators.messages import AIMessage, ToolCall, ToolMessage


def test_a_splitter_splits_our_documents_keeping_metadata_and_order() -> None:
    split = split_with(RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0))
    pieces = split.invoke([Document("one two three four", {"source": "a.md"}), Document("five", {"source": "b.md"})])
    assert all(isinstance(piece, Document) for piece in pieces)
    assert [piece.page_content for piece in pieces] == ["one two", "three", "four", "five"]
    assert [piece.metadata["source"] for piece in pieces] == ["a.md", "a.md", "a.md", "b.md"]
    assert split.name == "RecursiveCharacterTextSplitter"


def test_split_documents_feed_a_langchain_store_read_as_our_retriever() -> None:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    split = split_with(RecursiveCharacterTextSplitter(chunk_size=12, chunk_overlap=0))
    ids = add_documents(store, split.invoke([Document("fog over the bay", {"n": 1}, id="doc")]))
    assert len(ids) == 2
    retriever = vector_store_retriever(store, k=1)
    found = (RunnableLambda(str.strip) | retriever).invoke(" bay ")
    assert found == [Document("bay", {"n": 1}, id=ids[1])]


def test_langchain_embeddings_serve_our_vector_store() -> None:
    theirs = DeterministicFakeEmbedding(size=8)
    ours = embeddings_of(theirs)
    assert ours.embed_query("fog") == theirs.embed_query("fog")
    assert asyncio.run(ours.aembed_documents(["a", "b"])) == theirs.embed_documents(["a", "b"])


class FileLoader(BaseLoader):
    """A loader written the LangChain way (as langchain-community's TextLoader): one
    document per file, its path as the source, read lazily."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.opened: list[str] = []

    def lazy_load(self) -> Iterator[TheirDocument]:
        for path in sorted(self.folder.glob("*.md")):
            self.opened.append(path.name)
            yield TheirDocument(path.read_text(encoding="utf-8"), metadata={"source": path.name})


def test_a_loader_gives_our_documents_from_local_files(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("fog over the bay", encoding="utf-8")
    (tmp_path / "b.md").write_text("the lamp is lit", encoding="utf-8")
    (tmp_path / "skip.txt").write_text("not markdown", encoding="utf-8")
    loader = FileLoader(tmp_path)
    load = load_with(loader)
    expected = [Document("fog over the bay", {"source": "a.md"}), Document("the lamp is lit", {"source": "b.md"})]
    assert load.invoke(None) == expected
    assert asyncio.run(load.ainvoke(None)) == expected  # LangChain's alazy_load over lazy_load
    assert load.name == "FileLoader"
    # Made from the input (a folder), and piped into a splitter: our Documents all along.
    chain = load_with(FileLoader) | split_with(RecursiveCharacterTextSplitter(chunk_size=8, chunk_overlap=0))
    assert [d.page_content for d in chain.invoke(tmp_path)][:3] == ["fog over", "the bay", "the lamp"]


def test_a_streamed_loader_gives_each_document_as_it_is_read(tmp_path: Path) -> None:
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text(name, encoding="utf-8")
    loader = FileLoader(tmp_path)
    seen: list[tuple[list[str], int]] = []
    for chunk in load_with(loader).stream(None):
        seen.append(([d.page_content for d in chunk], len(loader.opened)))
    assert seen == [(["a.md"], 1), (["b.md"], 2), (["c.md"], 3)]

    async def collect() -> list[list[Document]]:
        return [chunk async for chunk in load_with(FileLoader(tmp_path)).astream(None)]

    assert [len(chunk) for chunk in asyncio.run(collect())] == [1, 1, 1]
    with pytest.raises(TypeError, match="load_with expects a LangChain BaseLoader"):
        load_with("a.md")  # type: ignore[call-overload]


@their_tool
def lookup(city: str, days: int = 1) -> str:
    """Look up the weather of a city for some days."""
    return f"{city}: fog for {days} day(s)"


def test_a_langchain_tool_is_our_tool_its_schema_checked_by_our_agent_loop() -> None:
    ours = tool_of(lookup)
    assert (ours.name, ours.description) == ("lookup", "Look up the weather of a city for some days.")
    assert ours.args_schema["required"] == ["city"]
    assert ours.args_schema["properties"]["days"]["type"] == "integer"
    model = ScriptedChatModel(
        [
            AIMessage(
                "",
                tool_calls=[
                    ToolCall("lookup", {"city": "Gullhaven", "days": 2}, id="c1"),
                    ToolCall("lookup", {"days": "x"}, id="c2"),
                ],
            ),
            "Foggy.",
        ]
    )
    result = agent_loop(model, [ours], policy=LoopPolicy(max_iterations=3)).invoke("weather?")
    assert result.output == "Foggy."
    outcomes = [(o.call.id, o.ok, str(o.message.content)) for o in result.steps[0].outcomes]
    assert outcomes[0] == ("c1", True, "Gullhaven: fog for 2 day(s)")
    # The bad call never reached LangChain's tool: our schema check refused it.
    assert outcomes[1][:2] == ("c2", False) and "city" in outcomes[1][2]


def test_a_single_input_langchain_tool_takes_its_string() -> None:
    echo = tool_of(TheirTool(name="echo", func=str.upper, description="Shout it."))
    assert echo.invoke("fog") == "FOG"
    reply = echo.invoke({"name": "echo", "args": {"__arg1": "sun"}, "id": "c9", "type": "tool_call"})
    assert isinstance(reply, ToolMessage) and (reply.content, reply.tool_call_id) == ("SUN", "c9")


def test_langchain_community_loaders_on_local_files(tmp_path: Path) -> None:
    # The loaders an existing LangChain codebase already has: langchain-community's TextLoader
    # and DirectoryLoader (the package is being sunset and says so on its first import, which
    # may have happened already in this process; dev extra only).
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "`langchain-community` is being sunset", DeprecationWarning)
        from langchain_community.document_loaders import DirectoryLoader, TextLoader

    (tmp_path / "a.md").write_text("fog over the bay", encoding="utf-8")
    (tmp_path / "b.md").write_text("the lamp is lit", encoding="utf-8")
    one = load_with(TextLoader(str(tmp_path / "a.md"), encoding="utf-8"))
    assert one.invoke(None) == [Document("fog over the bay", {"source": str(tmp_path / "a.md")})]

    def folder(path: Path) -> DirectoryLoader:
        return DirectoryLoader(str(path), glob="*.md", loader_cls=TextLoader, loader_kwargs={"encoding": "utf-8"})

    chain = load_with(folder) | split_with(RecursiveCharacterTextSplitter(chunk_size=8, chunk_overlap=0))
    pieces = chain.invoke(tmp_path)
    assert all(isinstance(p, Document) for p in pieces)
    assert sorted(p.page_content for p in pieces) == sorted(["fog over", "the bay", "the lamp", "is lit"])
    assert {p.metadata["source"] for p in pieces} == {str(tmp_path / "a.md"), str(tmp_path / "b.md")}
