"""Mustache templates, parsed once: variables, sections, inverted sections, comments and
set-delimiter tags; no partials and no lambdas.

Names are read from mappings (and list indexes) only, never attributes, and values are
never called. Missing, ``None`` and empty values render as ``""``; ``{{x}}`` is
HTML-escaped, ``{{{x}}}`` and ``{{& x}}`` are not. A standalone section or comment tag
takes its whole line with it, as the spec says.

>>> parse_mustache("Hi {{person.name}}{{^admin}} (guest){{/admin}}").render({"person": {"name": "Ann"}})
'Hi Ann (guest)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, TypeAlias, final

import attrs
from effects.authoring import is_list_or_tuple, is_mapping

from effects.authoring import NOTHING


def excerpt(source: str) -> str:
    """How errors show a template: its repr, cut to 80 characters.

    >>> excerpt("{x}")
    "'{x}'"
    """
    return repr(source if len(source) <= 80 else source[:77] + "...")


@final
@attrs.frozen
class _Variable:
    path: tuple[str, ...]  # () is "{{.}}", the current item
    escape: bool


@final
@attrs.frozen
class _Section:
    path: tuple[str, ...]
    inverted: bool
    children: tuple[_MustacheNode, ...]


_MustacheNode: TypeAlias = "str | _Variable | _Section"
_STANDALONE_KINDS: Final = frozenset("#^/!=")
_BLANK: Final = frozenset(" \t")


def _path(name: str, source: str) -> tuple[str, ...]:
    if name == ".":
        return ()
    parts = tuple(name.split("."))
    if not name or any(not part for part in parts):
        raise ValueError(f"invalid mustache name {name!r} in template {excerpt(source)}")
    return parts


def _standalone_span(source: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of the whole line if the tag at [start, end) is alone on it."""
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    line_end = len(source) if line_end < 0 else line_end + 1
    before, after = source[line_start:start], source[end:line_end].rstrip("\r\n")
    if all(c in _BLANK for c in before) and all(c in _BLANK for c in after):
        return line_start, line_end
    return None


def _parse_mustache(source: str) -> tuple[_MustacheNode, ...]:
    opening, closing = "{{", "}}"
    # Each frame: (section name, path, inverted, its children so far).
    stack: list[tuple[str, tuple[str, ...], bool, list[_MustacheNode]]] = [("", (), False, [])]
    emitted = pos = 0  # text before `emitted` is already in the tree; `pos` is where to look
    while True:
        start = source.find(opening, pos)
        if start < 0:
            break
        inner = start + len(opening)
        triple = source.startswith("{", inner)
        end_mark = "}" + closing if triple else closing
        end = source.find(end_mark, inner + (1 if triple else 0))
        if end < 0:
            line = source.count("\n", 0, start) + 1
            raise ValueError(f"unclosed mustache tag at line {line} in template {excerpt(source)}")
        content = source[inner + (1 if triple else 0) : end].strip()
        tag_end = end + len(end_mark)
        kind = "{" if triple else (content[:1] if content[:1] in "#^/!=>&" else "")
        name = content[1:].strip() if kind and not triple else content
        span = _standalone_span(source, start, tag_end) if kind in _STANDALONE_KINDS else None
        text = source[emitted : span[0] if span else start]
        if text:
            stack[-1][3].append(text)
        emitted = pos = span[1] if span else tag_end
        if kind == "!":
            continue
        if kind == ">":
            raise ValueError(f"mustache partials ({{{{> {name}}}}}) are not supported, in template {excerpt(source)}")
        if kind == "=":
            delimiters: list[str] = content[1:-1].split() if content.endswith("=") else []
            if len(delimiters) != 2:
                raise ValueError(f"invalid mustache delimiter tag {{{{{content}}}}} in template {excerpt(source)}")
            opening, closing = delimiters
            continue
        if kind in ("#", "^"):
            stack.append((name, _path(name, source), kind == "^", []))
        elif kind == "/":
            if len(stack) == 1:
                raise ValueError(f"mustache section {name!r} closed but never opened, in template {excerpt(source)}")
            open_name, path, inverted, children = stack.pop()
            if open_name != name:
                raise ValueError(f"mustache section {open_name!r} closed by {name!r}, in template {excerpt(source)}")
            stack[-1][3].append(_Section(path, inverted, tuple(children)))
        else:
            if not name:
                raise ValueError(f"empty mustache tag in template {excerpt(source)}")
            stack[-1][3].append(_Variable(_path(name, source), escape=kind == ""))
    if len(stack) > 1:
        raise ValueError(f"mustache section {stack[-1][0]!r} is never closed, in template {excerpt(source)}")
    if emitted < len(source):
        stack[0][3].append(source[emitted:])
    return tuple(stack[0][3])


def _lookup(path: tuple[str, ...], scopes: Sequence[object]) -> object:
    if not path:
        return scopes[-1]
    for scope in reversed(scopes):
        value = scope
        for part in path:
            # Mappings by key and lists by index only: never attributes, never calls.
            if is_mapping(value):
                value = value.get(part, NOTHING)
            elif is_list_or_tuple(value) and part.isdigit():
                value = value[int(part)] if int(part) < len(value) else NOTHING
            else:
                value = NOTHING
            if value is NOTHING:
                break
        else:
            return value
    return NOTHING


def _is_blank(value: object) -> bool:
    # As the peer: missing, None and empty values render as ""; numbers and bools never do.
    if value is NOTHING or value is None:
        return True
    if isinstance(value, (bool, int, float, complex)):
        return False
    return not value


def _is_falsy(value: object) -> bool:
    return _is_blank(value) or (isinstance(value, (bool, int, float, complex)) and not value)


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def _render_nodes(nodes: tuple[_MustacheNode, ...], scopes: list[object], out: list[str]) -> None:
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, _Variable):
            value = _lookup(node.path, scopes)
            text = "" if _is_blank(value) and node.path else str(value)
            out.append(_html_escape(text) if node.escape else text)
        else:
            value = _lookup(node.path, scopes)
            if callable(value):
                raise TypeError(f"mustache section {'.'.join(node.path)!r} got a callable; lambdas are not supported")
            if node.inverted:
                if _is_falsy(value):
                    _render_nodes(node.children, scopes, out)
            elif is_list_or_tuple(value):
                for item in value:
                    if not _is_falsy(item):  # the peer skips falsy items (0 and None too)
                        _render_nodes(node.children, [*scopes, item], out)
            elif not _is_falsy(value):
                _render_nodes(node.children, [*scopes, value], out)


def _top_names(nodes: tuple[_MustacheNode, ...]) -> frozenset[str]:
    return frozenset(n.path[0] for n in nodes if not isinstance(n, str) and n.path)


@final
@attrs.frozen
class MustacheTemplate:
    """A parsed mustache template: its top-level variables, and how to render it.

    >>> t = parse_mustache("{{#people}}{{name}} {{/people}}{{missing}}!")
    >>> sorted(t.variables), t.render({"people": [{"name": "A"}, {"name": "B"}]})
    (['missing', 'people'], 'A B !')
    """

    nodes: tuple[_MustacheNode, ...]

    @property
    def variables(self) -> frozenset[str]:
        return _top_names(self.nodes)

    def render(self, values: Mapping[str, object]) -> str:
        out: list[str] = []
        _render_nodes(self.nodes, [dict(values)], out)
        return "".join(out)


def parse_mustache(source: str) -> MustacheTemplate:
    """Parse a mustache template; a malformed one raises ``ValueError`` naming it.

    >>> parse_mustache("{{#a}}")
    Traceback (most recent call last):
    ValueError: mustache section 'a' is never closed, in template '{{#a}}'
    """
    return MustacheTemplate(_parse_mustache(source))
