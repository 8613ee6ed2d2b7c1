"""Importing on first use, to keep ``import combinators`` cheap.

Two tools. ``lazy_exports`` is a package root's ``__getattr__``: each exported name loads
from its home module when first read. ``deferred`` binds names in an importer's own
namespace to stand-ins that import their module on first use and then rebind every name to
the real object, so from the second use on a read is a plain global lookup (the hot paths
gain no frame, not even an attribute read). The runnable layer defers the runtime this way:
defining and building runnables never loads it; the first run does.

>>> getattr_ = lazy_exports("pkg", {"dumps": "json"})
>>> getattr_("dumps").__name__
'dumps'
>>> getattr_("nope")
Traceback (most recent call last):
...
AttributeError: module 'pkg' has no attribute 'nope'
>>> namespace: dict[str, object] = {}
>>> deferred(namespace, "json", "dumps")
>>> namespace["dumps"]([1])  # the first call imports json and rebinds the name
'[1]'
>>> import json
>>> namespace["dumps"] is json.dumps
True
"""

from __future__ import annotations

import importlib
import sys
import weakref
from collections.abc import Callable, Mapping, MutableMapping
from typing import TypeVar, final

T = TypeVar("T")
V = TypeVar("V")


def lazy_exports(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` that imports ``name`` from ``homes[name]`` on first use.

    The value is then stored in the package's namespace, so later reads are plain module
    attributes (``__getattr__`` runs once per name).
    """

    def attribute(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        root = sys.modules.get(package)
        if root is not None:
            setattr(root, name, value)
        return value

    return attribute


def deferred(namespace: MutableMapping[str, object], module: str, *names: str) -> None:
    """Bind ``names`` of ``module`` in ``namespace`` (an importer's ``globals()``) to
    stand-ins; with no names, bind the module itself under its last dotted part. The first
    call of a stand-in (or attribute read, for a module) imports ``module`` and rebinds all
    of them to the real objects. Declare the real import under ``TYPE_CHECKING`` beside it.

    Only for names a module uses inside function bodies, to call them or read their
    attributes: a stand-in is not the object, so never for bases, decorators, ``isinstance``
    or identity checks.
    ``importlib.import_module`` holds the module's import lock, so threads racing on a
    first use all get the one module.
    """
    loaded = sys.modules.get(module)
    if loaded is not None:  # already imported: bind the real objects now
        _Group(namespace, module, names).load()
        return
    group = _Group(namespace, module, names)
    if names:
        for name in names:
            namespace[name] = _DeferredName(group, name)
    else:
        namespace[module.rpartition(".")[2]] = _DeferredModule(group)


@final
class _Group:
    __slots__ = ("module", "names", "namespace")

    def __init__(self, namespace: MutableMapping[str, object], module: str, names: tuple[str, ...]) -> None:
        self.namespace = namespace
        self.module = module
        self.names = names

    def load(self) -> object:
        real = importlib.import_module(self.module)
        if self.names:
            for name in self.names:
                self.namespace[name] = getattr(real, name)
        else:
            self.namespace[self.module.rpartition(".")[2]] = real
        return real


@final
class _DeferredName:
    __slots__ = ("group", "name")

    def __init__(self, group: _Group, name: str) -> None:
        self.group = group
        self.name = name

    def __call__(self, *args: object, **kwargs: object) -> object:
        real: Callable[..., object] = getattr(self.group.load(), self.name)
        return real(*args, **kwargs)

    def __getattr__(self, attribute: str) -> object:
        # A class's own calls (``RunConfig.coerce(...)``) and a registry's methods.
        return getattr(getattr(self.group.load(), self.name), attribute)

    def __repr__(self) -> str:
        return f"<{self.group.module}.{self.name}, imported on first use>"


@final
class _DeferredModule:
    __slots__ = ("group",)

    def __init__(self, group: _Group) -> None:
        self.group = group

    def __getattr__(self, name: str) -> object:
        return getattr(self.group.load(), name)

    def __repr__(self) -> str:
        return f"<module {self.group.module!r}, imported on first use>"


def remember(cache: dict[int, tuple[weakref.ref[T], V]], value: T, found: V) -> V:
    """``found``, kept in ``cache`` under ``id(value)`` for as long as ``value`` lives:
    what was worked out once about a frozen value (a chain). A value without weak
    references is not kept. Callers read a hit inline (``cache.get(id(value))``, then
    check that its reference still gives ``value``), so a hit costs no call.

    >>> class Chain: ...
    >>> cache: dict[int, tuple[weakref.ref[Chain], int]] = {}
    >>> chain = Chain()
    >>> remember(cache, chain, 3), cache[id(chain)][1]
    (3, 3)
    >>> del chain; cache
    {}
    """
    key = id(value)
    try:
        ref = weakref.ref(value, lambda _: cache.pop(key, None))
    except TypeError:  # no weak references: nothing is kept
        return found
    cache[key] = (ref, found)
    return found


__all__ = ["deferred", "lazy_exports", "remember"]
