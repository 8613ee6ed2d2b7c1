"""The renaming shim: ``langchain_core.*`` imports answered by this library's names.

LangChain's own unit tests import from ``langchain_core``; in the conformance process
(and only there: :func:`install` is never called on import) every ``langchain_core``
module is a stand-in whose attributes are looked up:

1. in ``RENAMES``, for a name this library spells differently (``RunnableConfig`` is
   ``RunConfigDict``, ``OutputParserException`` is ``OutputParserError``, ...);
2. by the same name in this library's public modules (the roots first);
3. otherwise as a :class:`Missing` placeholder: a class that can be named, subclassed
   and subscripted (so a test module imports), but whose construction and class
   attributes raise, so only the tests that use it fail.

Only names are translated here: no behaviour is added or changed.

(The examples ask ``lookup`` directly: this process may hold the real langchain-core.)

>>> lookup("langchain_core.runnables", "RunnableLambda").__module__.startswith("combinators")
True
>>> lookup("langchain_core.runnables", "RunnableConfig").__name__
'RunConfigDict'
>>> lookup("langchain_core.callbacks", "BaseCallbackHandler")()
Traceback (most recent call last):
...
NotImplementedError: langchain_core.callbacks.BaseCallbackHandler has no counterpart in this library
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import json
import pkgutil
import sys
import types
import warnings
from collections.abc import Sequence
from typing import TypeVar

ROOT = "langchain_core"

# The roots first: a name they export is the one a user imports.
SEARCHED = ("combinators", "combinators.components", "effects", "effects.projections")
WALKED = ("combinators", "effects")
NOT_WALKED = ("combinators.integrations", "combinators.testing")

_input = TypeVar("_input")
_output = TypeVar("_output")


def _pydantic_version() -> object:
    import pydantic
    from packaging import version

    return version.parse(pydantic.VERSION)


# langchain_core name -> a dotted path in this library (or a value made here).
RENAMES: dict[str, str] = {
    "RunnableConfig": "effects.config.RunConfigDict",
    "OutputParserException": "combinators.components.OutputParserError",
    "RunnableMap": "combinators.RunnableParallel",
    "RunnableSerializable": "combinators.Runnable",
    "SimpleJsonOutputParser": "combinators.components.JsonOutputParser",
    "RunLog": "effects.projections.log_values.RunLog",
    "RunLogPatch": "effects.projections.log_values.RunLogPatch",
}
# langchain_core name -> a value of the standard library or made here.
VALUES: dict[str, object] = {
    "LangChainDeprecationWarning": DeprecationWarning,
    "aclosing": contextlib.aclosing,
    "Input": _input,
    "Output": _output,
    "VERSION": "1.8.3",
    # langchain_core.utils.json's own ``json`` import (tests patch json.loads there)
    "json": json,
}
LAZY_VALUES = {"PYDANTIC_VERSION": _pydantic_version}


class Missing:
    """Base of the placeholders for names with no counterpart here."""

    qualified_name = "?"

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise NotImplementedError(f"{self.qualified_name} has no counterpart in this library")

    def __class_getitem__(cls, item: object) -> type[Missing]:
        return cls


def missing(module: str, name: str) -> type[Missing]:
    """A placeholder class for ``module.name``.

    >>> missing("langchain_core.x", "Y").qualified_name
    'langchain_core.x.Y'
    """
    return type(name, (Missing,), {"qualified_name": f"{module}.{name}", "__module__": module})


_index: dict[str, object] | None = None


def _public_names(module: types.ModuleType) -> dict[str, object]:
    return {n: v for n, v in vars(module).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)}


def _build_index() -> dict[str, object]:
    """Every public name of this library's modules, the searched roots winning."""
    found: dict[str, object] = {}
    for root in WALKED:
        package = importlib.import_module(root)
        for info in pkgutil.walk_packages(package.__path__, prefix=root + "."):
            if info.name.startswith(NOT_WALKED) or "._" in info.name:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    module = importlib.import_module(info.name)
                except Exception:
                    continue
            for name, value in _public_names(module).items():
                found.setdefault(name, value)
    for root in reversed(SEARCHED):
        found.update(_public_names(importlib.import_module(root)))
    return found


def lookup(module: str, name: str) -> object:
    """What ``from <module> import <name>`` gives under the shim."""
    global _index
    if name in LAZY_VALUES:
        return LAZY_VALUES[name]()
    if name in VALUES:
        return VALUES[name]
    if name in RENAMES:
        path, _, attribute = RENAMES[name].rpartition(".")
        return getattr(importlib.import_module(path), attribute)
    if _index is None:
        _index = _build_index()
    if name in _index:
        return _index[name]
    return missing(module, name)


class _ShimModule(types.ModuleType):
    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        value = lookup(self.__name__, name)
        setattr(self, name, value)
        return value


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != ROOT and not fullname.startswith(ROOT + "."):
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = _ShimModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        return None


_finder = _Finder()


def install() -> None:
    """Answer ``langchain_core`` imports from this library (refused if the real one is loaded)."""
    if ROOT in sys.modules and not isinstance(sys.modules[ROOT], _ShimModule):
        raise RuntimeError("the real langchain_core is already imported in this process")
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)


def uninstall() -> None:
    """Remove the shim and every stand-in module it made."""
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in [n for n, m in sys.modules.items() if isinstance(m, _ShimModule)]:
        del sys.modules[name]
