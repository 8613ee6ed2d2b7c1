"""What span a run gets when it starts: its name, kind, operation and first attributes.

By run type: a chat model is ``chat {model}`` (CLIENT), a text model
``text_completion {model}``, an embedding run ``embeddings {model}``, a retriever
``retrieval {data source}`` (all CLIENT), a tool ``execute_tool {tool}`` (INTERNAL); a
root chain is ``invoke_workflow {name}``; any other run is an INTERNAL span named by the
node, with no ``gen_ai.operation.name``. Every span has ``lcel.run.id``,
``lcel.run.type``, its tags (redacted) and the allowed metadata keys. The request's
model and options come from the run's ``params`` (``Step.describe_params``).

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo
>>> run = RunInfo(UUID(int=1), (), "FakeChat", "chat_model", (), {}, {"model": "m1", "provider": "fake"})
>>> start = SpanShapes(Redactor(), ()).shape(run, is_root=False)
>>> start.name, start.kind.name, start.attributes["gen_ai.request.model"]
('chat m1', 'CLIENT', 'm1')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, final
from uuid import UUID

from opentelemetry.trace import SpanKind

from combinators.integrations.otel import semconv
from combinators.integrations.otel.redact import Redactor
from combinators.integrations.otel.response import Attributes
from effects.effect_values import RunInfo

_OPERATIONS: Final = {
    "chat_model": (semconv.CHAT, SpanKind.CLIENT),
    "llm": (semconv.TEXT_COMPLETION, SpanKind.CLIENT),
    "embedding": (semconv.EMBEDDINGS, SpanKind.CLIENT),
    "embeddings": (semconv.EMBEDDINGS, SpanKind.CLIENT),
    "retriever": (semconv.RETRIEVAL, SpanKind.CLIENT),
    "tool": (semconv.EXECUTE_TOOL, SpanKind.INTERNAL),
}
MODEL_OPERATIONS: Final = frozenset({semconv.CHAT, semconv.TEXT_COMPLETION, semconv.EMBEDDINGS})
"""Operations whose outputs carry response ids, finish reasons and usage."""

_WORKFLOW_TYPES: Final = frozenset({"chain", "prompt", "parser"})

_REQUEST: Final = (
    ("temperature", semconv.REQUEST_TEMPERATURE, (int, float)),
    ("max_tokens", semconv.REQUEST_MAX_TOKENS, (int,)),
    ("top_p", semconv.REQUEST_TOP_P, (int, float)),
    ("top_k", semconv.REQUEST_TOP_K, (int, float)),
    ("seed", semconv.REQUEST_SEED, (int,)),
)


def _string(params: Mapping[str, object], key: str) -> str | None:
    value = params.get(key)
    return value if isinstance(value, str) and value else None


def _request(params: Mapping[str, object], redactor: Redactor) -> Attributes:
    found: Attributes = {}
    for key, name, kinds in _REQUEST:
        value = params.get(key)
        if isinstance(value, kinds) and not isinstance(value, bool):
            found[name] = value
    stop = params.get("stop")
    if isinstance(stop, str):
        stop = (stop,)
    if isinstance(stop, tuple | list):
        found[semconv.REQUEST_STOP_SEQUENCES] = tuple(redactor.text(str(s)) for s in stop)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    return found


def metadata_attributes(metadata: Mapping[str, object], keys: tuple[str, ...], redactor: Redactor) -> Attributes:
    """``lcel.metadata.<key>`` for the allowed keys with plain values, redacted.

    >>> metadata_attributes({"user": "ann", "api_key": "sk-12345678ab", "n": 2}, ("user", "api_key", "n"), Redactor())
    {'lcel.metadata.user': 'ann', 'lcel.metadata.n': 2}
    """
    found: Attributes = {}
    for key in keys:
        value = metadata.get(key)
        if value is None or redactor.secret_key(key):
            continue
        if isinstance(value, str):
            found[semconv.METADATA_PREFIX + key] = redactor.text(value)
        elif isinstance(value, bool | int | float):
            found[semconv.METADATA_PREFIX + key] = value
    return found


@final
class SpanStart:
    """The span a run opens (see the module docstring)."""

    __slots__ = ("name", "kind", "operation", "attributes")

    def __init__(self, name: str, kind: SpanKind, operation: str | None, attributes: Attributes) -> None:
        self.name = name
        self.kind = kind
        self.operation = operation
        self.attributes = attributes

    @staticmethod
    def of(run: RunInfo, *, is_root: bool, redactor: Redactor, metadata_keys: tuple[str, ...]) -> SpanStart:
        """The span of ``run`` (without its ``lcel.run.id``: the projection adds it per run)."""
        attributes: Attributes = {semconv.RUN_TYPE: run.run_type}
        if run.tags:
            attributes[semconv.TAGS] = redactor.tags(run.tags)
        if metadata_keys and run.metadata:
            attributes.update(metadata_attributes(run.metadata, metadata_keys, redactor))
        known = _OPERATIONS.get(run.run_type)
        name = redactor.name(run.name)  # a run name may be built from data: redacted, capture or not
        if known is None:
            if is_root and run.run_type in _WORKFLOW_TYPES:
                attributes[semconv.OPERATION_NAME] = semconv.WORKFLOW
                attributes[semconv.WORKFLOW_NAME] = name
                return SpanStart(f"{semconv.WORKFLOW} {name}", SpanKind.INTERNAL, semconv.WORKFLOW, attributes)
            return SpanStart(name, SpanKind.INTERNAL, None, attributes)
        return _operation(run, name, known, attributes, redactor)


_REMEMBERED: Final = 1024


def run_id_text(run_id: UUID) -> str:
    """``str(run_id)``, a little cheaper (every span carries its run's id).

    >>> run_id_text(UUID(int=0x0123456789ABCDEF0123456789ABCDEF))
    '01234567-89ab-cdef-0123-456789abcdef'
    """
    h = run_id.int.to_bytes(16).hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


@final
class SpanShapes:
    """Span starts by the shape of a run (name, type, tags, root or not), remembered:
    a chain's runs repeat a few shapes, run after run. Runs with params (models, tools)
    or exported metadata are worked out each time.

    >>> from uuid import UUID
    >>> shapes = SpanShapes(Redactor(), ())
    >>> run = RunInfo(UUID(int=7), (), "seq", "chain", ("t",), {})
    >>> start = shapes.shape(run, is_root=True)
    >>> start.name, start.attributes["lcel.tags"], shapes.shape(run, is_root=True) is start
    ('invoke_workflow seq', ('t',), True)
    """

    __slots__ = ("_redactor", "_metadata_keys", "_roots", "_children")

    def __init__(self, redactor: Redactor, metadata_keys: tuple[str, ...]) -> None:
        self._redactor = redactor
        self._metadata_keys = metadata_keys
        self._roots: dict[tuple[str, str, tuple[str, ...]], SpanStart] = {}
        self._children: dict[tuple[str, str, tuple[str, ...]], SpanStart] = {}

    def shape(self, run: RunInfo, is_root: bool) -> SpanStart:
        """The span ``run`` opens, without its run id (shared: never change it)."""
        # Params shape only the operations' spans (a prompt's template is not an attribute).
        if (run.params and run.run_type in _OPERATIONS) or (self._metadata_keys and run.metadata):
            return SpanStart.of(run, is_root=is_root, redactor=self._redactor, metadata_keys=self._metadata_keys)
        known = self._roots if is_root else self._children
        key = (run.name, run.run_type, run.tags)
        shape = known.get(key)
        if shape is None:
            shape = SpanStart.of(run, is_root=is_root, redactor=self._redactor, metadata_keys=())
            if len(known) < _REMEMBERED:
                known[key] = shape
        return shape


def _operation(
    run: RunInfo, name: str, known: tuple[str, SpanKind], attributes: Attributes, redactor: Redactor
) -> SpanStart:
    operation, kind = known
    attributes[semconv.OPERATION_NAME] = operation
    params = run.params
    if operation == semconv.EXECUTE_TOOL:
        return SpanStart(f"{operation} {name}", kind, operation, _tool(attributes, name, params, redactor))
    if operation == semconv.RETRIEVAL:
        source = _string(params, "data_source")
        if source is not None:
            source = redactor.text(source)
            attributes[semconv.DATA_SOURCE_ID] = source
        return SpanStart(f"{operation} {source or name}", kind, operation, attributes)
    model = _string(params, "model")
    attributes[semconv.PROVIDER_NAME] = _string(params, "provider") or name.lower()
    if model is not None:
        attributes[semconv.REQUEST_MODEL] = model
    if params:
        attributes.update(_request(params, redactor))
    return SpanStart(f"{operation} {model or name}", kind, operation, attributes)


def _tool(attributes: Attributes, name: str, params: Mapping[str, object], redactor: Redactor) -> Attributes:
    attributes[semconv.TOOL_NAME] = name
    attributes[semconv.TOOL_TYPE] = "function"
    description = _string(params, "description")
    if description is not None:
        attributes[semconv.TOOL_DESCRIPTION] = redactor.text(description)
    return attributes
