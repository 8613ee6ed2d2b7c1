"""Tools that answer tool calls with messages (LangChain's ``langchain_core.tools``).

>>> from combinators.tools import tool
>>> @tool
... def add(a: int, b: int) -> int:
...     "Add two numbers."
...     return a + b
>>> add.invoke({"a": 1, "b": 2})
3
"""

from combinators.components.tools.base_tool import BaseTool as BaseTool
from combinators.components.tools.message_tools import StructuredTool as StructuredTool
from combinators.components.tools.message_tools import Tool as Tool
from combinators.components.tools.message_tools import tool as tool

__all__ = [
    "BaseTool",
    "StructuredTool",
    "Tool",
    "tool",
]
