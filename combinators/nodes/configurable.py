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

from typing import Any, final

import attrs

from effects.errors import CombinatorsError


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

    >>> ConfigurableField(id="temperature", name="Temperature")
    ConfigurableField(id='temperature', name='Temperature', description=None, annotation=None, is_shared=False)
    """

    id: str
    name: str | None = None
    description: str | None = None
    annotation: Any = None
    is_shared: bool = False


@final
@attrs.frozen
class ConfigurableFieldSpec:
    """A configurable id as a chain declares it: its type, default, title and description.

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
