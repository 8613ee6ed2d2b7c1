"""String templates, parsed once when built: f-string, mustache, and (opt-in) jinja2.

Safe by construction. An f-string placeholder is a bare identifier: ``{a.b}``, ``{a[0]}``,
``{}``, ``{0}``, ``{a!r}`` and every format spec (``{a:>10}``) are rejected when the
template is built, and formatting inserts ``str(value)`` once, never formatting again
(the peer allows conversions and specs; we do not). Mustache reads names only from
mappings (and list indexes), never attributes, and never calls values. jinja2 runs in a
sandbox that cannot read attributes either. Error messages name the template, never a
value. The mustache parser and renderer are in ``mustache``.

A template's variables (and a prompt's variables and parts) come as a ``ListTuple``: the
tuple equal to the list of its items (the peer gives lists, and ported code compares with
them). A prompt is a frozen value, so what it hands out cannot be a list that a caller
could change under it; a tuple that also equals the list of its items keeps ported
comparisons (``prompt.input_variables == ["a"]``) true without a copy per read.

>>> names = ListTuple(["a", "b"])
>>> names == ["a", "b"], ["a", "b"] == names, names == ("a", "b"), names != ["b"]
(True, True, True, True)
>>> hash(names) == hash(("a", "b")), names
(True, ('a', 'b'))

>>> Template("Hi {name}, {{literal}}").format({"name": "Ann"})
'Hi Ann, {literal}'
>>> Template("{{#items}}[{{.}}]{{/items}}", "mustache").format({"items": [1, 2]})
'[1][2]'
>>> Template("{a.b}")
Traceback (most recent call last):
ValueError: Invalid variable name 'a.b' in f-string template. invalid placeholder {a.b} in f-string template '{a.b}': a placeholder must be a bare identifier like {name} (no attribute access, indexing, conversion or format spec); write {{ and }} for literal braces
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, TypeVar, final

import attrs

from combinators.components.prompts.mustache import MustacheTemplate, excerpt, parse_mustache
from effects.authoring import checked, is_list_or_tuple, is_mapping
from effects.hooks import install_line

if TYPE_CHECKING:
    from jinja2 import Template as _JinjaTemplate
    from jinja2.sandbox import SandboxedEnvironment


_T_co = TypeVar("_T_co", covariant=True)


@final
class ListTuple(tuple[_T_co, ...]):
    """A tuple that also equals a list of the same items, in order.

    Equality with a plain tuple is a tuple's; the hash is a tuple's (a list is never
    hashed, so equal values still hash alike). Slices and sums are plain tuples.

    >>> ListTuple("ab") == ["a", "b"], ListTuple("ab") == ["b", "a"]
    (True, False)
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            items: list[object] = other  # pyright: ignore[reportUnknownVariableType]
            return super().__eq__(tuple(items))
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return super().__hash__()


TemplateFormat: TypeAlias = Literal["f-string", "mustache", "jinja2"]
TEMPLATE_FORMATS: Final = ("f-string", "mustache", "jinja2")


def missing_variables_error(owner: str, expected: Sequence[str], received: Sequence[str]) -> KeyError:
    """The peer's error for a prompt input that lacks some variables.

    >>> missing_variables_error("PromptTemplate", ["a", "b"], ["a"]).args[0].splitlines()[0]
    "Input to PromptTemplate is missing variables {'b'}.  Expected: ['a', 'b'] Received: ['a']"
    """
    missing = sorted(set(expected) - set(received))
    shown = "{" + ", ".join(repr(name) for name in missing) + "}"
    example = missing[0] if missing else ""
    return KeyError(
        f"Input to {owner} is missing variables {shown}.  Expected: {list(expected)!r} "
        f"Received: {list(received)!r}\n"
        f"Note: if you intended {{{example}}} to be part of the string and not a variable, "
        f"please escape it with double curly braces like: '{{{{{example}}}}}'."
    )


# -- f-string --------------------------------------------------------------------------


@final
@attrs.frozen
class _Placeholder:
    name: str


def _placeholder_text(source: str, start: int) -> str:
    """The placeholder opening at ``start`` as the template wrote it, nested braces and all.

    >>> _placeholder_text("x {a:{b}} y", 2)
    '{a:{b}}'
    """
    depth = 0
    for index in range(start, len(source)):
        if source[index] == "{":
            depth += 1
        elif source[index] == "}":
            depth -= 1
            if depth == 0:
                return source[start : index + 1]
    return source[start:]


def _parse_fstring(source: str) -> tuple[str | _Placeholder, ...]:
    pieces: list[str | _Placeholder] = []
    literal: list[str] = []
    i, n = 0, len(source)
    while i < n:
        char = source[i]
        if char in "{}" and source.startswith(char * 2, i):
            literal.append(char)
            i += 2
        elif char == "}":
            raise ValueError(f"single '}}' in f-string template {excerpt(source)}; write '}}}}' for a literal brace")
        elif char == "{":
            end = source.find("}", i + 1)
            nested = source.find("{", i + 1)
            if end < 0:
                raise ValueError(
                    f"unclosed '{{' in f-string template {excerpt(source)}; write '{{{{' for a literal brace"
                )
            field = source[i + 1 : end]
            if not field.isidentifier() or (0 <= nested < end):
                shown = _placeholder_text(source, i)
                raise ValueError(
                    f"{_peer_wording(shown, 0 <= nested < end)}"
                    f"invalid placeholder {shown} in f-string template {excerpt(source)}: a placeholder "
                    "must be a bare identifier like {name} (no attribute access, indexing, "
                    "conversion or format spec); write {{ and }} for literal braces"
                )
            if literal:
                pieces.append("".join(literal))
                literal = []
            pieces.append(_Placeholder(field))
            i = end + 1
        else:
            nxt = min((p for p in (source.find("{", i), source.find("}", i)) if p >= 0), default=n)
            literal.append(source[i:nxt])
            i = nxt
    if literal:
        pieces.append("".join(literal))
    return tuple(pieces)


@final
@attrs.frozen
class _FString:
    pieces: tuple[str | _Placeholder, ...]

    @functools.cached_property
    def variables(self) -> frozenset[str]:
        return frozenset(p.name for p in self.pieces if isinstance(p, _Placeholder))

    def render(self, values: Mapping[str, object]) -> str:
        # str() only: never format(), never a second formatting pass over the result.
        return "".join(p if isinstance(p, str) else str(values[p.name]) for p in self.pieces)


# -- jinja2 (opt-in, sandboxed) -------------------------------------------------------------


@functools.cache
def _jinja2_environment() -> SandboxedEnvironment:
    try:
        from jinja2 import Undefined
        from jinja2.exceptions import SecurityError
        from jinja2.runtime import LoopContext
        from jinja2.sandbox import SandboxedEnvironment
        from jinja2.utils import Cycler, Joiner, Namespace
    except ImportError:
        raise ImportError(f"the 'jinja2' template format needs the jinja2 package: {install_line('jinja2')}") from None

    jinja_helpers = (LoopContext, Namespace, Cycler, Joiner)

    class MappingOnlySandbox(SandboxedEnvironment):
        """A sandbox where ``a.b`` and ``a['b']`` read mapping items and list indexes only;
        reaching into any other object is a ``SecurityError``, never silently empty text."""

        def getattr(self, obj: object, attribute: str) -> object:
            if isinstance(obj, jinja_helpers):  # loop.index, ns.total: jinja2's own objects
                return super().getattr(obj, attribute)
            return self.getitem(obj, attribute)

        def getitem(self, obj: object, argument: object) -> object:
            if is_mapping(obj):
                if isinstance(argument, str) and argument in obj:
                    return obj[argument]
            elif is_list_or_tuple(obj):
                if isinstance(argument, int) and -len(obj) <= argument < len(obj):
                    return obj[argument]
            elif not isinstance(obj, Undefined):
                raise SecurityError(
                    f"a sandboxed jinja2 template may only read mapping keys and list items, not "
                    f"{argument!r} of a {type(obj).__name__}: pass plain dicts and lists"
                )
            return self.undefined(obj=obj, name=str(argument))

    environment = MappingOnlySandbox(undefined=Undefined, autoescape=False)
    # |attr looks attributes up itself (hasattr), around the sandbox's getattr.
    del environment.filters["attr"]
    return environment


@functools.lru_cache(maxsize=256)
def _compile_jinja2(source: str) -> _JinjaTemplate:
    return _jinja2_environment().from_string(source)


def _jinja2_variables(source: str) -> frozenset[str]:
    environment = _jinja2_environment()  # first: it explains a missing jinja2
    from jinja2 import TemplateSyntaxError, meta, nodes
    from jinja2.exceptions import SecurityError

    try:
        _compile_jinja2(source)
        tree = environment.parse(source)
    except TemplateSyntaxError as error:
        raise ValueError(f"invalid jinja2 template {excerpt(source)}: {error.message}") from None
    for node in tree.find_all(nodes.Getattr):
        if node.attr.startswith("__"):
            raise SecurityError(
                f"jinja2 template {excerpt(source)} reads {node.attr!r}: the sandbox allows no dunder access"
            )
    return frozenset(meta.find_undeclared_variables(tree))


@final
@attrs.frozen
class _Jinja2:
    source: str
    names: frozenset[str]

    @property
    def variables(self) -> frozenset[str]:
        return self.names

    def render(self, values: Mapping[str, object]) -> str:
        return _compile_jinja2(self.source).render(dict(values))


_Parsed: TypeAlias = "_FString | MustacheTemplate | _Jinja2"


def _parse(source: str, template_format: TemplateFormat) -> _Parsed:
    checked(source, str, "a template must be a str")
    if template_format == "f-string":
        return _FString(_parse_fstring(source))
    if template_format == "mustache":
        return parse_mustache(source)
    if template_format == "jinja2":
        return _Jinja2(source, _jinja2_variables(source))
    raise ValueError(f"Unsupported template format: {template_format}; expected one of {TEMPLATE_FORMATS}")


# -- the public value -----------------------------------------------------------------------

PartialValue: TypeAlias = "object | Callable[[], object]"
"""A partial variable: a value, or a zero-argument callable called at each format."""


def to_partials(values: Mapping[str, PartialValue] | None) -> Mapping[str, PartialValue]:
    """A private copy of partial variables (``None`` is none).

    >>> to_partials(None), to_partials({"a": 1})
    ({}, {'a': 1})
    """
    return {} if values is None else dict(values)


def resolve_partials(partials: Mapping[str, PartialValue], values: Mapping[str, object]) -> dict[str, object]:
    """``values`` over the partial ones; a callable partial is called unless overridden.

    >>> resolve_partials({"a": 1, "b": lambda: 2, "c": 3}, {"c": 0})
    {'a': 1, 'b': 2, 'c': 0}
    """
    merged: dict[str, object] = {
        name: value() if callable(value) else value
        for name, value in partials.items()
        if name not in values  # an overridden partial is not even called
    }
    merged.update(values)
    return merged


@final
@attrs.frozen
class Template:
    """A parsed template with its format and partial variables, parsed when built (a bad
    template raises ``ValueError`` naming it).

    >>> t = Template("{greeting}, {name}!", partial_variables={"greeting": "Hi"})
    >>> t.input_variables
    ('name',)
    >>> t.format({"name": "Bo"})
    'Hi, Bo!'
    """

    source: str
    template_format: TemplateFormat = "f-string"
    partial_variables: Mapping[str, PartialValue] = attrs.field(default=None, converter=to_partials)
    _parsed: _Parsed = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        # Parsing is part of building: a bad template fails here, not at format time.
        object.__setattr__(self, "_parsed", _parse(self.source, self.template_format))

    @functools.cached_property
    def variables(self) -> tuple[str, ...]:
        """Every top-level variable the template reads, sorted."""
        return tuple(sorted(self._parsed.variables))

    @functools.cached_property
    def input_variables(self) -> tuple[str, ...]:
        """The variables a caller must supply (not the partial ones), sorted."""
        return ListTuple(sorted(self._parsed.variables - self.partial_variables.keys()))

    def partial(self, **values: PartialValue) -> Template:
        """The same template with more partial variables.

        >>> Template("{a}{b}").partial(b="!").format({"a": "x"})
        'x!'
        """
        return attrs.evolve(self, partial_variables={**self.partial_variables, **values})

    def format(self, values: Mapping[str, object], *, owner: str = "PromptTemplate") -> str:
        """Fill the template; missing variables raise the peer's ``KeyError``.

        Caller values override partial ones; ``owner`` names the template in errors.
        """
        if not isinstance(values, dict):  # the message only when it is needed (a format per call)
            checked(values, Mapping, f"{owner} expects a mapping of variable values")
        missing = [name for name in self.input_variables if name not in values]
        if missing:
            raise missing_variables_error(owner, self.input_variables, list(values))
        return self.fill(values)

    def fill(self, values: Mapping[str, object]) -> str:
        """``format`` for values already checked to hold every input variable (a prompt
        checks once for all its parts).

        >>> Template("{a}{b}", partial_variables={"b": "!"}).fill({"a": "x"})
        'x!'
        """
        if not self.partial_variables:
            return self._parsed.render(values)  # read only: no copy to make
        return self._parsed.render(resolve_partials(self.partial_variables, values))


def _peer_wording(placeholder: str, nested: bool) -> str:
    """The peer's words for a refused placeholder, which our message then explains.

    >>> _peer_wording("{a.b}", False)
    "Invalid variable name 'a.b' in f-string template. "
    >>> _peer_wording("{a:{b}}", True)
    'Invalid format specifier in f-string template. Nested replacement fields are not allowed. '
    """
    if nested:
        return "Invalid format specifier in f-string template. Nested replacement fields are not allowed. "
    name = re.split(r"[:!]", placeholder[1:-1], maxsplit=1)[0]
    if any(c in name for c in ".[]") or name.isdigit():
        return f"Invalid variable name {name!r} in f-string template. "
    return ""
