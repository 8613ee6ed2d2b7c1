"""What a chain lets a call configure: ``ConfigurableField`` (declared) and ``ConfigurableFieldSpec`` (resolved).

``runnable.configurable_fields(field=ConfigurableField(id=...))`` and
``runnable.configurable_alternatives(ConfigurableField(id=...), ...)`` declare ids; a
call chooses values with ``config={"configurable": {id: value}}``; ``config_schema()``
publishes the ids as JSON Schema. An unknown id or a value of the wrong type is a
``ConfigurableError`` at the root of the call, before anything runs.

>>> from combinators import RunnablePick
>>> pick = RunnablePick(["a"]).configurable_fields(
...     keys=ConfigurableField(id="keys", name="Keys", description="Which keys to keep"))
>>> pick.invoke({"a": 1, "b": 2}), pick.invoke({"a": 1, "b": 2}, {"configurable": {"keys": ["b"]}})
({'a': 1}, {'b': 2})
>>> pick.config_schema()["properties"]["configurable"]["properties"]["keys"]
{'title': 'Keys', 'description': 'Which keys to keep', 'default': ['a'], 'anyOf': [{'type': 'string'}, {'type': 'array', 'items': {'type': 'string'}}]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, final, get_args

import attrs

from effects.errors import CombinatorsError

SENSITIVE: Final = "combinators.sensitive"
"""attrs field metadata naming what a field holds that a served chain's client must never set.

Its value says why: ``"secret"`` (a key, a password), ``"endpoint"`` (where requests go:
a URL, an index, a region), ``"header"`` (headers sent with requests) or
``"credentials"`` (a client object holding them). ``sensitive(...)`` builds the metadata.
A field typed ``Secret`` (any class with ``sensitive_kind``) is sensitive without it.
"""

SensitiveKind = Literal["secret", "endpoint", "header", "credentials"]


def sensitive(kind: SensitiveKind) -> dict[str, str]:
    """The attrs field metadata that declares a field sensitive (see ``SENSITIVE``).

    >>> import attrs
    >>> @attrs.frozen
    ... class Client:
    ...     base_url: str = attrs.field(default="http://127.0.0.1:1/v1", metadata=sensitive("endpoint"))
    >>> sensitivity(attrs.fields(Client).base_url, str)
    'endpoint'
    """
    return {SENSITIVE: kind}


def _sensitive_type(annotation: object) -> str | None:
    kind = getattr(annotation, "sensitive_kind", None)
    if isinstance(kind, str) and isinstance(annotation, type):
        return kind
    for argument in get_args(annotation):
        found = _sensitive_type(argument)
        if found is not None:
            return found
    return None


def sensitivity(field: attrs.Attribute[object], annotation: object, value: object = None) -> str | None:
    """Why a field is sensitive (its ``SENSITIVE`` metadata, a ``Secret`` type or value), or ``None``.

    >>> import attrs
    >>> @attrs.frozen
    ... class Plain:
    ...     temperature: float = 0.0
    >>> sensitivity(attrs.fields(Plain).temperature, float) is None
    True
    """
    metadata: Mapping[str, object] = field.metadata
    kind = metadata.get(SENSITIVE)
    if isinstance(kind, str):
        return kind
    found = _sensitive_type(annotation)
    if found is None and value is not None:
        found = _sensitive_type(type(value))
    return found


class ConfigurableError(CombinatorsError, ValueError):
    """A call's ``configurable`` names an id the chain does not declare, or a value it cannot take.

    >>> issubclass(ConfigurableError, ValueError)
    True
    """


@final
@attrs.frozen
class ConfigurableField:
    """A field (or a choice of alternatives) a call may set by ``id``.

    ``annotation`` overrides the field's declared type for checking and the schema;
    ``is_shared`` is informational (the peer's flag for ids shared across a chain).
    ``client_settable=True`` lets a served chain's clients set a field its component
    declares sensitive (a URL, a key, headers: see ``SENSITIVE``) when the server also
    names the id in ``client_configurable``; without it, no server setting can.

    >>> ConfigurableField(id="temperature", name="Temperature")
    ConfigurableField(id='temperature', name='Temperature', description=None, annotation=None, is_shared=False, client_settable=False)
    """

    id: str
    name: str | None = None
    description: str | None = None
    annotation: object = None
    is_shared: bool = False
    client_settable: bool = False


@final
@attrs.frozen
class ConfigurableFieldSpec:
    """A configurable id as a chain declares it: its type, default, title and description.

    ``sensitive`` says why a client may not set it (``None``: nothing sensitive; see
    ``SENSITIVE``), ``client_settable`` that its ``ConfigurableField`` allows it anyway.

    >>> from typing import Literal
    >>> ConfigurableFieldSpec(id="llm", annotation=Literal["fast", "smart"], default="fast").default
    'fast'
    """

    id: str
    annotation: Any = Any
    name: str | None = None
    description: str | None = None
    default: Any = attrs.field(default=None, hash=False)
    is_shared: bool = False
    sensitive: str | None = None
    client_settable: bool = False

    @property
    def client_may_set(self) -> bool:
        """Whether a server may let clients set this id (not sensitive, or opted in).

        >>> ConfigurableFieldSpec(id="url", sensitive="endpoint").client_may_set
        False
        """
        return self.sensitive is None or self.client_settable
