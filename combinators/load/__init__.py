"""Serialization by allowlist: ``dumps`` and ``loads`` with a nesting limit (LangChain's ``langchain_core.load``).

>>> from combinators.load import dumps, loads
>>> from combinators.messages import HumanMessage
>>> loads(dumps(HumanMessage("hi")), allowed=[HumanMessage])
HumanMessage('hi')
"""

from combinators.components.serialization import DataTooDeepError as DataTooDeepError
from combinators.components.serialization import DisallowedTypeError as DisallowedTypeError
from combinators.components.serialization import MalformedDataError as MalformedDataError
from combinators.components.serialization import dumps as dumps
from combinators.components.serialization import loads as loads

__all__ = [
    "DataTooDeepError",
    "DisallowedTypeError",
    "MalformedDataError",
    "dumps",
    "loads",
]
