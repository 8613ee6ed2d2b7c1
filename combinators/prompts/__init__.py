"""Prompt templates: string and chat templates and their message parts (LangChain's ``langchain_core.prompts``).

>>> from combinators.prompts import ChatPromptTemplate
>>> ChatPromptTemplate.from_messages([("human", "Hi {name}")]).invoke({"name": "Ada"}).to_string()
'Human: Hi Ada'
"""

from combinators.components.prompts.chat_prompt import ChatPromptTemplate as ChatPromptTemplate
from combinators.components.prompts.string_prompt import PromptTemplate as PromptTemplate
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
    "HumanMessagePromptTemplate",
    "MessagesPlaceholder",
    "PromptTemplate",
    "SystemMessagePromptTemplate",
]
