"""Request bodies, read and checked before anything runs: 400 for bad JSON, 422 with field paths.

The bodies are LangServe's (what its 0.3.3 client sends is accepted as is)::

    invoke, stream:   {"input": X, "config": {...}?, "kwargs": {...}?}
    batch:            {"inputs": [X, ...], "config": {...} | [{...}, ...]?, "kwargs": {...} | [{...}, ...]?,
                       "return_exceptions"?}
    stream_log:       invoke's body + the six filters (include_names, ..., exclude_tags) + "diff"?
    stream_events:    invoke's body + the six filters + "version"? ("v1" or "v2")

``null`` stands for an absent value everywhere; other keys are ignored. The input is
checked against the chain's input JSON Schema; a 422 lists each problem with its
location (``["body", "inputs", 1, "question"]``).

>>> read_json(b'{"input": 1}')
{'input': 1}
>>> read_json(b'{"input": ')
Traceback (most recent call last):
...
combinators.integrations.serving.errors.Rejected: Invalid JSON body: Expecting value at line 1 column 11
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, TypedDict, cast, final

import attrs
import jsonschema
from jsonschema.validators import validator_for

from combinators.integrations.serving.errors import invalid
from combinators.integrations.serving.json_limits import JsonLimits
from effects.projections import JsonValue
from effects.projections.filters import RunTypes
from effects.authoring import is_list_of, is_str_mapping

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

Loc = tuple[str | int, ...]

FILTER_KEYS: Final = (
    "include_names",
    "include_types",
    "include_tags",
    "exclude_names",
    "exclude_types",
    "exclude_tags",
)
DEFAULT_LIMITS: Final = JsonLimits()
MAX_DETAILS: Final = 20
"""A 422 lists at most this many problems."""


def problem(loc: Loc, msg: str, kind: str) -> dict[str, JsonValue]:
    """One item of a 422's ``detail``.

    >>> problem(("body", "input"), "field required", "missing")
    {'loc': ['body', 'input'], 'msg': 'field required', 'type': 'missing'}
    """
    return {"loc": list(loc), "msg": msg, "type": kind}


def read_json(raw: bytes, limits: JsonLimits = DEFAULT_LIMITS) -> Mapping[str, object]:
    """The body as a JSON object; 400 if it is not JSON or breaks ``limits``, 422 if it is
    not an object."""
    body = limits.parse(raw)
    if not is_str_mapping(body):  # a JSON object's keys are str
        raise invalid(
            "the body must be a JSON object",
            problem(("body",), f"expected an object, got {_kind(body)}", "type"),
        )
    return body


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    return "a boolean" if isinstance(value, bool) else "a number"


def required(body: Mapping[str, object], key: str) -> object:
    """``body[key]``; a 422 when it is missing.

    >>> required({}, "input")
    Traceback (most recent call last):
    ...
    combinators.integrations.serving.errors.Rejected: the body has no 'input'
    """
    if key not in body:
        raise invalid(f"the body has no {key!r}", problem(("body", key), "field required", "missing"))
    return body[key]


def optional_object(body: Mapping[str, object], key: str) -> Mapping[str, object]:
    """``body[key]`` when it is an object, ``{}`` when absent or null; else a 422."""
    value = body.get(key)
    if value is None:
        return {}
    if not is_str_mapping(value):  # a JSON object's keys are str
        raise invalid(
            f"{key!r} must be an object", problem(("body", key), f"expected an object, got {_kind(value)}", "type")
        )
    return value


def per_input(body: Mapping[str, object], key: str, count: int) -> list[tuple[object, Loc]]:
    """``body[key]`` for each of ``count`` inputs, with where it sits: one object (or null)
    for all, or a list of one per input (an empty list: none); else a 422.

    >>> per_input({"kwargs": [{}, None]}, "kwargs", 2)
    [({}, ('body', 'kwargs', 0)), (None, ('body', 'kwargs', 1))]
    >>> per_input({"config": [{}]}, "config", 2)
    Traceback (most recent call last):
    ...
    combinators.integrations.serving.errors.Rejected: 1 items in 'config' for 2 inputs
    """
    value = body.get(key)
    found: list[tuple[object, Loc]]
    if isinstance(value, list):
        items: list[object] = list(value)  # pyright: ignore[reportUnknownArgumentType]
        if not items:
            return [(None, ("body", key))] * count  # an empty list: none
        if len(items) != count:
            raise invalid(
                f"{len(items)} items in {key!r} for {count} inputs",
                problem(("body", key), "give one object, or a list of one per input", "length"),
            )
        found = [(item, ("body", key, index)) for index, item in enumerate(items)]
    else:
        found = [(value, ("body", key))] * count
    for item, loc in found:
        if item is not None and not is_str_mapping(item):
            raise invalid(f"{key!r} must hold objects", problem(loc, f"expected an object, got {_kind(item)}", "type"))
    return found


def optional_bool(body: Mapping[str, object], key: str, default: bool) -> bool:
    """``body[key]`` when it is a boolean, ``default`` when absent or null; else a 422."""
    value = body.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise invalid(
            f"{key!r} must be true or false", problem(("body", key), f"expected a boolean, got {_kind(value)}", "type")
        )
    return value


class FilterArgs(TypedDict):
    """The six filters as keyword arguments of ``astream_events`` / ``astream_log``."""

    include_names: tuple[str, ...] | None
    include_types: RunTypes | None
    include_tags: tuple[str, ...] | None
    exclude_names: tuple[str, ...] | None
    exclude_types: RunTypes | None
    exclude_tags: tuple[str, ...] | None


def _run_types(types: tuple[str, ...] | None) -> RunTypes | None:
    # Any name goes over the wire: a custom event's name counts as its type too.
    return cast("RunTypes | None", types)


@final
@attrs.frozen
class Filters:
    """The six event filters of ``stream_log`` and ``stream_events`` (``None``: no filter).

    >>> Filters.read({"include_names": ["model"], "exclude_tags": None}).include_names
    ('model',)
    """

    include_names: tuple[str, ...] | None = None
    include_types: tuple[str, ...] | None = None
    include_tags: tuple[str, ...] | None = None
    exclude_names: tuple[str, ...] | None = None
    exclude_types: tuple[str, ...] | None = None
    exclude_tags: tuple[str, ...] | None = None

    @staticmethod
    def read(body: Mapping[str, object]) -> Filters:
        """The filters in a body; a 422 names a filter that is not a list of strings."""
        values: dict[str, tuple[str, ...] | None] = {}
        for key in FILTER_KEYS:
            value = body.get(key)
            if value is None:
                values[key] = None
                continue
            if not is_list_of(value, str):
                raise invalid(
                    f"{key!r} must be a list of strings or null",
                    problem(("body", key), "expected a list of strings", "type"),
                )
            values[key] = tuple(value)
        return Filters(**values)

    def as_kwargs(self) -> FilterArgs:
        """The filters as keyword arguments.

        >>> Filters(include_tags=("t",)).as_kwargs()["include_tags"]
        ('t',)
        """
        return FilterArgs(
            include_names=self.include_names,
            include_types=_run_types(self.include_types),
            include_tags=self.include_tags,
            exclude_names=self.exclude_names,
            exclude_types=_run_types(self.exclude_types),
            exclude_tags=self.exclude_tags,
        )


def read_version(body: Mapping[str, object]) -> Literal["v1", "v2"]:
    """The ``version`` of ``stream_events`` (``v2`` unless the body says ``v1``).

    >>> read_version({"version": "v3"})
    Traceback (most recent call last):
    ...
    combinators.integrations.serving.errors.Rejected: 'version' must be "v1" or "v2"
    """
    version = body.get("version")
    if version is None or version == "v2":
        return "v2"
    if version == "v1":
        return "v1"
    raise invalid('\'version\' must be "v1" or "v2"', problem(("body", "version"), "expected 'v1' or 'v2'", "enum"))


@final
class InputCheck:
    """Checks inputs against the chain's input JSON Schema (built once per route).

    >>> check = InputCheck({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})
    >>> [item["loc"] for item in check.problems({"q": 1}, ("body", "input"))]
    [['body', 'input', 'q']]
    """

    __slots__ = ("schema", "_validator")

    def __init__(self, schema: Mapping[str, JsonValue]) -> None:
        self.schema = schema
        cls = validator_for(schema, default=jsonschema.Draft202012Validator)
        cls.check_schema(dict(schema))
        # An empty schema accepts everything: skip the walk. Any: jsonschema types the values it
        # checks as JSON, and a request's input is checked before anything says it is.
        self._validator: Any = cls(schema) if _constrains(schema) else None

    def problems(self, value: object, loc: Loc) -> list[dict[str, JsonValue]]:
        """What is wrong with ``value`` (empty when it fits), deepest paths first."""
        if self._validator is None or self._validator.is_valid(value):
            return []
        found = [specific for error in self._validator.iter_errors(value) for specific in _specific(error)]
        errors = sorted(found, key=lambda e: list(map(str, e.absolute_path)))
        return [
            problem((*loc, *error.absolute_path), error.message, str(error.validator)) for error in errors[:MAX_DETAILS]
        ]


def _specific(error: ValidationError) -> list[ValidationError]:
    """A union's failure as what each arm the value's type fits says is wrong (so a missing
    or mistyped field is named), or the union's own message when no arm's type fits.

    >>> import jsonschema
    >>> union = {"anyOf": [{"type": "string"}, {"type": "object", "required": ["input"]}]}
    >>> (error,) = jsonschema.Draft202012Validator(union).iter_errors({"question": "q"})
    >>> [e.message for e in _specific(error)]
    ["'input' is a required property"]
    """
    if error.validator in ("anyOf", "oneOf") and error.context:
        # An arm whose own type does not fit says nothing useful about this value.
        fitting = [e for e in error.context if not (e.validator == "type" and not e.relative_path)]
        if fitting:
            return [specific for e in fitting for specific in _specific(e)]
    return [error]


def _constrains(schema: Mapping[str, JsonValue]) -> bool:
    return any(key not in ("title", "description", "$schema") for key in schema)
