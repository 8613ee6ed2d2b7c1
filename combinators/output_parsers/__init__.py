"""Output parsers: text, JSON (partial values or patches while streaming), the base of parsers written as classes, and the partial-JSON reader they use (LangChain's ``langchain_core.output_parsers``).

>>> from combinators.output_parsers import JsonOutputParser
>>> JsonOutputParser().invoke('{"a": 1}')
{'a': 1}
"""

from combinators.components.parsers.base import BaseOutputParser as BaseOutputParser
from combinators.components.parsers.json_parser import JsonOutputParser as JsonOutputParser
from combinators.components.parsers.text import OutputParserError as OutputParserError
from combinators.components.parsers.text import StrOutputParser as StrOutputParser
from combinators.components.partial_json.reader import PartialJsonReader as PartialJsonReader
from combinators.components.partial_json.reader import json_diff as json_diff
from combinators.components.parsers.text import parse_and_check_json_markdown as parse_and_check_json_markdown
from combinators.components.partial_json.reader import parse_json_markdown as parse_json_markdown
from combinators.components.partial_json.reader import parse_partial_json as parse_partial_json

__all__ = [
    "BaseOutputParser",
    "JsonOutputParser",
    "OutputParserError",
    "PartialJsonReader",
    "StrOutputParser",
    "json_diff",
    "parse_and_check_json_markdown",
    "parse_json_markdown",
    "parse_partial_json",
]
