"""Chat messages as frozen values, and the ``+`` of streamed chunks (LangChain's ``langchain_core.messages``).

>>> from combinators.messages import AIMessageChunk
>>> (AIMessageChunk(content="Hel") + AIMessageChunk(content="lo")).content
'Hello'
"""

from combinators.components.messages.message_classes import AIMessage as AIMessage
from combinators.components.messages.message_classes import AIMessageChunk as AIMessageChunk
from combinators.components.messages.message_classes import BaseMessage as BaseMessage
from combinators.components.messages.message_classes import ChatMessage as ChatMessage
from combinators.components.messages.message_classes import FunctionMessage as FunctionMessage
from combinators.components.messages.message_classes import HumanMessage as HumanMessage
from combinators.components.messages.message_classes import InvalidToolCall as InvalidToolCall
from combinators.components.messages.message_classes import MESSAGE_TYPES as MESSAGE_TYPES
from combinators.components.messages.message_classes import Message as Message
from combinators.components.models.chat_model import MessageLikeRepresentation as MessageLikeRepresentation
from combinators.components.messages.message_classes import SystemMessage as SystemMessage
from combinators.components.messages.message_classes import ToolCall as ToolCall
from combinators.components.messages.message_classes import ToolCallChunk as ToolCallChunk
from combinators.components.messages.message_classes import ToolMessage as ToolMessage
from combinators.components.messages.message_classes import UsageMetadata as UsageMetadata
from combinators.components.messages.message_classes import coerce_to_message as coerce_to_message
from combinators.components.messages.message_classes import coerce_to_messages as coerce_to_messages
from combinators.components.messages.message_classes import get_buffer_string as get_buffer_string
from combinators.components.messages.message_classes import message_to_dict as message_to_dict

__all__ = [
    "AIMessage",
    "AIMessageChunk",
    "BaseMessage",
    "ChatMessage",
    "FunctionMessage",
    "HumanMessage",
    "InvalidToolCall",
    "MESSAGE_TYPES",
    "Message",
    "MessageLikeRepresentation",
    "SystemMessage",
    "ToolCall",
    "ToolCallChunk",
    "ToolMessage",
    "UsageMetadata",
    "coerce_to_message",
    "coerce_to_messages",
    "get_buffer_string",
    "message_to_dict",
]
