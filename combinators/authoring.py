"""The public API for component authors on top of the core: schemas from types,
hand-written constructors and reprs for frozen values, and bases whose subclasses
declare fields.

Components (``combinators.components``) import only public names: the package roots,
this module and ``effects.authoring`` (everything a step needs of the runtime: its
``Scope``, ``closing``, ``run_on_total``, fan-out helpers, custom events, ...).

>>> from combinators.authoring import type_schema
>>> type_schema(list[int])
{'type': 'array', 'items': {'type': 'integer'}}
"""

from combinators._support.callables import is_library_code as is_library_code
from combinators._support.declared import DeclaredFields as DeclaredFields
from combinators._support.declared import init_fields as init_fields
from combinators._support.reprs import changed_fields as changed_fields
from combinators._support.tool_arguments import strict_validator as strict_validator
from combinators._support.type_schema import type_schema as type_schema
from combinators._support.tool_arguments import SINGLE_ARG as SINGLE_ARG
from combinators._support.tool_arguments import ArgumentTypeError as ArgumentTypeError
from combinators.nodes.configurable import SENSITIVE as SENSITIVE
from combinators.nodes.configurable import sensitive as sensitive

__all__ = [
    "SENSITIVE",
    "SINGLE_ARG",
    "ArgumentTypeError",
    "DeclaredFields",
    "changed_fields",
    "init_fields",
    "is_library_code",
    "sensitive",
    "strict_validator",
    "type_schema",
]
