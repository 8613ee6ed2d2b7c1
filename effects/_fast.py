"""Values built by writing their slots directly: every such speed-up, and its checks.

The hot paths (each observed run's id, ``RunInfo`` and start/end effects, each streamed
chunk's effect, each streamed message given its run's id) build frozen values without
their constructors: a frozen attrs class's generated ``__init__`` sets each field
through ``object.__setattr__`` and ``UUID(int=...)`` checks its argument in Python code,
while writing the slot descriptors directly costs a third less. That is only sound while
the class has exactly the fields expected and nothing runs on assignment (no converters,
no validators), so each helper here checks that once, when its caller's module is
imported, and fails the import with the class's name otherwise. Nothing else in the
library writes slots behind a constructor's back; ``tests/unit/effects/test_fast.py``
checks every helper against the plain constructors (a hypothesis property).

>>> from uuid import UUID
>>> uuid_from_int(7) == UUID(int=7)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol, TypeVar
from uuid import UUID, SafeUUID

import attrs

T = TypeVar("T")

if TYPE_CHECKING:

    class _Slot(Protocol):
        # A slot's member descriptor, as ``kind.__dict__[name]`` holds it.
        def __get__(self, instance: object, owner: type | None = None, /) -> object: ...

        def __set__(self, instance: object, value: object, /) -> None: ...


Setter = Callable[[object, object], None]
"""A slot's ``__set__``: ``setter(instance, value)``, no conversion, no validation."""

NEW: Final = object.__new__
"""``object.__new__``: an instance with its slots unset (fill every one before use)."""


def _slot(kind: type, name: str, caller: str) -> _Slot:
    # The descriptor of the slot ``name`` on ``kind`` or a base (attrs puts each field's
    # slot on the class that declares it).
    for cls in kind.__mro__:
        if name in cls.__dict__ and name in getattr(cls, "__slots__", ()):
            slot: _Slot = cls.__dict__[name]
            return slot
    raise ImportError(f"{kind.__name__}.{name} is not a slot: update {caller}")


def _check_plain(kind: type, fields: tuple[attrs.Attribute[object], ...], caller: str) -> None:
    # A value written straight into a slot skips what the constructor would run on it.
    if any(f.converter is not None or f.validator is not None for f in fields):  # pyright: ignore[reportUnknownMemberType]  # attrs types a converter generically
        raise ImportError(f"{kind.__name__} converts or validates a field now: update {caller}")


def _plain_fields(kind: type, caller: str) -> tuple[str, ...]:
    fields = tuple(attrs.fields(kind))
    _check_plain(kind, fields, caller)
    return tuple(f.name for f in fields)


def slot_setters(kind: type, names: tuple[str, ...], caller: str) -> tuple[Setter, ...]:
    """The setters of ``kind``'s slots, in field order, once its fields are checked.

    ``names`` are the fields the caller fills, in order; an import fails if they are
    not exactly ``kind``'s fields or if any converts or validates.

    >>> @attrs.frozen
    ... class Pair:
    ...     left: int
    ...     right: int
    >>> set_left, set_right = slot_setters(Pair, ("left", "right"), "the doctest")
    >>> pair = NEW(Pair); set_left(pair, 1); set_right(pair, 2); pair == Pair(1, 2)
    True
    >>> slot_setters(Pair, ("left",), "the doctest")
    Traceback (most recent call last):
    ImportError: Pair's fields are ('left', 'right'), not ('left',): update the doctest
    """
    actual = _plain_fields(kind, caller)
    if actual != names:
        raise ImportError(f"{kind.__name__}'s fields are {actual}, not {names}: update {caller}")
    return tuple(_slot(kind, name, caller).__set__ for name in names)


def field_setter(kind: type, name: str, caller: str) -> Setter:
    """The setter of one field's slot, once ``kind``'s fields are checked.

    >>> @attrs.frozen
    ... class Tag:
    ...     name: str
    >>> tag = Tag("a"); field_setter(Tag, "name", "the doctest")(tag, "b"); tag
    Tag(name='b')
    """
    field = attrs.fields_dict(kind).get(name)
    if field is None:
        raise ImportError(f"{kind.__name__} has no field {name!r}: update {caller}")
    _check_plain(kind, (field,), caller)
    setter: Setter = _slot(kind, name, caller).__set__
    return setter


_COPIED: dict[type, tuple[tuple[Callable[[object], object], Setter], ...]] = {}


def allow_slot_copy(kind: type, caller: str) -> None:
    """Let ``slot_copy`` copy instances of ``kind`` (exactly that class).

    Every field is copied as it is: an instance's values were converted and validated
    when it was built, so ``kind`` may have converters and validators; each field must
    be a slot.

    >>> @attrs.define(frozen=True, slots=False)
    ... class Loose:
    ...     text: str
    >>> allow_slot_copy(Loose, "the doctest")
    Traceback (most recent call last):
    ImportError: Loose.text is not a slot: update the doctest
    """
    _COPIED[kind] = tuple(
        (slot.__get__, slot.__set__) for slot in (_slot(kind, f.name, caller) for f in attrs.fields(kind))
    )


def slot_copy(value: T) -> T:
    """A copy of ``value`` made slot by slot (its class passed to ``allow_slot_copy``).

    Set the fields that differ on the copy (``field_setter``) before anyone sees it.

    >>> @attrs.frozen
    ... class Note:
    ...     text: str
    ...     id: str | None = None
    >>> allow_slot_copy(Note, "the doctest")
    >>> note = Note("hi"); slot_copy(note) == note and slot_copy(note) is not note
    True
    """
    kind = type(value)
    fresh = NEW(kind)
    for read, write in _COPIED[kind]:
        write(fresh, read(value))
    return fresh


def attrs_built(kind: type[T], *values: object, **named: object) -> T:
    """An instance of ``kind`` filled by attrs' generated initialiser, its hand-written
    ``__init__`` (overloads for the checkers, normalisation) skipped: for values already
    normalised, as when ``|`` joins two sequences. Converters and validators still run.

    >>> @attrs.frozen(init=False)
    ... class Span:
    ...     start: int
    ...     end: int
    ...     def __init__(self, text: str) -> None:
    ...         self.__attrs_init__(*map(int, text.split("-")))
    >>> attrs_built(Span, 2, 5) == Span("2-5")
    True
    """
    fresh: T = NEW(kind)
    initialise: Callable[..., None] = getattr(fresh, "__attrs_init__")
    initialise(*values, **named)
    return fresh


# UUID(int=...) checks its argument in Python code; an id whose bits are known to be in
# range needs none, so its two slots are set directly.
if UUID.__slots__ != ("int", "is_safe", "__weakref__"):
    raise ImportError("uuid.UUID's slots changed: update effects._fast.uuid_from_int")
_SET_INT: Final[Setter] = UUID.__dict__["int"].__set__
_SET_SAFE: Final[Setter] = UUID.__dict__["is_safe"].__set__
_UNKNOWN: Final = SafeUUID.unknown  # an enum member: read once, not per id


def uuid_from_int(bits: int) -> UUID:
    """``UUID(int=bits)`` without its checks: ``bits`` must be in ``[0, 2**128)``.

    >>> uuid_from_int((7 << 76) | (2 << 62)).version  # the version and RFC 4122 variant bits
    7
    """
    made: UUID = NEW(UUID)
    _SET_INT(made, bits)
    _SET_SAFE(made, _UNKNOWN)
    return made


__all__ = [
    "NEW",
    "Setter",
    "allow_slot_copy",
    "attrs_built",
    "field_setter",
    "slot_copy",
    "slot_setters",
    "uuid_from_int",
]
