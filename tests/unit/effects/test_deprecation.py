"""Every import path documented before the domain roots still works for one release, with a
dated ``DeprecationWarning`` naming the new path; the new paths never warn."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
import warnings
from collections.abc import Callable

import pytest

import combinators
import effects
from effects.deprecation import ROOTS_REMOVAL, CombinatorsDeprecationWarning, note_deprecation
from effects.deprecation import moved_exports, renamed_exports

OLD_COMPONENTS = [
    "AIMessage",
    "AIMessageChunk",
    "AIMessagePromptTemplate",
    "AmazonKendraRetriever",
    "BaseChatModel",
    "BaseLLM",
    "BaseMessage",
    "BaseMessagePromptTemplate",
    "BaseOutputParser",
    "BaseRetriever",
    "BaseTool",
    "Bm25Index",
    "Bm25Retriever",
    "ChatGeneration",
    "ChatHistory",
    "ChatHistoryError",
    "ChatMessage",
    "ChatMessagePromptTemplate",
    "ChatOpenAI",
    "ChatOutput",
    "ChatPromptTemplate",
    "ChatPromptValue",
    "DataTooDeepError",
    "DisallowedTypeError",
    "Document",
    "DocumentFilter",
    "ENGLISH_STOPWORDS",
    "Embeddings",
    "ExtractiveChatModel",
    "FakeListChatModel",
    "FakeListLLM",
    "FakeListLLMError",
    "FakeMessagesListChatModel",
    "FakeStreamingListLLM",
    "Generation",
    "GenericFakeChatModel",
    "HashedNgramEmbeddings",
    "HumanMessage",
    "HumanMessagePromptTemplate",
    "InMemoryChatHistory",
    "InMemoryHistoryStore",
    "InMemoryVectorStore",
    "InvalidToolCall",
    "JsonOutputParser",
    "KendraAccessDenied",
    "KendraConnectionError",
    "KendraError",
    "KendraInvalidRequest",
    "KendraResourceNotFound",
    "KendraThrottled",
    "LLM",
    "LanguageModelInput",
    "MESSAGE_TYPES",
    "MalformedDataError",
    "Message",
    "MessageLikeRepresentation",
    "MessagesPlaceholder",
    "MissingSecretError",
    "ModelAPIError",
    "ModelAuthenticationError",
    "ModelBadRequestError",
    "ModelConnectionError",
    "ModelNotFoundError",
    "ModelRateLimitError",
    "ModelResponseError",
    "ModelServerError",
    "ModelStreamError",
    "ModelTimeoutError",
    "OpenAIEmbeddings",
    "OutputParserError",
    "PROMPT_VALUE_TYPES",
    "ParrotFakeChatModel",
    "PartialJsonReader",
    "PromptTemplate",
    "PromptValue",
    "RunnableWithMessageHistory",
    "SQLiteChatHistory",
    "SQLiteHistoryStore",
    "Script",
    "ScriptExhaustedError",
    "ScriptedCall",
    "ScriptedChatModel",
    "Secret",
    "SentenceEmbeddings",
    "SimpleChatModel",
    "StrOutputParser",
    "StringPromptValue",
    "StructuredOutputError",
    "StructuredOutputParser",
    "StructuredTool",
    "SystemMessage",
    "SystemMessagePromptTemplate",
    "Tool",
    "ToolCall",
    "ToolCallChunk",
    "ToolMessage",
    "ToolPickingChatModel",
    "TransientModelError",
    "UsageMetadata",
    "VectorStoreRetriever",
    "coerce_to_message",
    "coerce_to_messages",
    "cosine_similarity",
    "dumps",
    "format_documents_as_string",
    "get_buffer_string",
    "json_diff",
    "load_text_documents",
    "loads",
    "message_to_dict",
    "parse_and_check_json_markdown",
    "parse_json_markdown",
    "parse_partial_json",
    "tokenize",
    "tool",
]
"""The 115 names ``combinators.components`` exported (and the README documented) before."""

OLD_SHARED = [
    "CombinatorsError",
    "ConfigLike",
    "CustomStreamEvent",
    "EmptyStreamError",
    "InputError",
    "InputValueError",
    "JsonValue",
    "PatchOp",
    "RunConfig",
    "RunConfigDict",
    "RunEndEvent",
    "RunErrorEvent",
    "RunLog",
    "RunLogPatch",
    "RunStartEvent",
    "RunStreamEvent",
    "RunType",
    "Scope",
    "StandardStreamEvent",
    "Step",
    "StepTimeout",
    "StreamEvent",
    "adispatch_custom_event",
    "dispatch_custom_event",
]
"""The 24 names both ``combinators`` and ``effects`` exported before each got one home."""

OLD_PATCH_OPS = ["AddOp", "CheckOp", "CopyOp", "MoveOp", "RemoveOp", "ReplaceOp"]
"""The patch operations ``effects`` exported; their home is ``combinators`` with ``PatchOp``."""


def home_of(name: str) -> object:
    for root in (combinators, effects):
        if name in root.__all__:
            return root
    raise AssertionError(f"{name} has no home")


def imported_with_warning(module: str, name: str) -> tuple[object, str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(importlib.import_module(module), name)
    messages = [str(w.message) for w in caught if issubclass(w.category, CombinatorsDeprecationWarning)]
    assert messages, f"{module}.{name} did not warn"
    assert all(issubclass(w.category, DeprecationWarning) for w in caught)
    return value, messages[0]


@pytest.mark.parametrize("name", OLD_COMPONENTS)
def test_every_old_components_name_still_imports_with_a_dated_warning_naming_its_new_path(name: str) -> None:
    value, message = imported_with_warning("combinators.components", name)
    new_path = message.split("import it from ")[1].split(" instead")[0]
    assert getattr(importlib.import_module(new_path), name) is value
    assert name in importlib.import_module(new_path).__all__
    assert f"combinators.components.{name} is deprecated" in message
    assert f"removed after {ROOTS_REMOVAL}" in message


@pytest.mark.parametrize("name", OLD_SHARED + OLD_PATCH_OPS)
def test_each_shared_name_has_one_home_and_the_other_spelling_warns(name: str) -> None:
    home = home_of(name)
    other = effects if home is combinators else combinators
    assert name not in other.__all__
    value, message = imported_with_warning(other.__name__, name)
    assert value is getattr(home, name)
    assert f"{other.__name__}.{name} is deprecated: import it from {home.__name__} instead" in message
    assert f"removed after {ROOTS_REMOVAL}" in message


def test_users_root_is_combinators_and_authors_root_is_effects() -> None:
    assert {name for name in OLD_SHARED if home_of(name) is effects} == {"Scope", "Step"}


@pytest.mark.parametrize(
    ("module", "new"),
    [
        ("combinators.components.fake_models", "combinators.language_models"),
        ("combinators.components.json_parser", "combinators.output_parsers"),
        ("combinators.components.prompts.templates", "combinators.prompts"),
        ("effects.values", "effects"),
        ("combinators.components.messages.values", "combinators.messages"),
        ("combinators.integrations.langchain.values", "combinators.integrations.langchain"),
        ("combinators.testing.values", "combinators.testing"),
        ("combinators.chain_decorator", "combinators"),
    ],
)
def test_old_modules_warn_once_imported_naming_the_new_one(module: str, new: str) -> None:
    code = (
        "import warnings; warnings.simplefilter('always');"
        f"import {module}"  # a fresh interpreter: the warning comes with the first import
    )
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stderr
    assert f"{module} is deprecated: import from {new} instead" in err
    assert f"removed after {ROOTS_REMOVAL}" in err
    assert err.startswith("<string>:1: CombinatorsDeprecationWarning")  # the importing line


@pytest.mark.parametrize(
    ("module", "names"),
    [
        ("combinators.components.fake_models", ["FakeListChatModel", "FakeListLLM", "GenericFakeChatModel", "Script"]),
        ("combinators.components.json_parser", ["JsonOutputParser"]),
        ("effects.values", ["NOTHING", "RunStarted", "Effect", "RunInfo", "as_run_type"]),
        ("combinators.components.messages.values", ["AIMessage", "BaseMessage", "HumanMessage"]),
        (
            "combinators.components.prompts.templates",
            ["ChatPromptTemplate", "MessageLike", "PromptInput", "PromptTemplate", "prompt_values"],
        ),
    ],
)
def test_an_old_module_without_a_file_still_gives_its_names(module: str, names: list[str]) -> None:
    # One finder (effects.deprecation.moved_modules) keeps the old paths: no file each.
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CombinatorsDeprecationWarning)
        old = importlib.import_module(module)
    import combinators.language_models
    import combinators.messages
    import combinators.output_parsers
    import combinators.prompts
    from combinators.components.prompts import inputs, message_likes

    import effects.effect_values

    homes = (
        combinators.language_models,
        combinators.output_parsers,
        combinators.prompts,
        inputs,
        message_likes,
        effects.effect_values,
        combinators.messages,
    )
    for name in names:
        assert any(getattr(old, name) is getattr(home, name, None) for home in homes), name
    with pytest.raises(AttributeError, match=f"module '{module}' has no attribute 'Nope'"):
        getattr(old, "Nope")


def test_the_warning_points_at_the_line_that_imports() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from combinators.components import Document  # noqa: F401
    assert {w.filename for w in caught} == {__file__}


def test_new_paths_never_warn() -> None:
    code = (
        "import warnings; warnings.simplefilter('error');"
        "import combinators, effects;"
        "from combinators import RunConfig, StreamEvent, JsonValue, RunLogPatch, PatchOp, dispatch_custom_event;"
        "from effects import Scope, Step;"
        "from combinators.prompts import ChatPromptTemplate;"
        "from combinators.language_models import GenericFakeChatModel;"
        "from combinators.integrations.openai import ChatOpenAI;"
        "from combinators.integrations.aws import AmazonKendraRetriever;"
        "import combinators.components.messages, combinators.agents"
    )
    subprocess.run([sys.executable, "-W", "error", "-c", code], check=True)


def test_misspelled_names_are_still_missing() -> None:
    for module in ("combinators", "effects", "combinators.components"):
        with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
            getattr(importlib.import_module(module), "Nope")


def test_a_deprecation_needs_dates_in_order() -> None:
    with pytest.raises(ValueError, match="comes after removal"):
        note_deprecation("x", since="2027-03-02", removal="2027-03-01")


@pytest.mark.parametrize(
    ("package", "extra", "sdk"),
    [("combinators.integrations.openai", "openai", "openai"), ("combinators.integrations.aws", "aws", "boto3")],
)
def test_an_integration_without_its_sdk_names_the_extra(package: str, extra: str, sdk: str) -> None:
    code = f"import sys; sys.modules[{sdk!r}] = None; import {package}"
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stderr
    assert f"MissingExtraError: {package} needs the optional extra {extra!r}" in err
    assert f"pip install 'lcel-combinators[{extra}]'" in err


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("add_up", "total_of"),
        ("aadd_up", "atotal_of"),
        ("added_up", "total_or_nothing"),
        ("aadded_up", "atotal_or_nothing"),
        ("add_chunks", "plus_chunk"),
    ],
)
def test_the_totals_old_names_warn_and_give_the_renamed_function(old: str, new: str) -> None:
    import effects.authoring

    value, message = imported_with_warning("effects.authoring", old)
    assert value is getattr(effects.authoring, new)
    assert old not in effects.authoring.__all__ and new in effects.authoring.__all__
    assert f"effects.authoring.{old} is deprecated: use effects.authoring.{new} instead" in message
    assert "removed after 2027-03-01" in message


def test_a_renamed_name_read_through_an_old_module_path_warns_once() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CombinatorsDeprecationWarning)  # the old path's own warning
        importlib.import_module("effects.values")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(sys.modules["effects.values"], "NO_INPUT")
    assert value is effects.NOTHING
    assert [str(w.message).split(" (")[0] for w in caught] == [
        "effects.effect_values.NO_INPUT is deprecated: use effects.effect_values.NOTHING instead"
    ]


@pytest.mark.parametrize("module", ["effects", "effects.effect_values"])
def test_no_input_is_nothing_under_its_one_name(module: str) -> None:
    # NO_INPUT was NOTHING under a second name: one name now, the old one warns until removal.
    import effects.effect_values

    value, message = imported_with_warning(module, "NO_INPUT")
    assert value is effects.effect_values.NOTHING
    assert "NO_INPUT" not in importlib.import_module(module).__dict__.get("__all__", ())
    assert f"{module}.NO_INPUT is deprecated: use {module}.NOTHING instead" in message
    assert "removed after 2027-03-01" in message


def test_the_laws_sum_of_chunks_has_a_name_unlike_the_totals() -> None:
    # combinators.testing.added_up looked like effects.authoring's added_up/add_up (now
    # total_or_nothing/total_of): renamed sum_of_chunks, the old name warns until removal.
    import combinators.testing

    value, message = imported_with_warning("combinators.testing", "added_up")
    assert value is combinators.testing.sum_of_chunks
    assert "added_up" not in combinators.testing.__all__
    assert "combinators.testing.added_up is deprecated: use combinators.testing.sum_of_chunks instead" in message
    assert value(["a", "b"]) == "ab"


ROOM_HOMES = {
    "agents": ["combinators.agents"],
    "memory": ["combinators.chat_history"],
    "messages": ["combinators.messages"],
    "models": ["combinators.language_models", "combinators.outputs"],
    "parsers": ["combinators.output_parsers"],
    "partial_json": ["combinators.output_parsers"],
    "prompts": ["combinators.prompts", "combinators.prompt_values"],
    "retrieval": [
        "combinators.retrievers",
        "combinators.documents",
        "combinators.vectorstores",
        "combinators.embeddings",
    ],
    "tools": ["combinators.tools"],
}
"""Each room of ``combinators/components/`` and the domain roots its old re-exports live in now."""


@pytest.mark.parametrize("room", sorted(ROOM_HOMES))
def test_every_name_a_room_re_exported_warns_and_is_its_homes_object(room: str) -> None:
    package = importlib.import_module(f"combinators.components.{room}")
    names = [(home, name) for home in ROOM_HOMES[room] for name in importlib.import_module(home).__all__]
    assert names
    for home, name in names:
        value, message = imported_with_warning(package.__name__, name)
        assert value is getattr(importlib.import_module(home), name)
        assert f"combinators.components.{room}.{name} is deprecated: import it from {home} instead" in message
        assert f"removed after {ROOTS_REMOVAL}" in message


def test_a_rooms_modules_import_without_a_warning() -> None:
    code = "import combinators.components.messages.message_classes, combinators.components.prompts.chat_prompt"
    subprocess.run([sys.executable, "-W", "error", "-c", code], check=True)


Fallback = Callable[[str], object] | None


def _moved(fallback: Fallback) -> Callable[[str], object]:
    return moved_exports("pkg", {}, fallback)


def _renamed(fallback: Fallback) -> Callable[[str], object]:
    return renamed_exports("pkg", {}, since="2026-12-02", removal="2027-03-01", fallback=fallback)


@pytest.mark.parametrize("make", [_moved, _renamed])
def test_a_name_not_deprecated_goes_to_the_fallback_or_is_missing(
    make: Callable[[Fallback], Callable[[str], object]],
) -> None:
    asked: list[str] = []

    def fallback(name: str) -> object:
        asked.append(name)
        return len(name)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a name handed on warns nothing
        assert make(fallback)("other") == 5
    assert asked == ["other"]
    with pytest.raises(AttributeError, match="module 'pkg' has no attribute 'other'"):
        make(None)("other")
