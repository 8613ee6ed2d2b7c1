"""Partial JSON: the value of JSON text that is still arriving (a reader over an incremental scanner)."""

from combinators.components.partial_json.reader import PartialJsonReader as PartialJsonReader
from combinators.components.partial_json.reader import json_diff as json_diff
from combinators.components.partial_json.reader import parse_json_markdown as parse_json_markdown
from combinators.components.partial_json.reader import parse_partial_json as parse_partial_json

__all__ = [
    "PartialJsonReader",
    "json_diff",
    "parse_json_markdown",
    "parse_partial_json",
]
