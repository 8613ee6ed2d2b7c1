"""Output parsers: text, JSON (partial values or patches while streaming), and the base
of parsers written as classes."""

from combinators.components.parsers.base import BaseOutputParser as BaseOutputParser
from combinators.components.parsers.markdown_json import parse_and_check_json_markdown as parse_and_check_json_markdown

from combinators.components.parsers.text import OutputParserError as OutputParserError
from combinators.components.parsers.text import StrOutputParser as StrOutputParser
from combinators.components.parsers.json_parser import JsonOutputParser as JsonOutputParser

__all__ = [
    "BaseOutputParser",
    "JsonOutputParser",
    "OutputParserError",
    "StrOutputParser",
    "parse_and_check_json_markdown",
]
