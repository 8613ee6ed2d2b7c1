"""What a prompt template produces (LangChain's ``langchain_core.prompt_values``).

>>> from combinators.prompt_values import StringPromptValue
>>> StringPromptValue(text="hi").to_messages()[0].content
'hi'
"""

from combinators.components.prompts.prompt_values import ChatPromptValue as ChatPromptValue
from combinators.components.prompts.prompt_values import PROMPT_VALUE_TYPES as PROMPT_VALUE_TYPES
from combinators.components.prompts.prompt_values import PromptValue as PromptValue
from combinators.components.prompts.prompt_values import StringPromptValue as StringPromptValue

__all__ = [
    "ChatPromptValue",
    "PROMPT_VALUE_TYPES",
    "PromptValue",
    "StringPromptValue",
]
