"""``/openapi.json``: an OpenAPI 3.1 document built from the served runnables' own schemas.

The request schemas are the JSON Schemas that validate requests (``input_schema()`` of
each runnable, the config a client may set), and the answers' schemas come from
``output_schema()``: the document cannot drift from what the server does.

>>> from combinators import RunnableLambda
>>> from combinators.integrations.serving.http import RunGate
>>> from combinators.integrations.serving.options import ServeOptions, Served
>>> def shout(text: str) -> str:
...     return text.upper()
>>> doc = openapi_document([Served(RunnableLambda(shout), "/shout", ServeOptions(), RunGate(None))])
>>> doc["components"]["schemas"]["ShoutInput"]
{'title': 'shout_input', 'type': 'string'}
>>> sorted(doc["paths"])[:3]
['/shout/batch', '/shout/c/{config_hash}/batch', '/shout/c/{config_hash}/config_schema']

Every route is listed twice, as LangServe lists it: at ``<path>/<route>`` and at
``<path>/c/{config_hash}/<route>`` (a config in the path, as the playground's share links
carry it), the second with its ``config_hash`` path parameter described:

>>> doc["paths"]["/shout/c/{config_hash}/invoke"]["post"]["parameters"][0]["name"]
'config_hash'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from effects.projections.jsonable import JsonValue

from combinators.integrations.serving.bodies import FILTER_KEYS
from combinators.integrations.serving.config import config_schema
from combinators.integrations.serving.config_hash import MAX_HASH_CHARS
from combinators.integrations.serving.options import Served

ERROR_SCHEMA: Final[dict[str, JsonValue]] = {
    "title": "ErrorInfo",
    "type": "object",
    "properties": {
        "status_code": {"type": "integer"},
        "type": {"type": "string"},
        "message": {"type": "string"},
        "retryable": {"type": "boolean"},
        "retry_after": {"type": "number"},
        "detail": {"type": "array", "items": {"type": "object"}},
        "run_id": {"type": "string"},
    },
    "required": ["status_code", "type", "message", "retryable"],
}
ERROR_STATUSES: Final = {
    "400": "the body is not JSON",
    "401": "no valid credentials",
    "413": "the body is too large",
    "422": "the body or the input does not fit its schema",
    "429": "rate limited (Retry-After)",
    "500": "the run failed (message scrubbed)",
    "503": "busy or a transient failure (Retry-After)",
    "504": "the run took too long",
}
_FILTERS: Final[dict[str, JsonValue]] = {
    key: {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]} for key in FILTER_KEYS
}


def _name(path: str) -> str:
    words = [w for w in re.split(r"[^0-9A-Za-z]+", path) if w]
    return "".join(w[:1].upper() + w[1:] for w in words) or "Root"


def _ref(name: str) -> dict[str, JsonValue]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, JsonValue], description: str = "OK") -> dict[str, JsonValue]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _answers(ok: dict[str, JsonValue]) -> dict[str, JsonValue]:
    return {"200": ok, **{status: _json(_ref("ErrorInfo"), why) for status, why in ERROR_STATUSES.items()}}


def _post(summary: str, body: dict[str, JsonValue], ok: dict[str, JsonValue]) -> tuple[str, dict[str, JsonValue]]:
    return "post", {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
        "responses": _answers(ok),
    }


CONFIG_HASH: Final[dict[str, JsonValue]] = {
    "name": "config_hash",
    "in": "path",
    "required": True,
    "description": (
        "A config, as JSON compressed with lz-string's compressToEncodedURIComponent (what the"
        " playground's Share link carries): the run gets it as if the body had sent it as"
        " `config` (only what the server lets clients set); the body's `config` is merged over it."
    ),
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9+$-]+$", "maxLength": MAX_HASH_CHARS},
}
HASHED: Final = "With a config in the path (a playground's share link): see the `config_hash` parameter."
BAD_HASH: Final = "the config hash cannot be read (InvalidConfigHash)"


def _operations(base: str, tag: str, operations: dict[str, tuple[str, dict[str, JsonValue]]]) -> dict[str, JsonValue]:
    """Each route at ``<base>/<route>`` and at ``<base>/c/{config_hash}/<route>`` (with the
    path parameter described and its 400), tagged as LangServe tags them."""
    paths: dict[str, JsonValue] = {}
    for route, (method, operation) in operations.items():
        paths[f"{base}/{route}"] = {method: {**operation, "tags": [tag]}}
        responses = operation["responses"]
        bad_hash: dict[str, JsonValue] = {"400": _json(_ref("ErrorInfo"), BAD_HASH)}
        hashed: dict[str, JsonValue] = {"tags": [f"{tag}/config"], "description": HASHED, "parameters": [CONFIG_HASH]}
        answers: dict[str, JsonValue] = {**responses, **bad_hash} if isinstance(responses, dict) else bad_hash
        paths[f"{base}/c/{{config_hash}}/{route}"] = {method: {**operation, **hashed, "responses": answers}}
    return paths


def _paths(served: Served, schemas: dict[str, JsonValue]) -> dict[str, JsonValue]:
    name = _name(served.path)
    schemas[f"{name}Input"] = dict(served.input_check.schema)
    schemas[f"{name}Output"] = served.runnable.output_schema()
    schemas[f"{name}Config"] = config_schema(served.policy, served.runnable.config_schema()) | {
        "title": f"{name}Config"
    }
    fields: dict[str, JsonValue] = {
        "input": _ref(f"{name}Input"),
        "config": _ref(f"{name}Config"),
        "kwargs": {"type": "object"},
    }
    one: dict[str, JsonValue] = {"type": "object", "properties": fields, "required": ["input"]}
    many: dict[str, JsonValue] = {
        "type": "object",
        "properties": {
            "inputs": {"type": "array", "items": _ref(f"{name}Input")},
            "config": {"anyOf": [_ref(f"{name}Config"), {"type": "array", "items": _ref(f"{name}Config")}]},
            "kwargs": {"anyOf": [{"type": "object"}, {"type": "array", "items": {"type": ["object", "null"]}}]},
            "return_exceptions": {"type": "boolean"},
        },
        "required": ["inputs"],
    }
    metadata: dict[str, JsonValue] = {"type": "object", "properties": {"run_id": {"type": "string"}}}
    sse: dict[str, JsonValue] = {
        "description": "server-sent events: metadata, data..., end or error",
        "content": {"text/event-stream": {}},
    }
    filters: dict[str, JsonValue] = {**fields, **_FILTERS}
    filtered: dict[str, JsonValue] = {**one, "properties": filters}
    events: dict[str, JsonValue] = {**one, "properties": {**filters, "version": {"enum": ["v1", "v2"]}}}
    operations: dict[str, tuple[str, dict[str, JsonValue]]] = {
        "invoke": _post(
            "Run once",
            one,
            _json({"type": "object", "properties": {"output": _ref(f"{name}Output"), "metadata": metadata}}),
        ),
        "batch": _post(
            "Run on many inputs",
            many,
            _json({"type": "object", "properties": {"output": {"type": "array", "items": _ref(f"{name}Output")}}}),
        ),
        "stream": _post("Stream the output", one, sse),
        "stream_log": _post("Stream the run log (JSON patches)", filtered, sse),
        "stream_events": _post("Stream the run's events", events, sse),
    }
    for which in ("input", "output", "config"):
        operations[f"{which}_schema"] = (
            "get",
            {"summary": f"The {which} JSON Schema", "responses": {"200": _json({"type": "object"})}},
        )
    operations["graph"] = (
        "get",
        {
            "summary": "The chain's graph: nodes, edges and groups (what get_graph() draws)",
            "responses": {"200": _json({"type": "object", "required": ["nodes", "edges"]})},
        },
    )
    return _operations(served.path.rstrip("/"), served.path.strip("/") or "default", operations)


def openapi_document(served: Sequence[Served], title: str = "combinators") -> dict[str, JsonValue]:
    """The OpenAPI 3.1 document of these served runnables."""
    schemas: dict[str, JsonValue] = {"ErrorInfo": ERROR_SCHEMA}
    paths: dict[str, JsonValue] = {}
    for one in served:
        paths.update(_paths(one, schemas))
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": "1"},
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": schemas},
    }
