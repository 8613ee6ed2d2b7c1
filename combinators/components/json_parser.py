"""The import path the README used before the parsers got their room; kept so that code
written against it keeps working. New code imports from ``combinators.components``.

>>> from combinators.components.json_parser import JsonOutputParser
>>> JsonOutputParser().invoke('{"a": 1}')
{'a': 1}
"""

from combinators.components.parsers.json_parser import JsonOutputParser as JsonOutputParser

__all__ = ["JsonOutputParser"]
