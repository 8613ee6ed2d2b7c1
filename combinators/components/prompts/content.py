"""Message content as a template: text with variables, or a list of content blocks with
variables in them (multipart messages: text, image URLs, any provider block).

A part of a list is a ``str`` or ``{"type": "text", "text": ...}`` (a text block), an
``{"type": "image_url", "image_url": "<url>"}`` or ``{"image_url": {"url": ..., "detail":
...}}`` block (an image URL), or any other dict, whose str values are templates. Every
str is parsed when built, in the message's template format.

>>> content = ContentTemplate.parse(["Describe {thing}", {"type": "image_url", "image_url": "{url}"}])
>>> sorted(content.variables)
['thing', 'url']
>>> content.render({"thing": "a cat", "url": "https://x.test/cat.png"})
({'type': 'text', 'text': 'Describe a cat'}, {'type': 'image_url', 'image_url': {'url': 'https://x.test/cat.png'}})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias, cast, final

import attrs

from combinators.components.prompts.formats import Template, TemplateFormat

ContentPartLike: TypeAlias = "str | Mapping[str, object]"
"""One part of a multipart template as written: text, or a content block."""

ContentLike: TypeAlias = "str | Sequence[ContentPartLike]"
"""A message template's content as written: text, or a list of parts."""

Rendered: TypeAlias = "str | tuple[Mapping[str, object], ...]"
"""Rendered content: text, or content blocks."""


def _parsed_tree(value: object, template_format: TemplateFormat) -> object:
    """``value`` with every str replaced by its parsed ``Template`` (dicts and lists kept)."""
    if isinstance(value, str):
        return Template(value, template_format)
    if isinstance(value, Mapping):
        items = cast("Mapping[object, object]", value)
        return {str(k): _parsed_tree(v, template_format) for k, v in items.items()}
    if isinstance(value, (list, tuple)):
        return [_parsed_tree(v, template_format) for v in cast("Sequence[object]", value)]
    return value


def _block(part: object, template_format: TemplateFormat) -> object:
    if isinstance(part, str):
        return _parsed_tree({"type": "text", "text": part}, template_format)
    if not isinstance(part, Mapping):
        raise TypeError(f"a content part must be a str or a dict (a content block), got {type(part).__name__}")
    block = cast("Mapping[str, object]", part)
    keys = set(block)
    if "text" in block and keys <= {"type", "text"} and block.get("type", "text") == "text":
        return _parsed_tree({"type": "text", "text": block["text"]}, template_format)
    if "image_url" in block and keys <= {"type", "image_url"}:
        image: object = block["image_url"]
        if isinstance(image, str):
            image = {"url": image}
        if not isinstance(image, Mapping):
            raise TypeError(f"an image_url block needs a str or a dict url, got {type(image).__name__}")
        return _parsed_tree({"type": "image_url", "image_url": cast("Mapping[str, object]", image)}, template_format)
    return _parsed_tree(block, template_format)


def _variables(tree: object) -> frozenset[str]:
    if isinstance(tree, Template):
        return frozenset(tree.variables)
    if isinstance(tree, dict):
        return frozenset[str]().union(*(_variables(v) for v in cast("dict[str, object]", tree).values()))
    if isinstance(tree, list):
        return frozenset[str]().union(*(_variables(v) for v in cast("list[object]", tree)))
    return frozenset[str]()


def _render(tree: object, values: Mapping[str, object], owner: str) -> object:
    if isinstance(tree, Template):
        return tree.format(values, owner=owner)
    if isinstance(tree, dict):
        return {k: _render(v, values, owner) for k, v in cast("dict[str, object]", tree).items()}
    if isinstance(tree, list):
        return [_render(v, values, owner) for v in cast("list[object]", tree)]
    return tree


def content_key(content: object) -> object:
    """A hashable stand-in for written content (lists and dicts frozen), for ``__hash__``.

    >>> content_key(["a", {"text": "b"}])
    ('a', (('text', 'b'),))
    """
    if isinstance(content, Mapping):
        items = cast("Mapping[object, object]", content).items()
        return tuple(sorted(((str(k), content_key(v)) for k, v in items), key=repr))
    if isinstance(content, (list, tuple)):
        return tuple(content_key(v) for v in cast("Sequence[object]", content))
    return content


def to_content(value: ContentLike) -> str | tuple[ContentPartLike, ...]:
    """Written content as a value: a str, or a tuple of parts (dict parts copied).

    >>> to_content(["a", {"type": "text", "text": "{b}"}])
    ('a', {'type': 'text', 'text': '{b}'})
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        parts = cast("Sequence[object]", value)
        return tuple(dict(cast("Mapping[str, object]", p)) if isinstance(p, Mapping) else cast(str, p) for p in parts)
    raise TypeError(f"a message template is a str or a list of content parts, got {type(value).__name__}")


@final
@attrs.frozen
class ContentTemplate:
    """Parsed content: one text ``Template``, or content blocks with templates inside.

    >>> ContentTemplate.parse("Hi {name}").render({"name": "Bo"})
    'Hi Bo'
    """

    text: Template | None
    blocks: tuple[object, ...]

    @staticmethod
    def parse(content: ContentLike, template_format: TemplateFormat = "f-string") -> ContentTemplate:
        """Parse written content; a bad template raises ``ValueError`` when built."""
        if isinstance(content, str):
            return ContentTemplate(Template(content, template_format), ())
        parts = to_content(content)
        return ContentTemplate(None, tuple(_block(part, template_format) for part in parts))

    @property
    def variables(self) -> frozenset[str]:
        """Every variable the content reads."""
        if self.text is not None:
            return frozenset(self.text.variables)
        return frozenset[str]().union(*(_variables(block) for block in self.blocks))

    def render(self, values: Mapping[str, object], *, owner: str = "MessagePromptTemplate") -> Rendered:
        """The content these values make (missing variables raise the peer's ``KeyError``)."""
        if self.text is not None:
            return self.text.format(values, owner=owner)
        return tuple(cast("Mapping[str, object]", _render(block, values, owner)) for block in self.blocks)
