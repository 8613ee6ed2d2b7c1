"""Golden: how the peer shows prompts, chat models, llms, retrievers and tools (langchain-core 1.8.3).

Scenario A is ``ChatPromptTemplate.from_messages([("human", "{q}")]) |
GenericFakeChatModel(...) | StrOutputParser()`` streamed with ``{"q": "x"}``; the model
streams "hello", " ", "world". The message and prompt-value classes are stand-ins
(attrs values), so log values are compared in their JSON form, as our log keeps them.
"""

from __future__ import annotations

import attrs

from effects.projections.events_v1 import stream_events_v1
from effects.projections.events_v2 import stream_events_v2
from effects.projections.run_log import run_log_patches, run_logs
from effects.effect_values import Effect
from tests.unit.effects.projections.script import Script, sid


@attrs.frozen
class AIChunk:
    content: str

    def __add__(self, other: object) -> AIChunk:
        if isinstance(other, AIChunk):
            return AIChunk(self.content + other.content)
        return NotImplemented


@attrs.frozen
class Human:
    content: str


@attrs.frozen
class ChatPromptValue:
    messages: tuple[Human, ...]


MODEL_METADATA = {"ls_provider": "genericfakechatmodel", "ls_model_type": "chat"}
PV = ChatPromptValue((Human("x"),))
MESSAGES = {"messages": [[Human("x")]]}
R, PROMPT, MODEL, PARSER = sid(1), sid(2), sid(3), sid(4)


def chat_effects() -> list[Effect]:
    s = Script()
    root = s.run(1, "RunnableSequence")
    prompt = s.run(2, "ChatPromptTemplate", "prompt", parent=root, tags=("seq:step:1",))
    model = s.run(3, "GenericFakeChatModel", "chat_model", parent=root, tags=("seq:step:2",), metadata=MODEL_METADATA)
    parser = s.run(4, "StrOutputParser", "parser", parent=root, tags=("seq:step:3",))
    s.start(root, {"q": "x"})
    s.start(prompt, {"q": "x"})
    s.end(prompt, {"q": "x"}, PV)
    s.start(model, MESSAGES)
    for token in ("hello", " ", "world"):
        s.stream(model, AIChunk(token))
        if token == "hello":
            s.start(parser)
        s.stream(parser, token)
        s.stream(root, token)
    s.end(model, MESSAGES, AIChunk("hello world"))
    s.end(parser, AIChunk("hello world"), "hello world")
    s.end(root, {"q": "x"}, "hello world")
    return s.effects


def test_v2_chat_scenario() -> None:
    events = list(stream_events_v2(chat_effects()))
    assert [(e["event"], e["data"]) for e in events] == [
        ("on_chain_start", {"input": {"q": "x"}}),
        ("on_prompt_start", {"input": {"q": "x"}}),
        ("on_prompt_end", {"output": PV, "input": {"q": "x"}}),
        ("on_chat_model_start", {"input": MESSAGES}),
        ("on_chat_model_stream", {"chunk": AIChunk("hello")}),
        ("on_parser_start", {}),
        ("on_parser_stream", {"chunk": "hello"}),
        ("on_chain_stream", {"chunk": "hello"}),
        ("on_chat_model_stream", {"chunk": AIChunk(" ")}),
        ("on_parser_stream", {"chunk": " "}),
        ("on_chain_stream", {"chunk": " "}),
        ("on_chat_model_stream", {"chunk": AIChunk("world")}),
        ("on_parser_stream", {"chunk": "world"}),
        ("on_chain_stream", {"chunk": "world"}),
        ("on_chat_model_end", {"output": AIChunk("hello world"), "input": MESSAGES}),
        ("on_parser_end", {"output": "hello world", "input": AIChunk("hello world")}),
        ("on_chain_end", {"output": "hello world"}),
    ]
    model_stream = events[4]
    assert list(model_stream) == ["event", "data", "run_id", "name", "tags", "metadata", "parent_ids"]
    assert model_stream["metadata"] == MODEL_METADATA
    assert list(events[6]) == ["event", "run_id", "name", "tags", "metadata", "data", "parent_ids"]


CHAT_RESULT_STREAMED = {
    "generations": [
        [
            {
                "text": "hello world",
                "generation_info": None,
                "type": "ChatGenerationChunk",
                "message": AIChunk("hello world"),
            }
        ]
    ],
    "llm_output": None,
    "run": None,
    "type": "LLMResult",
}


def test_v1_chat_scenario() -> None:
    events = list(stream_events_v1(chat_effects()))
    assert [(e["event"], e["data"]) for e in events] == [
        ("on_chain_start", {"input": {"q": "x"}}),
        ("on_prompt_start", {"input": {"q": "x"}}),
        ("on_prompt_end", {"input": {"q": "x"}, "output": PV}),
        ("on_chat_model_start", {"input": MESSAGES}),
        ("on_chat_model_stream", {"chunk": AIChunk("hello")}),
        ("on_parser_start", {}),
        ("on_parser_stream", {"chunk": "hello"}),
        ("on_chain_stream", {"chunk": "hello"}),
        ("on_chat_model_stream", {"chunk": AIChunk(" ")}),
        ("on_parser_stream", {"chunk": " "}),
        ("on_chain_stream", {"chunk": " "}),
        ("on_chat_model_stream", {"chunk": AIChunk("world")}),
        ("on_parser_stream", {"chunk": "world"}),
        ("on_chain_stream", {"chunk": "world"}),
        ("on_chat_model_end", {"input": MESSAGES, "output": CHAT_RESULT_STREAMED}),
        ("on_parser_end", {"input": AIChunk("hello world"), "output": "hello world"}),
        ("on_chain_end", {"output": "hello world"}),
    ]


def test_run_log_chat_scenario() -> None:
    ops = [op for patch in run_log_patches(chat_effects()) for op in patch.ops]
    shown = [(op["op"], op["path"]) for op in ops]
    assert shown == [
        ("replace", ""),
        ("add", "/logs/ChatPromptTemplate"),
        ("add", "/logs/ChatPromptTemplate/final_output"),
        ("add", "/logs/ChatPromptTemplate/end_time"),
        ("add", "/logs/GenericFakeChatModel"),
        ("add", "/logs/GenericFakeChatModel/streamed_output_str/-"),
        ("add", "/logs/GenericFakeChatModel/streamed_output/-"),
        ("add", "/logs/StrOutputParser"),
        ("add", "/logs/StrOutputParser/streamed_output/-"),
        ("add", "/streamed_output/-"),
        ("replace", "/final_output"),
        ("add", "/logs/GenericFakeChatModel/streamed_output_str/-"),
        ("add", "/logs/GenericFakeChatModel/streamed_output/-"),
        ("add", "/logs/StrOutputParser/streamed_output/-"),
        ("add", "/streamed_output/-"),
        ("replace", "/final_output"),
        ("add", "/logs/GenericFakeChatModel/streamed_output_str/-"),
        ("add", "/logs/GenericFakeChatModel/streamed_output/-"),
        ("add", "/logs/StrOutputParser/streamed_output/-"),
        ("add", "/streamed_output/-"),
        ("replace", "/final_output"),
        ("add", "/logs/GenericFakeChatModel/final_output"),
        ("add", "/logs/GenericFakeChatModel/end_time"),
        ("add", "/logs/StrOutputParser/final_output"),
        ("add", "/logs/StrOutputParser/end_time"),
    ]
    values = {index: op.get("value") for index, op in enumerate(ops)}
    model_entry = values[4]
    assert isinstance(model_entry, dict)
    assert model_entry["type"] == "llm"  # the log calls chat models llm
    assert model_entry["metadata"] == MODEL_METADATA
    assert values[2] == PV  # a prompt's final_output is the prompt value itself
    assert values[5] == "hello" and values[6] == AIChunk("hello")  # the chunk itself, as the peer keeps it
    assert [values[10], values[15], values[20]] == ["hello", "hello ", "hello world"]
    assert values[21] == CHAT_RESULT_STREAMED
    assert values[23] == {"output": "hello world"}
    state = list(run_logs(chat_effects()))[-1].state
    assert isinstance(state, dict) and isinstance(state["logs"], dict)
    model_state = state["logs"]["GenericFakeChatModel"]
    assert isinstance(model_state, dict)
    assert model_state["streamed_output_str"] == ["hello", " ", "world"]


def test_llm_tokens_invoked_chat_model_retriever_and_tool() -> None:
    s = Script()
    root = s.run(1, "RunnableSequence")
    llm = s.run(2, "SLLM", "llm", parent=root, tags=("seq:step:1",))
    chat = s.run(3, "SChat", "chat_model", parent=root)
    retriever = s.run(4, "R", "retriever", parent=root, metadata={"ls_retriever_name": "r"})
    tool = s.run(5, "dtool", "tool", parent=root)
    s.start(root, "q")
    s.start(llm, {"prompts": ["q"]})
    s.stream(llm, AIChunk("a"), AIChunk("b"))  # a GenerationChunk-like chunk: its token text is shown
    llm_output = {"generations": [[{"text": "ab", "generation_info": None, "type": "Generation"}]], "llm_output": None}
    s.end(llm, {"prompts": ["q"]}, llm_output)
    s.start(chat, MESSAGES)
    s.end(chat, MESSAGES, Human("hey"))
    s.start(retriever, {"query": "q"})
    s.end(retriever, {"query": "q"}, ["doc"])
    s.start(tool, {"x": 1})
    s.end(tool, {"x": 1}, {"y": 1})
    s.end(root, "q", {"y": 1})

    v1 = [(e["event"], e["data"]) for e in stream_events_v1(s.effects)]
    llm_result = {**llm_output, "run": None, "type": "LLMResult"}
    assert ("on_llm_stream", {"chunk": "a"}) in v1  # v1 streams an llm's token text
    assert ("on_llm_end", {"input": {"prompts": ["q"]}, "output": llm_result}) in v1
    chat_result = {
        "generations": [[{"text": "hey", "generation_info": None, "type": "ChatGeneration", "message": Human("hey")}]],
        "llm_output": None,
        "run": None,
        "type": "LLMResult",
    }
    assert ("on_chat_model_end", {"input": MESSAGES, "output": chat_result}) in v1
    assert ("on_retriever_end", {"input": {"query": "q"}, "output": {"documents": ["doc"]}}) in v1
    assert ("on_tool_end", {"input": {"x": 1}, "output": {"y": 1}}) in v1

    v2 = [(e["event"], e["data"]) for e in stream_events_v2(s.effects)]
    assert ("on_llm_stream", {"chunk": AIChunk("a")}) in v2
    assert ("on_retriever_end", {"output": ["doc"], "input": {"query": "q"}}) in v2

    ops = {op["path"]: op.get("value") for patch in run_log_patches(s.effects) for op in patch.ops}
    assert ops["/logs/SLLM/streamed_output_str/-"] == "b"
    assert ops["/logs/SLLM/streamed_output/-"] == "b"  # an llm's log keeps tokens, not chunks
    assert ops["/logs/SLLM/final_output"] == llm_result
    assert ops["/logs/SChat/final_output"] == chat_result
    assert ops["/logs/R/final_output"] == {"documents": ["doc"]}
    assert ops["/logs/dtool/final_output"] == {"output": {"y": 1}}  # tools wrap even dicts
