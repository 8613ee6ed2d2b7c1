"""Message content as a template: text with variables, or a list of content blocks with
variables in them (multipart messages: text, image URLs, any provider block).

A part of a list is a ``str`` or ``{"type": "text", "text": ...}`` (a text block), an
``{"type": "image_url", "image_url": "<url>"}`` or ``{"image_url": {"url": ..., "detail":
...}}`` block (an image URL), or any other dict, whose str values are templates. Every
str is parsed when built, in the message's template format. As in the peer, a jinja2
template refuses other dicts (every str of them would be a jinja2 program), and an image
block with a ``path`` (a local file) is refused when formatted.

>>> content = ContentTemplate.parse(["Describe {thing}", {"type": "image_url", "image_url": "{url}"}])
>>> sorted(content.variables)
['thing', 'url']
>>> content.render({"thing": "a cat", "url": "https://x.test/cat.png"})
({'type': 'text', 'text': 'Describe a cat'}, {'type': 'image_url', 'image_url': {'url': 'https://x.test/cat.png'}})
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TypeAlias, final

import attrs

from combinators.components.prompts.formats import Template, TemplateFormat, missing_variables_error
from effects.authoring import is_dict, is_list, is_list_or_tuple, is_mapping

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
    if is_mapping(value):
        return _parsed_block(value, template_format)
    if is_list_or_tuple(value):
        return [_parsed_tree(v, template_format) for v in value]
    return value


def _parsed_block(block: Mapping[object, object], template_format: TemplateFormat) -> dict[str, object]:
    return {str(k): _parsed_tree(v, template_format) for k, v in block.items()}


def _block(part: object, template_format: TemplateFormat) -> dict[str, object]:
    if isinstance(part, str):
        return _parsed_block({"type": "text", "text": part}, template_format)
    if not is_mapping(part):
        raise TypeError(f"a content part must be a str or a dict (a content block), got {type(part).__name__}")
    keys = set(part)
    if "text" in part and keys <= {"type", "text"} and part.get("type", "text") == "text":
        return _parsed_block({"type": "text", "text": part["text"]}, template_format)
    if "image_url" in part and keys <= {"type", "image_url"}:
        image: object = part["image_url"]
        if isinstance(image, str):
            image = {"url": image}
        if not is_mapping(image):
            raise TypeError(f"an image_url block needs a str or a dict url, got {type(image).__name__}")
        return _parsed_block({"type": "image_url", "image_url": image}, template_format)
    if template_format == "jinja2":
        # A dict block's every string would be a jinja2 program: refused, in the peer's words.
        raise ValueError(JINJA2_DICT)
    return _parsed_block(part, template_format)


JINJA2_DICT = "jinja2 is unsafe and is not supported for templates expressed as dicts. Please use 'f-string' or 'mustache' format."
IMAGE_PATH = (
    "Loading images from 'path' has been removed as of 0.3.15 for security reasons. Please specify images by 'url'."
)


def _no_image_path(block: Mapping[str, object]) -> None:
    # An image block naming a local file is refused when formatted, as the peer does: a
    # prompt's variables must never make it read the machine's files.
    image = block.get("image_url")
    if is_mapping(image) and "path" in image:
        raise ValueError(IMAGE_PATH)


def _variables(tree: object) -> frozenset[str]:
    if isinstance(tree, Template):
        return frozenset(tree.variables)
    if is_dict(tree):
        return frozenset[str]().union(*(_variables(v) for v in tree.values()))
    if is_list(tree):
        return frozenset[str]().union(*(_variables(v) for v in tree))
    return frozenset[str]()


def _fill(tree: object, values: Mapping[str, object]) -> object:
    if isinstance(tree, Template):
        return tree.fill(values)
    if is_dict(tree):
        return {k: _fill(v, values) for k, v in tree.items()}
    if is_list(tree):
        return [_fill(v, values) for v in tree]
    return tree


def content_key(content: object) -> object:
    """A hashable stand-in for written content (lists and dicts frozen), for ``__hash__``.

    >>> content_key(["a", {"text": "b"}])
    ('a', (('text', 'b'),))
    """
    if is_mapping(content):
        return tuple(sorted(((str(k), content_key(v)) for k, v in content.items()), key=repr))
    if is_list_or_tuple(content):
        return tuple(content_key(v) for v in content)
    return content


def to_content(value: ContentLike) -> str | tuple[ContentPartLike, ...]:
    """Written content as a value: a str, or a tuple of parts (dict parts copied).

    >>> to_content(["a", {"type": "text", "text": "{b}"}])
    ('a', {'type': 'text', 'text': '{b}'})
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(dict(part) if isinstance(part, Mapping) else part for part in value)
    raise TypeError(f"a message template is a str or a list of content parts, got {type(value).__name__}")


@final
@attrs.frozen
class ContentTemplate:
    """Parsed content: one text ``Template``, or content blocks with templates inside.

    >>> ContentTemplate.parse("Hi {name}").render({"name": "Bo"})
    'Hi Bo'
    """

    text: Template | None
    blocks: tuple[dict[str, object], ...]

    @staticmethod
    def parse(content: ContentLike, template_format: TemplateFormat = "f-string") -> ContentTemplate:
        """Parse written content; a bad template raises ``ValueError`` when built."""
        if isinstance(content, str):
            return ContentTemplate(Template(content, template_format), ())
        parts = to_content(content)
        return ContentTemplate(None, tuple(_block(part, template_format) for part in parts))

    @functools.cached_property
    def variables(self) -> frozenset[str]:
        """Every variable the content reads."""
        if self.text is not None:
            return frozenset(self.text.variables)
        return frozenset[str]().union(*(_variables(block) for block in self.blocks))

    def render(self, values: Mapping[str, object], *, owner: str = "MessagePromptTemplate") -> Rendered:
        """The content these values make (missing variables raise the peer's ``KeyError``)."""
        missing = sorted(self.variables - values.keys())
        if missing:
            raise missing_variables_error(owner, tuple(sorted(self.variables)), list(values))
        return self.fill(values)

    def fill(self, values: Mapping[str, object]) -> Rendered:
        """``render`` for values already checked to hold every variable."""
        if self.text is not None:
            return self.text.fill(values)
        for block in self.blocks:
            _no_image_path(block)
        return tuple({k: _fill(v, values) for k, v in block.items()} for block in self.blocks)
