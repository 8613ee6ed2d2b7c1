"""Idioms a LangChain user writes first: each must type-check cleanly (issue 14).

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import Iterator
from typing import Any, assert_never, reveal_type

from returns.result import Failure, Success

from combinators import PatchOp, Runnable, RunnableLambda, RunnableParallel, RunnablePassthrough, StreamEvent
from combinators.integrations.openai import ChatOpenAI
from combinators.language_models import FakeListChatModel
from combinators.messages import AIMessageChunk


def parse(text: str) -> int:
    return int(text)


def answer(parts: dict[str, Any]) -> str:
    return str(parts["answer"])


def sources(parts: dict[str, Any]) -> list[str]:
    return list(parts["sources"])


def count(text: str) -> dict[str, Any]:
    return {"text": text}


parse_r = RunnableLambda(parse)
count_r = RunnableLambda(count)
model = FakeListChatModel(responses=["hi"])


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


# ---------------------------------------------------------------- dicts


def assign_then_pick_required() -> None:
    chain = count_r.assign(answer=answer, sources=sources).pick(["answer", "sources"], required=True) | answer
    reveal_type(chain)  # R: Runnable[str, str]


def pick_one_required_key() -> None:
    reveal_type(count_r.pick("text", required=True))  # R: Runnable[str, Any]


def passthrough_assign_with_a_dict_mapper() -> None:
    reveal_type(RunnablePassthrough.assign(answer=RunnableLambda(answer)))  # R: Runnable[Mapping[str, Any], dict[str, Any]]


def parallel_of_keyword_branches() -> None:
    reveal_type(RunnableParallel(n=parse_r, raw=RunnablePassthrough()))  # R: RunnableParallel[str]


# ---------------------------------------------------------------- results


def batch_results_match_exhaustively() -> list[int]:
    out: list[int] = []
    for result in parse_r.batch_results(["1", "x"]):
        match result:
            case Success(value):
                reveal_type(value)  # R: int
                out.append(value)
            case Failure(error):
                reveal_type(error)  # R: Exception
            case _:
                assert_never(result)
    return out


# ---------------------------------------------------------------- events and logs


async def events_narrow_by_name() -> list[str]:
    texts: list[str] = []
    async for event in model.astream_events("hi"):
        if event["event"] == "on_chat_model_stream":
            reveal_type(event["data"])  # R-mypy: TypedDict(ChunkData, {'chunk': Any})  # R-pyright: ChunkData
            chunk: AIMessageChunk = event["data"]["chunk"]
            texts.append(chunk.text)
        elif event["event"] == "on_chat_model_end":
            reveal_type(event["data"]["output"])  # R: Any
    return texts


def an_event_list(events: list[StreamEvent]) -> list[str]:
    return [e["name"] for e in events if e["event"] == "on_custom_event"]


async def log_ops_narrow_by_op() -> list[str]:
    paths: list[str] = []
    async for patch in parse_r.astream_log("1"):
        for op in patch.ops:
            reveal_type(op["path"])  # R: str
            if op["op"] == "add":
                # The run's value as it is (a chunk, an output), as in the peer's log.
                reveal_type(op["value"])  # R: object
            paths.append(op["path"])
    return paths


def ops_as_values(ops: list[PatchOp]) -> list[str]:
    return [op["from"] for op in ops if op["op"] == "move"]


def include_types_as_a_list() -> Iterator[StreamEvent]:
    return parse_r.stream_events("1", include_types=["chain", "chat_model"], exclude_tags=("x",))


# ---------------------------------------------------------------- models and tools


def bind_tools_gives_a_binding() -> None:
    bound = ChatOpenAI(model="m").bind_tools([add], tool_choice="add")
    reveal_type(bound.kwargs["tool_choice"])  # R: object


def with_config_typed(chain: Runnable[str, int]) -> None:
    reveal_type(chain.with_config(tags=["a"], max_concurrency=2, run_name="x"))  # R: RunnableBinding[str, int]
