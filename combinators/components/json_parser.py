"""The import path the README used before the parsers got their room (deprecated: import
from ``combinators.output_parsers``; removed after the date the warning names).

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     from combinators.components.json_parser import JsonOutputParser
>>> JsonOutputParser().invoke('{"a": 1}')
{'a': 1}
"""

from combinators.components.parsers.json_parser import JsonOutputParser as JsonOutputParser
from effects.deprecation import deprecated_module as _deprecated_module

_deprecated_module(__name__, "combinators.output_parsers")

__all__ = ["JsonOutputParser"]
