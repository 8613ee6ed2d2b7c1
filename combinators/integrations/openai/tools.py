"""The chat-completions tool specs, for the OpenAI integration: they live with the tools
(``combinators.components.tools.specs``), since every chat model's ``bind_tools`` uses them."""

from combinators.components.tools.specs import ToolChoice as ToolChoice
from combinators.components.tools.specs import ToolLike as ToolLike
from combinators.components.tools.specs import ToolSpec as ToolSpec
from combinators.components.tools.specs import function_parameters as function_parameters
from combinators.components.tools.specs import strict_schema as strict_schema
from combinators.components.tools.specs import tool_choice_to_openai as tool_choice_to_openai
from combinators.components.tools.specs import tool_to_openai as tool_to_openai

__all__ = [
    "ToolChoice",
    "ToolLike",
    "ToolSpec",
    "function_parameters",
    "strict_schema",
    "tool_choice_to_openai",
    "tool_to_openai",
]
