"""Prompt templates, runnables of run type ``prompt``: ``PromptTemplate`` formats text
into a ``StringPromptValue``, ``ChatPromptTemplate`` formats messages into a
``ChatPromptValue``.

Templates are parsed once, when built (``formats.Template``: f-string, mustache or the
sandboxed, opt-in jinja2), so a bad or unsafe template fails there, never at run time.
A prompt takes its whole input: a mapping of variable values, or, for a prompt with
exactly one input variable, the bare value. It ignores call keyword arguments.
``PromptTemplate`` is in ``string_prompt``, ``ChatPromptTemplate`` in ``chat_prompt``,
the parts of a chat prompt in ``chat_parts``; all are importable from here.

>>> prompt = PromptTemplate.from_template("Tell me a joke about {topic}")
>>> prompt.invoke("dogs").text
'Tell me a joke about dogs'
>>> ChatPromptTemplate.from_messages([("system", "Be {style}."), ("human", "{q}")]).format(style="brief", q="Hi")
'System: Be brief.\\nHuman: Hi'
"""

from combinators.components.prompts.chat_parts import AIMessagePromptTemplate as AIMessagePromptTemplate
from combinators.components.prompts.chat_parts import BaseMessagePromptTemplate as BaseMessagePromptTemplate
from combinators.components.prompts.chat_parts import ChatMessagePromptTemplate as ChatMessagePromptTemplate
from combinators.components.prompts.chat_parts import HumanMessagePromptTemplate as HumanMessagePromptTemplate
from combinators.components.prompts.chat_parts import MessagesPlaceholder as MessagesPlaceholder
from combinators.components.prompts.chat_parts import SystemMessagePromptTemplate as SystemMessagePromptTemplate
from combinators.components.prompts.chat_prompt import ChatPromptTemplate as ChatPromptTemplate
from combinators.components.prompts.inputs import PromptInput as PromptInput
from combinators.components.prompts.inputs import prompt_values as prompt_values
from combinators.components.prompts.message_likes import ChatPromptPart as ChatPromptPart
from combinators.components.prompts.message_likes import MessageLike as MessageLike
from combinators.components.prompts.string_prompt import PromptTemplate as PromptTemplate

__all__ = [
    "AIMessagePromptTemplate",
    "BaseMessagePromptTemplate",
    "ChatMessagePromptTemplate",
    "ChatPromptPart",
    "ChatPromptTemplate",
    "HumanMessagePromptTemplate",
    "MessageLike",
    "MessagesPlaceholder",
    "PromptInput",
    "PromptTemplate",
    "SystemMessagePromptTemplate",
    "prompt_values",
]
