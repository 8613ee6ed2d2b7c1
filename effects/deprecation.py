"""Dated deprecations: an old spelling keeps working for one release and says where to go.

Every deprecation carries the day it began and the day after which it may be removed
(as hypothesis's ``note_deprecation`` does), so the warning a user reads is an
instruction with a deadline, and a maintainer can find what is due by date.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     note_deprecation("old.Name moved: import it from new.place", since="2026-12-02", removal="2027-03-01")
>>> print(caught[0].message)
old.Name moved: import it from new.place (deprecated since 2026-12-02; removed after 2027-03-01)
>>> caught[0].category is CombinatorsDeprecationWarning
True

A package root keeps a moved name working through its module ``__getattr__``:

>>> getattr_ = moved_exports("old", {"dumps": Moved("json")})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     getattr_("dumps").__name__
'dumps'
>>> print(caught[0].message)
old.dumps is deprecated: import it from json instead (deprecated since 2026-12-02; removed after 2027-03-01)
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final, final

import attrs

if TYPE_CHECKING:
    import datetime
    import types
    from importlib.abc import Loader as _Loader
else:
    _Loader = object  # importlib.abc costs ~20 ms to import; the protocol is what the import system uses

ROOTS_SINCE: Final = "2026-12-02"
"""The day the public import paths moved to their domain roots."""

ROOTS_REMOVAL: Final = "2027-03-01"
"""After this day (one release later) the old import paths may be removed."""

MOVED_TO_COMBINATORS: Final[Mapping[str, str]] = {
    **dict.fromkeys(("adispatch_custom_event", "dispatch_custom_event"), "effects.authoring"),
    **dict.fromkeys(("ConfigLike", "RunConfig", "RunConfigDict"), "effects.config"),
    **dict.fromkeys(
        ("CombinatorsError", "EmptyStreamError", "InputError", "InputValueError", "StepTimeout"), "effects.errors"
    ),
    **dict.fromkeys(
        (
            "CustomStreamEvent",
            "RunEndEvent",
            "RunErrorEvent",
            "RunStartEvent",
            "RunStreamEvent",
            "StandardStreamEvent",
            "StreamEvent",
        ),
        "effects.event_types",
    ),
    **dict.fromkeys(("AddOp", "CheckOp", "CopyOp", "MoveOp", "PatchOp", "RemoveOp", "ReplaceOp"), "effects.patch_ops"),
    "JsonValue": "effects.projections.jsonable",
    **dict.fromkeys(("RunLog", "RunLogPatch"), "effects.projections.run_log"),
    "RunType": "effects.effect_values",
}
"""The names written in ``effects`` whose public home is ``combinators`` (the users' root),
each with the module it lives in: ``combinators`` loads them from there, and ``effects``,
which exported them before, still answers for them with a warning. Listed once, for both roots."""


class CombinatorsDeprecationWarning(DeprecationWarning):
    """A deprecated spelling was used; the message names the new one and the removal date.

    >>> issubclass(CombinatorsDeprecationWarning, DeprecationWarning)
    True
    """


def _checked_date(value: str, what: str) -> datetime.date:
    # Loaded here (a deprecation warning is rare, importing ``effects`` is not), and read
    # from sys.modules when it is there: ``loads`` looks old names up and must import nothing.
    module = sys.modules.get("datetime") or importlib.import_module("datetime")
    date: type[datetime.date] = module.date
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"note_deprecation: {what}={value!r} must be a date written YYYY-MM-DD") from None


def note_deprecation(message: str, *, since: str, removal: str, stacklevel: int = 1) -> None:
    """Warn that something is deprecated, with the dates it was and will stop being supported.

    ``stacklevel`` counts from the caller of ``note_deprecation`` (1: the caller's line).

    >>> note_deprecation("x", since="yesterday", removal="2027-03-01")
    Traceback (most recent call last):
    ...
    ValueError: note_deprecation: since='yesterday' must be a date written YYYY-MM-DD
    """
    if _checked_date(since, "since") > _checked_date(removal, "removal"):
        raise ValueError(f"note_deprecation: since={since} comes after removal={removal}")
    warnings.warn(
        f"{message} (deprecated since {since}; removed after {removal})",
        CombinatorsDeprecationWarning,
        stacklevel=stacklevel + 1,
    )


@final
@attrs.frozen
class Moved:
    """Where a deprecated name now lives: ``to``, the public module users should import it
    from, and ``source``, the module it is loaded from (``to`` unless that would import
    upward, as ``effects`` naming ``combinators`` would).

    >>> Moved("combinators", source="effects.config").source
    'effects.config'
    >>> Moved("combinators.prompts").source
    'combinators.prompts'
    """

    to: str
    source: str = attrs.field(default=attrs.Factory(lambda self: self.to, takes_self=True))
    since: str = ROOTS_SINCE
    removal: str = ROOTS_REMOVAL
    also: tuple[str, ...] = ()
    """For an old module whose names went to more than one home (``moved_modules``): the
    modules searched after ``source``."""


def _elsewhere(package: str, name: str, fallback: Callable[[str], object] | None) -> object:
    """A name that a ``__getattr__`` below does not warn about: ``fallback``'s, or missing."""
    if fallback is not None:
        return fallback(name)
    raise AttributeError(f"module {package!r} has no attribute {name!r}")


def moved_exports(
    package: str, moved: Mapping[str, Moved], fallback: Callable[[str], object] | None = None
) -> Callable[[str], object]:
    """A module ``__getattr__`` for a package whose ``moved`` names live elsewhere now:
    each use warns (naming the new path and the removal date) and returns the same object.
    Other names go to ``fallback`` (the package's lazy exports), or are missing.

    >>> moved_exports("pkg", {})("nope")
    Traceback (most recent call last):
    ...
    AttributeError: module 'pkg' has no attribute 'nope'
    """

    def attribute(name: str) -> object:
        where = moved.get(name)
        if where is None:
            return _elsewhere(package, name, fallback)
        # stacklevel 2: the line that imported or read the name (attribute() is called by it)
        note_deprecation(
            f"{package}.{name} is deprecated: import it from {where.to} instead",
            since=where.since,
            removal=where.removal,
            stacklevel=2,
        )
        return getattr(importlib.import_module(where.source), name)

    return attribute


def renamed_exports(
    package: str,
    renamed: Mapping[str, str],
    *,
    since: str,
    removal: str,
    fallback: Callable[[str], object] | None = None,
) -> Callable[[str], object]:
    """A module ``__getattr__`` for a module whose ``renamed`` names (old -> new) got a
    clearer spelling in the same module: each use of an old name warns, naming the new one
    and the removal date, and returns the new name's object. Other names go to
    ``fallback`` (a root's moved or lazy names), or are missing.

    >>> import sys, types, warnings
    >>> module = types.ModuleType("pkg"); module.total = sum; sys.modules["pkg"] = module
    >>> old = renamed_exports("pkg", {"add_up": "total"}, since="2026-12-02", removal="2027-03-01")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old("add_up") is sum
    True
    >>> print(caught[0].message)
    pkg.add_up is deprecated: use pkg.total instead (deprecated since 2026-12-02; removed after 2027-03-01)
    >>> old("nope")
    Traceback (most recent call last):
    ...
    AttributeError: module 'pkg' has no attribute 'nope'
    >>> del sys.modules["pkg"]
    """

    def attribute(name: str) -> object:
        new = renamed.get(name)
        if new is None:
            return _elsewhere(package, name, fallback)
        # stacklevel 2: the line that imported or read the old name (attribute() is called by it)
        note_deprecation(
            f"{package}.{name} is deprecated: use {package}.{new} instead", since=since, removal=removal, stacklevel=2
        )
        return getattr(importlib.import_module(package), new)

    return attribute


def _is_submodule(package: str, name: str) -> bool:
    """Whether ``package.name`` is a module on disk (left to the import system), found
    without importing anything."""
    folders = getattr(sys.modules.get(package), "__path__", ())
    return any(os.path.isfile(os.path.join(f, f"{name}.py")) or os.path.isdir(os.path.join(f, name)) for f in folders)


def reexports_moved_to(
    package: str, roots: Sequence[str], *, since: str = ROOTS_SINCE, removal: str = ROOTS_REMOVAL
) -> Callable[[str], object]:
    """A module ``__getattr__`` for a package that used to re-export names which now have
    their home in one of ``roots`` (public packages, each with an ``__all__``): each use of
    such a name warns, naming its home and the removal date, and returns the same object.
    The roots are imported on the first such use; a submodule of ``package`` is left to the
    import system, and other names are missing.

    Such a package (each room of ``combinators.components``) star-imports its roots under
    ``if typing.TYPE_CHECKING:``, so that the checkers still see the old names (an old import
    is a warning at run time, not a type error; the names follow the roots' ``__all__``), sets
    ``__getattr__ = reexports_moved_to(__name__, roots)`` under ``else:``, hidden from the
    checkers so that a misspelled import from it is an error, and exports nothing
    (``__all__ = []``).

    >>> import warnings
    >>> old = reexports_moved_to("effects.projections", ["json"])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old("dumps").__name__
    'dumps'
    >>> print(caught[0].message)
    effects.projections.dumps is deprecated: import it from json instead
    (deprecated since 2026-12-02; removed after 2027-03-01)
    >>> old("sse")
    Traceback (most recent call last):
    ...
    AttributeError: module 'effects.projections' has no attribute 'sse'
    """

    def attribute(name: str) -> object:
        if not name.startswith("_") and not _is_submodule(package, name):
            for root in roots:
                # Imported only once: looking a name up never imports (``loads`` relies on it).
                module = sys.modules.get(root) or importlib.import_module(root)
                if name in getattr(module, "__all__", ()):
                    # stacklevel 2: the line that imported or read the name
                    note_deprecation(
                        f"{package}.{name} is deprecated: import it from {root} instead",
                        since=since,
                        removal=removal,
                        stacklevel=2,
                    )
                    return getattr(module, name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute


@final
class _OldModules(_Loader):
    """The finder and loader of the old module paths ``moved_modules`` registers (on
    ``sys.meta_path`` once, after the path finders: a module on disk always wins)."""

    def __init__(self) -> None:
        self.moved: dict[str, Moved] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None, /
    ) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(fullname, self) if fullname in self.moved else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the default module

    def exec_module(self, module: types.ModuleType) -> None:
        old = module.__name__
        where = self.moved[old]
        # stacklevel 2: the line that imported the old module (the import system's own frames are skipped)
        note_deprecation(
            f"{old} is deprecated: import from {where.to} instead",
            since=where.since,
            removal=where.removal,
            stacklevel=2,
        )
        homes = [importlib.import_module(name) for name in (where.source, *where.also)]

        def attribute(name: str) -> object:
            if not name.startswith("__"):
                for home in homes:
                    # One lookup: a home's own __getattr__ may warn (a renamed name) only once.
                    value = getattr(home, name, _OldModules)
                    if value is not _OldModules:
                        return value
            raise AttributeError(f"module {old!r} has no attribute {name!r}")

        # PEP 562: a module's own __getattr__ answers the names it does not hold
        vars(module).update(
            __getattr__=attribute, __all__=sorted({n for home in homes for n in getattr(home, "__all__", ())})
        )


_OLD_MODULES: Final = _OldModules()


def moved_modules(moved: Mapping[str, Moved]) -> None:
    """Keep each old module path of ``moved`` (full dotted names) importable without a file:
    importing one warns at the importing line, naming ``to`` and the removal date, and its
    names are read from ``source`` (then ``also``). Called by the package the old modules
    were in, so the paths are known before anything imports them.

    >>> import warnings
    >>> moved_modules({"effects.old_json": Moved("json")})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     from effects.old_json import dumps
    >>> dumps.__module__, str(caught[0].message)
    ('json', 'effects.old_json is deprecated: import from json instead (deprecated since 2026-12-02; removed after 2027-03-01)')
    """
    if _OLD_MODULES not in sys.meta_path:
        sys.meta_path.append(_OLD_MODULES)
    _OLD_MODULES.moved.update(moved)


__all__ = [
    "ROOTS_REMOVAL",
    "ROOTS_SINCE",
    "CombinatorsDeprecationWarning",
    "Moved",
    "moved_exports",
    "moved_modules",
    "note_deprecation",
    "reexports_moved_to",
    "renamed_exports",
]
