"""Output parsers: text, and JSON (partial values or patches while streaming)."""

from combinators.components.parsers.text import OutputParserError as OutputParserError
from combinators.components.parsers.text import StrOutputParser as StrOutputParser
from combinators.components.parsers.json_parser import JsonOutputParser as JsonOutputParser

__all__ = [
    "JsonOutputParser",
    "OutputParserError",
    "StrOutputParser",
]
