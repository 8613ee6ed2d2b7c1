"""Prompt templates (string and chat), their message parts, prompt values and template formats."""

from combinators.components.prompts.values import ChatPromptValue as ChatPromptValue
from combinators.components.prompts.values import PROMPT_VALUE_TYPES as PROMPT_VALUE_TYPES
from combinators.components.prompts.values import PromptValue as PromptValue
from combinators.components.prompts.values import StringPromptValue as StringPromptValue
from combinators.components.prompts.templates import ChatPromptTemplate as ChatPromptTemplate
from combinators.components.prompts.templates import PromptTemplate as PromptTemplate
from combinators.components.prompts.chat_parts import AIMessagePromptTemplate as AIMessagePromptTemplate
from combinators.components.prompts.chat_parts import BaseMessagePromptTemplate as BaseMessagePromptTemplate
from combinators.components.prompts.chat_parts import ChatMessagePromptTemplate as ChatMessagePromptTemplate
from combinators.components.prompts.chat_parts import HumanMessagePromptTemplate as HumanMessagePromptTemplate
from combinators.components.prompts.chat_parts import MessagesPlaceholder as MessagesPlaceholder
from combinators.components.prompts.chat_parts import SystemMessagePromptTemplate as SystemMessagePromptTemplate

__all__ = [
    "AIMessagePromptTemplate",
    "BaseMessagePromptTemplate",
    "ChatMessagePromptTemplate",
    "ChatPromptTemplate",
    "ChatPromptValue",
    "HumanMessagePromptTemplate",
    "MessagesPlaceholder",
    "PROMPT_VALUE_TYPES",
    "PromptTemplate",
    "PromptValue",
    "StringPromptValue",
    "SystemMessagePromptTemplate",
]
