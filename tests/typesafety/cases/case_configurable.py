"""Configurable fields and alternatives keep ``[In, Out]``; an alternative must fit; graphs and schemas are typed.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import reveal_type

from combinators import ConfigurableField, ConfigurableFieldSpec, RunConfig, RunnableLambda, RunnablePick
from combinators.messages import AIMessage, Message
from combinators.chat_history import InMemoryHistoryStore, RunnableWithMessageHistory


def parse(text: str) -> int:
    return int(text)


def parse_strictly(text: str) -> int:
    return int(text.strip(), 10)


def half(n: int) -> float:
    return n / 2


def reply(messages: list[Message]) -> AIMessage:
    return AIMessage(str(len(messages)))


parse_r = RunnableLambda(parse)
strict_r = RunnableLambda(parse_strictly)
half_r = RunnableLambda(half)
pick_r = RunnablePick("a")


def configurable_fields_keep_the_types() -> None:
    reveal_type(pick_r.configurable_fields(keys=ConfigurableField(id="key")))  # R: Runnable[Mapping[str, object], Any]


def configurable_alternatives_keep_the_types() -> None:
    reveal_type(parse_r.configurable_alternatives(ConfigurableField(id="parser"), strict=strict_r))  # R: Runnable[str, int]


def an_alternative_of_another_type_is_an_error() -> object:
    return parse_r.configurable_alternatives(ConfigurableField(id="p"), other=half_r)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def a_field_takes_a_configurable_field() -> object:
    return pick_r.configurable_fields(keys="key")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def declared_specs_keep_the_types() -> None:
    reveal_type(parse_r.with_config_specs(ConfigurableFieldSpec(id="base", annotation=int)))  # R: Runnable[str, int]


def schemas_and_graphs_are_typed() -> None:
    reveal_type(parse_r.config_schema())  # R: dict[str, Any]
    reveal_type(parse_r.config_specs())  # R: list[ConfigurableFieldSpec]
    reveal_type(parse_r.get_graph().nodes)  # R: tuple[Node, ...]


def a_history_keeps_the_output_type() -> None:
    chat = RunnableWithMessageHistory(RunnableLambda(reply), InMemoryHistoryStore())
    reveal_type(chat)  # R: RunnableWithMessageHistory[AIMessage]
    reveal_type(chat.invoke("hi", {"configurable": {"session_id": "s"}}))  # R: AIMessage


def a_config_reads_as_the_peer_s_dict(config: RunConfig) -> None:
    reveal_type(config["tags"])  # R: list[str]
    reveal_type(config["configurable"])  # R: Mapping[str, object]
    reveal_type(config["configurable"]["user_id"])  # R: object
    reveal_type(config["max_concurrency"])  # R: int | None
    reveal_type(config.get("run_name"))  # R: object
