"""``parse_and_check_json_markdown``: a JSON object from a reply (fenced or not) that must
hold some keys, as the peer's structured parsers check it.

>>> parse_and_check_json_markdown('```json\\n{"answer": 4, "why": "2+2"}\\n```', ["answer"])
{'answer': 4, 'why': '2+2'}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from combinators.components.parsers.text import OutputParserError
from combinators.components.partial_json.reader import parse_json_markdown


def parse_and_check_json_markdown(text: str, expected_keys: Sequence[str]) -> dict[str, Any]:
    """The JSON object in ``text``; not JSON, not an object or a key missing raises
    ``OutputParserError`` (the peer's ``OutputParserException``) carrying the text.

    >>> parse_and_check_json_markdown('{"a": 1}', ["a", "b"])
    Traceback (most recent call last):
    ...
    combinators.components.parsers.text.OutputParserError: Got invalid return object. Expected key `b` to be present, but got {'a': 1}
    """
    try:
        value = parse_json_markdown(text)
    except json.JSONDecodeError as error:
        raise OutputParserError(f"Got invalid JSON object. Error: {error}", text) from error
    if not isinstance(value, dict):
        raise OutputParserError(f"Expected JSON object (dict), but got: {type(value).__name__}. ", text)
    found = cast("dict[str, Any]", value)
    for key in expected_keys:
        if key not in found:
            raise OutputParserError(
                f"Got invalid return object. Expected key `{key}` to be present, but got {found}", text
            )
    return found
