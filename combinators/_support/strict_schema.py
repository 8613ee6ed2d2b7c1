"""JSON Schema validation without numeric leniency: ``integer`` means a JSON integer.

Draft 2020-12 counts ``1.0`` as an integer (a number with no fractional part). A tool
whose function takes an ``int`` would then receive a ``float``; here ``1.0`` is not an
``integer`` (``true`` never was), so such arguments are rejected before the tool runs.

>>> strict_validator({"type": "integer"}).is_valid(1.0), strict_validator({"type": "integer"}).is_valid(1)
(False, True)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator


def _is_integer(_checker: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def _strict_class() -> type[Validator]:
    # Imported here: jsonschema costs ~0.1 s to import, paid only by programs that use it.
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
    extend = getattr(validators, "extend")  # its stub leaves the result unknown
    strict: type[Validator] = extend(Draft202012Validator, type_checker=checker)
    return strict


def strict_validator(schema: Mapping[str, Any]) -> Validator:
    """A Draft 2020-12 validator for ``schema`` whose ``integer`` excludes ``1.0``.

    >>> strict_validator({"type": "number"}).is_valid(1)
    True
    """
    return _strict_class()(schema)


def check_schema(schema: Mapping[str, Any]) -> None:
    """Raise ``jsonschema.SchemaError`` if ``schema`` is not a valid JSON Schema.

    >>> check_schema({"type": "integer"})
    """
    _strict_class().check_schema(dict(schema))
