"""Package roots: a misspelled import is an error from every root (their run-time
``__getattr__`` is hidden from the checkers), and the annotation types are types.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import reveal_type

from combinators import AnyRunnable, ConfigLike, JsonValue, PatchOp, RunConfigDict, RunLog, RunLogPatch, RunType, StreamEvent, ToolInput
from combinators.language_models import ChatOutput, LanguageModelInput
from combinators.messages import MessageLikeRepresentation
from effects import Scope, Step


def misspelled_from_combinators() -> None:
    from combinators import Nope  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del Nope


def misspelled_from_effects() -> None:
    from effects import RunConfg  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del RunConfg


def misspelled_from_components() -> None:
    from combinators.components import ChatPromptTemplat  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del ChatPromptTemplat


def misspelled_from_prompts() -> None:
    from combinators.prompts import ChatPromptTemplat  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del ChatPromptTemplat


def misspelled_from_prompt_values() -> None:
    from combinators.prompt_values import ChatPromptVal  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del ChatPromptVal


def misspelled_from_messages() -> None:
    from combinators.messages import AiMessage  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del AiMessage


def misspelled_from_language_models() -> None:
    from combinators.language_models import FakeChatModel  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del FakeChatModel


def misspelled_from_outputs() -> None:
    from combinators.outputs import ChatGenerationChunk  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del ChatGenerationChunk


def misspelled_from_output_parsers() -> None:
    from combinators.output_parsers import StringOutputParser  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del StringOutputParser


def misspelled_from_tools() -> None:
    from combinators.tools import Tools  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del Tools


def misspelled_from_documents() -> None:
    from combinators.documents import Documents  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del Documents


def misspelled_from_retrievers() -> None:
    from combinators.retrievers import BM25Retriever  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del BM25Retriever


def misspelled_from_embeddings() -> None:
    from combinators.embeddings import FakeEmbeddings  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del FakeEmbeddings


def misspelled_from_vectorstores() -> None:
    from combinators.vectorstores import InMemoryVectorstore  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del InMemoryVectorstore


def misspelled_from_chat_history() -> None:
    from combinators.chat_history import InMemoryChatMessageHistory  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del InMemoryChatMessageHistory


def misspelled_from_agents() -> None:
    from combinators.agents import AgentExecuter  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del AgentExecuter


def misspelled_from_load() -> None:
    from combinators.load import dump  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del dump


def misspelled_from_secrets() -> None:
    from combinators.secrets import SecretStr  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del SecretStr


def misspelled_from_openai() -> None:
    from combinators.integrations.openai import ChatOpenAi  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownVariableType
    del ChatOpenAi


def annotation_types_are_types(
    value: JsonValue,
    op: PatchOp,
    patch: RunLogPatch,
    log: RunLog,
    event: StreamEvent,
    config: ConfigLike,
    config_dict: RunConfigDict,
    run_type: RunType,
    tool_input: ToolInput,
    runnable: AnyRunnable,
    scope: Scope,
    step: Step[int, str],
    chat_output: ChatOutput,
    model_input: LanguageModelInput,
    message_like: MessageLikeRepresentation,
) -> None:
    reveal_type(value)  # R-mypy: None | bool | int | float | str | list[...] | dict[str, ...]  # R-pyright: bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None
    reveal_type(step)  # R: Step[int, str]
    reveal_type(chat_output)  # R: AIMessage | AIMessageChunk


def old_spellings_are_still_types() -> None:
    # Deprecated paths (a warning at run time) stay declared to the checkers until removal.
    from combinators import Scope as OldScope
    from combinators.components import ChatOutput as OldChatOutput
    from combinators.components import ChatPromptTemplate
    from effects import JsonValue as OldJsonValue
    from effects import RunConfig

    def takes(value: OldJsonValue, output: OldChatOutput, scope: OldScope) -> RunConfig:
        return RunConfig(tags=(str(value), output.text, str(scope)))

    reveal_type(takes)  # R-mypy: def (value: None | bool | int | float | str | list[...] | dict[str, ...], output: AIMessage | AIMessageChunk, scope: Scope) -> RunConfig  # R-pyright: (value: bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None, output: AIMessage | AIMessageChunk, scope: Scope) -> RunConfig
    reveal_type(ChatPromptTemplate.from_template("{x}"))  # R: ChatPromptTemplate
