"""Tools that answer tool calls with messages: ``@tool``, ``Tool``, ``StructuredTool``, ``BaseTool``."""

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
