"""The attribute and span names we emit: OpenTelemetry's GenAI conventions, and our own;
and the instrumentation scope they come under (its name and version, one tracer and
meter remembered per provider).

Every ``gen_ai.*`` name is still "Development" in the conventions (now kept in the
``open-telemetry/semantic-conventions-genai`` repository), and the Python package
marks its constants deprecated, so the names live here, pinned to the revision we
reviewed (the spans, events and content rules of early 2026: ``gen_ai.provider.name``,
``gen_ai.usage.input_tokens``, one opt-in ``gen_ai.client.inference.operation.details``
event). ``lcel.*`` names are ours.

>>> OPERATION_NAME, WORKFLOW
('gen_ai.operation.name', 'invoke_workflow')
>>> INSTRUMENTATION_NAME
'combinators'
>>> scope_version() is None or isinstance(scope_version(), str)
True
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import cache
from typing import Final, TypeVar

# operations (gen_ai.operation.name values)
CHAT: Final = "chat"
TEXT_COMPLETION: Final = "text_completion"
EMBEDDINGS: Final = "embeddings"
RETRIEVAL: Final = "retrieval"
EXECUTE_TOOL: Final = "execute_tool"
WORKFLOW: Final = "invoke_workflow"

# request and identity
OPERATION_NAME: Final = "gen_ai.operation.name"
PROVIDER_NAME: Final = "gen_ai.provider.name"
REQUEST_MODEL: Final = "gen_ai.request.model"
REQUEST_TEMPERATURE: Final = "gen_ai.request.temperature"
REQUEST_MAX_TOKENS: Final = "gen_ai.request.max_tokens"
REQUEST_TOP_P: Final = "gen_ai.request.top_p"
REQUEST_TOP_K: Final = "gen_ai.request.top_k"
REQUEST_STOP_SEQUENCES: Final = "gen_ai.request.stop_sequences"
REQUEST_SEED: Final = "gen_ai.request.seed"
WORKFLOW_NAME: Final = "gen_ai.workflow.name"
DATA_SOURCE_ID: Final = "gen_ai.data_source.id"
TOOL_NAME: Final = "gen_ai.tool.name"
TOOL_DESCRIPTION: Final = "gen_ai.tool.description"
TOOL_TYPE: Final = "gen_ai.tool.type"
TOOL_CALL_ID: Final = "gen_ai.tool.call.id"

# response
RESPONSE_MODEL: Final = "gen_ai.response.model"
RESPONSE_ID: Final = "gen_ai.response.id"
RESPONSE_FINISH_REASONS: Final = "gen_ai.response.finish_reasons"
RESPONSE_TIME_TO_FIRST_CHUNK: Final = "gen_ai.response.time_to_first_chunk"
USAGE_INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
USAGE_OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
USAGE_CACHE_READ_INPUT_TOKENS: Final = "gen_ai.usage.cache_read.input_tokens"
USAGE_CACHE_CREATION_INPUT_TOKENS: Final = "gen_ai.usage.cache_creation.input_tokens"
USAGE_REASONING_OUTPUT_TOKENS: Final = "gen_ai.usage.reasoning.output_tokens"
ERROR_TYPE: Final = "error.type"

# client metrics
CLIENT_OPERATION_DURATION: Final = "gen_ai.client.operation.duration"
CLIENT_TOKEN_USAGE: Final = "gen_ai.client.token.usage"
TOKEN_TYPE: Final = "gen_ai.token.type"

# content (opt-in only)
INPUT_MESSAGES: Final = "gen_ai.input.messages"
OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
RETRIEVAL_QUERY_TEXT: Final = "gen_ai.retrieval.query.text"
RETRIEVAL_DOCUMENTS: Final = "gen_ai.retrieval.documents"
TOOL_CALL_ARGUMENTS: Final = "gen_ai.tool.call.arguments"
TOOL_CALL_RESULT: Final = "gen_ai.tool.call.result"
INFERENCE_DETAILS_EVENT: Final = "gen_ai.client.inference.operation.details"
CAPTURE_ENV: Final = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
"""The switch of the Python contrib instrumentations, read when ``capture`` is not given."""

# exceptions (the SDK's own names, for the event we build ourselves)
EXCEPTION_EVENT: Final = "exception"
EXCEPTION_TYPE: Final = "exception.type"
EXCEPTION_MESSAGE: Final = "exception.message"
EXCEPTION_STACKTRACE: Final = "exception.stacktrace"

# ours
RUN_ID: Final = "lcel.run.id"
RUN_TYPE: Final = "lcel.run.type"
TAGS: Final = "lcel.tags"
METADATA_PREFIX: Final = "lcel.metadata."
INPUT: Final = "lcel.input"
OUTPUT: Final = "lcel.output"
CONTENT_EVENT: Final = "lcel.content"
CHUNK_COUNT: Final = "lcel.stream.chunk_count"
TIME_TO_FIRST_CHUNK: Final = "lcel.stream.time_to_first_chunk"
CHUNK_EVENT: Final = "lcel.chunk"
CHUNK_INDEX: Final = "lcel.chunk.index"
CUSTOM_EVENT_PREFIX: Final = "lcel.custom."
CUSTOM_DATA: Final = "lcel.custom.data"
CANCELLED: Final = "lcel.cancelled"
INCOMPLETE: Final = "lcel.incomplete"
CANCELLED_ERROR_TYPE: Final = "cancelled"


K = TypeVar("K")
V = TypeVar("V")

INSTRUMENTATION_NAME: Final = "combinators"
"""The instrumentation scope of our spans and metrics when they come from a provider."""


@cache
def scope_version() -> str | None:
    """The installed version of the distribution (None when it runs from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    from effects.hooks import DISTRIBUTION

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return None


def remembered(known: weakref.WeakKeyDictionary[K, V], key: K, make: Callable[[K], V | None]) -> V | None:
    """``known[key]``, made by ``make(key)`` the first time (a ``None`` is not kept); a
    key that cannot be weakly referenced is made anew each time.

    >>> import weakref
    >>> class Provider: ...
    >>> known: weakref.WeakKeyDictionary[Provider, str] = weakref.WeakKeyDictionary()
    >>> p = Provider()
    >>> remembered(known, p, lambda _: "tracer") is remembered(known, p, lambda _: "other")
    True
    """
    try:
        found = known.get(key)
    except TypeError:  # not weakly referenceable
        return make(key)
    if found is None:
        found = make(key)
        if found is not None:
            known[key] = found
    return found
