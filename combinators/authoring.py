"""The public API for component authors on top of the core: schemas from types,
hand-written constructors and reprs for frozen values, bases whose subclasses
declare fields, and the answers of the ``input_draw()`` hook (``DrawValues``, ``DrawText``,
``DrawVariables``, ...: what a property test draws as a runnable's input), loaded on first
use.

Components (``combinators.components``) import only public names: the package roots,
this module and ``effects.authoring`` (everything a step needs of the runtime: its
``Scope``, ``closing``, ``run_on_total``, fan-out helpers, custom events, ...).

>>> from combinators.authoring import type_schema
>>> type_schema(list[int])
{'type': 'array', 'items': {'type': 'integer'}}
"""

import typing as _typing

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
    "DrawFirstKnown",
    "DrawFromNext",
    "DrawListOf",
    "DrawText",
    "DrawThrough",
    "DrawUnknown",
    "DrawValues",
    "DrawVariables",
    "InputDraw",
    "changed_fields",
    "init_fields",
    "is_library_code",
    "sensitive",
    "strict_validator",
    "type_schema",
]

if _typing.TYPE_CHECKING:
    from combinators.runnable.draws import DrawFirstKnown as DrawFirstKnown
    from combinators.runnable.draws import DrawFromNext as DrawFromNext
    from combinators.runnable.draws import DrawListOf as DrawListOf
    from combinators.runnable.draws import DrawText as DrawText
    from combinators.runnable.draws import DrawThrough as DrawThrough
    from combinators.runnable.draws import DrawUnknown as DrawUnknown
    from combinators.runnable.draws import DrawValues as DrawValues
    from combinators.runnable.draws import DrawVariables as DrawVariables
    from combinators.runnable.draws import InputDraw as InputDraw
else:
    from effects.lazy import lazy_exports as _lazy_exports

    # Building the draws' classes costs more than a node's import, and only property tests ask.
    _DRAWS = [name for name in __all__ if name.startswith("Draw") or name == "InputDraw"]
    __getattr__ = _lazy_exports(__name__, dict.fromkeys(_DRAWS, "combinators.runnable.draws"))
