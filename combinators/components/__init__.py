"""Domain runnables built on the public core: messages, prompts, models, parsers,
tools, documents and retrievers.

>>> from combinators.components import GenericFakeChatModel, Script
>>> GenericFakeChatModel(Script(["hi there"])).invoke("hello").text
'hi there'
"""

from effects.lazy import lazy_exports as _lazy_exports
from typing import TYPE_CHECKING as _TYPE_CHECKING


from combinators.components.retrieval.documents import BaseRetriever as BaseRetriever
from combinators.components.retrieval.documents import Document as Document
from combinators.components.retrieval.documents import format_documents_as_string as format_documents_as_string
from combinators.components.retrieval.documents import load_text_documents as load_text_documents
from combinators.components.retrieval.bm25 import Bm25Index as Bm25Index
from combinators.components.retrieval.bm25 import Bm25Retriever as Bm25Retriever
from combinators.components.retrieval.bm25 import ENGLISH_STOPWORDS as ENGLISH_STOPWORDS
from combinators.components.retrieval.bm25 import tokenize as tokenize
from combinators.components.retrieval.embeddings import Embeddings as Embeddings
from combinators.components.retrieval.embeddings import HashedNgramEmbeddings as HashedNgramEmbeddings
from combinators.components.retrieval.embeddings import SentenceEmbeddings as SentenceEmbeddings
from combinators.components.retrieval.vectorstore import DocumentFilter as DocumentFilter
from combinators.components.retrieval.vectorstore import InMemoryVectorStore as InMemoryVectorStore
from combinators.components.retrieval.vectorstore import VectorStoreRetriever as VectorStoreRetriever
from combinators.components.retrieval.vectorstore import cosine_similarity as cosine_similarity
from combinators.components.messages.values import AIMessage as AIMessage
from combinators.components.messages.values import AIMessageChunk as AIMessageChunk
from combinators.components.messages.values import BaseMessage as BaseMessage
from combinators.components.messages.values import ChatMessage as ChatMessage
from combinators.components.messages.values import HumanMessage as HumanMessage
from combinators.components.messages.values import InvalidToolCall as InvalidToolCall
from combinators.components.messages.values import MESSAGE_TYPES as MESSAGE_TYPES
from combinators.components.messages.values import Message as Message
from combinators.components.messages.values import SystemMessage as SystemMessage
from combinators.components.messages.values import ToolCall as ToolCall
from combinators.components.messages.values import ToolCallChunk as ToolCallChunk
from combinators.components.messages.values import ToolMessage as ToolMessage
from combinators.components.messages.values import UsageMetadata as UsageMetadata
from combinators.components.messages.values import coerce_to_message as coerce_to_message
from combinators.components.messages.values import coerce_to_messages as coerce_to_messages
from combinators.components.messages.values import get_buffer_string as get_buffer_string
from combinators.components.messages.values import message_to_dict as message_to_dict
from combinators.components.prompts.values import ChatPromptValue as ChatPromptValue
from combinators.components.prompts.values import PROMPT_VALUE_TYPES as PROMPT_VALUE_TYPES
from combinators.components.prompts.values import PromptValue as PromptValue
from combinators.components.prompts.values import StringPromptValue as StringPromptValue
from combinators.components.partial_json.reader import json_diff as json_diff
from combinators.components.partial_json.reader import parse_json_markdown as parse_json_markdown
from combinators.components.partial_json.reader import parse_partial_json as parse_partial_json
from combinators.components.secrets import MissingSecretError as MissingSecretError
from combinators.components.secrets import Secret as Secret
from combinators.components.serialization import DataTooDeepError as DataTooDeepError
from combinators.components.serialization import DisallowedTypeError as DisallowedTypeError
from combinators.components.serialization import MalformedDataError as MalformedDataError
from combinators.components.serialization import dumps as dumps
from combinators.components.serialization import loads as loads
from combinators.components.models.chat_model import BaseChatModel as BaseChatModel
from combinators.components.models.chat_model import ChatOutput as ChatOutput
from combinators.components.models.chat_model import LanguageModelInput as LanguageModelInput
from combinators.components.models.chat_model import MessageLikeRepresentation as MessageLikeRepresentation
from combinators.components.models.chat_model import SimpleChatModel as SimpleChatModel
from combinators.components.models.llm import BaseLLM as BaseLLM
from combinators.components.models.llm import LLM as LLM
from combinators.components.models.extractive import ExtractiveChatModel as ExtractiveChatModel
from combinators.components.models.fakes import FakeListChatModel as FakeListChatModel
from combinators.components.models.fakes import FakeListLLM as FakeListLLM
from combinators.components.models.fakes import GenericFakeChatModel as GenericFakeChatModel
from combinators.components.models.fakes import Script as Script
from combinators.components.memory import ChatHistory as ChatHistory
from combinators.components.memory import ChatHistoryError as ChatHistoryError
from combinators.components.memory import BaseChatMessageHistory as BaseChatMessageHistory
from combinators.components.memory import InMemoryChatHistory as InMemoryChatHistory
from combinators.components.memory import InMemoryHistoryStore as InMemoryHistoryStore
from combinators.components.memory import RunnableWithMessageHistory as RunnableWithMessageHistory
from combinators.components.memory import SQLiteChatHistory as SQLiteChatHistory
from combinators.components.memory import SQLiteHistoryStore as SQLiteHistoryStore
from combinators.components.models.scripted import ScriptedCall as ScriptedCall
from combinators.components.models.scripted import ScriptedChatModel as ScriptedChatModel
from combinators.components.models.scripted import ScriptExhaustedError as ScriptExhaustedError
from combinators.components.models.tool_picking import ToolPickingChatModel as ToolPickingChatModel
from combinators.components.models.outputs import ChatGeneration as ChatGeneration
from combinators.components.models.outputs import Generation as Generation
from combinators.components.parsers.base import BaseOutputParser as BaseOutputParser
from combinators.components.parsers.markdown_json import parse_and_check_json_markdown as parse_and_check_json_markdown
from combinators.components.models.fake_messages import FakeMessagesListChatModel as FakeMessagesListChatModel
from combinators.components.models.fake_messages import ParrotFakeChatModel as ParrotFakeChatModel
from combinators.components.models.fake_streaming import FakeListLLMError as FakeListLLMError
from combinators.components.models.fake_streaming import FakeStreamingListLLM as FakeStreamingListLLM

from combinators.components.tools.base_tool import BaseTool as BaseTool
from combinators.components.tools.message_tools import StructuredTool as StructuredTool
from combinators.components.tools.message_tools import Tool as Tool
from combinators.components.tools.message_tools import tool as tool

from combinators.components.models.errors import ModelAPIError as ModelAPIError
from combinators.components.models.errors import TransientModelError as TransientModelError
from combinators.components.models.errors import ModelAuthenticationError as ModelAuthenticationError
from combinators.components.models.errors import ModelNotFoundError as ModelNotFoundError
from combinators.components.models.errors import ModelBadRequestError as ModelBadRequestError
from combinators.components.models.errors import ModelResponseError as ModelResponseError
from combinators.components.models.errors import ModelRateLimitError as ModelRateLimitError
from combinators.components.models.errors import ModelServerError as ModelServerError
from combinators.components.models.errors import ModelConnectionError as ModelConnectionError
from combinators.components.models.errors import ModelTimeoutError as ModelTimeoutError
from combinators.components.models.errors import ModelStreamError as ModelStreamError

from combinators.components.prompts.templates import ChatPromptTemplate as ChatPromptTemplate
from combinators.components.prompts.templates import PromptTemplate as PromptTemplate
from combinators.components.prompts.chat_parts import AIMessagePromptTemplate as AIMessagePromptTemplate
from combinators.components.prompts.chat_parts import BaseMessagePromptTemplate as BaseMessagePromptTemplate
from combinators.components.prompts.chat_parts import ChatMessagePromptTemplate as ChatMessagePromptTemplate
from combinators.components.prompts.chat_parts import HumanMessagePromptTemplate as HumanMessagePromptTemplate
from combinators.components.prompts.chat_parts import MessagesPlaceholder as MessagesPlaceholder
from combinators.components.prompts.chat_parts import SystemMessagePromptTemplate as SystemMessagePromptTemplate
from combinators.components.parsers.text import OutputParserError as OutputParserError
from combinators.components.parsers.text import StrOutputParser as StrOutputParser
from combinators.components.parsers.json_parser import JsonOutputParser as JsonOutputParser
from combinators.components.partial_json.reader import PartialJsonReader as PartialJsonReader


# Provider integrations are loaded on first use: importing the domain components never
# imports an integration (each lives behind its extra in combinators.integrations).
if _TYPE_CHECKING:
    from combinators.integrations.aws.kendra import AmazonKendraRetriever as AmazonKendraRetriever
    from combinators.integrations.aws.kendra import KendraAccessDenied as KendraAccessDenied
    from combinators.integrations.aws.kendra import KendraConnectionError as KendraConnectionError
    from combinators.integrations.aws.kendra import KendraError as KendraError
    from combinators.integrations.aws.kendra import KendraInvalidRequest as KendraInvalidRequest
    from combinators.integrations.aws.kendra import KendraResourceNotFound as KendraResourceNotFound
    from combinators.integrations.aws.kendra import KendraThrottled as KendraThrottled
    from combinators.integrations.aws.kendra import KendraUnavailable as KendraUnavailable
    from combinators.integrations.openai.chat import ChatOpenAI as ChatOpenAI
    from combinators.integrations.openai.embeddings import OpenAIEmbeddings as OpenAIEmbeddings
    from combinators.integrations.openai.structured import StructuredOutputError as StructuredOutputError
    from combinators.integrations.openai.structured import StructuredOutputParser as StructuredOutputParser

_INTEGRATIONS: dict[str, str] = {
    "AmazonKendraRetriever": "combinators.integrations.aws.kendra",
    "KendraAccessDenied": "combinators.integrations.aws.kendra",
    "KendraConnectionError": "combinators.integrations.aws.kendra",
    "KendraError": "combinators.integrations.aws.kendra",
    "KendraInvalidRequest": "combinators.integrations.aws.kendra",
    "KendraResourceNotFound": "combinators.integrations.aws.kendra",
    "KendraThrottled": "combinators.integrations.aws.kendra",
    "KendraUnavailable": "combinators.integrations.aws.kendra",
    "ChatOpenAI": "combinators.integrations.openai.chat",
    "OpenAIEmbeddings": "combinators.integrations.openai.embeddings",
    "StructuredOutputError": "combinators.integrations.openai.structured",
    "StructuredOutputParser": "combinators.integrations.openai.structured",
}


__getattr__ = _lazy_exports(__name__, _INTEGRATIONS)

__all__ = [
    "ChatHistory",
    "ChatHistoryError",
    "ChatPromptTemplate",
    "PromptTemplate",
    "AIMessagePromptTemplate",
    "BaseMessagePromptTemplate",
    "ChatMessagePromptTemplate",
    "HumanMessagePromptTemplate",
    "MessagesPlaceholder",
    "SystemMessagePromptTemplate",
    "OutputParserError",
    "StrOutputParser",
    "JsonOutputParser",
    "PartialJsonReader",
    "ChatOpenAI",
    "OpenAIEmbeddings",
    "StructuredOutputError",
    "StructuredOutputParser",
    "ModelAPIError",
    "TransientModelError",
    "ModelAuthenticationError",
    "ModelNotFoundError",
    "ModelBadRequestError",
    "ModelResponseError",
    "ModelRateLimitError",
    "ModelServerError",
    "ModelConnectionError",
    "ModelTimeoutError",
    "ModelStreamError",
    "ENGLISH_STOPWORDS",
    "LLM",
    "MESSAGE_TYPES",
    "PROMPT_VALUE_TYPES",
    "AIMessage",
    "AIMessageChunk",
    "AmazonKendraRetriever",
    "BaseChatModel",
    "BaseLLM",
    "BaseMessage",
    "BaseOutputParser",
    "ChatMessage",
    "BaseRetriever",
    "BaseTool",
    "Bm25Index",
    "Bm25Retriever",
    "ChatGeneration",
    "ChatOutput",
    "ChatPromptValue",
    "DataTooDeepError",
    "DisallowedTypeError",
    "Document",
    "DocumentFilter",
    "Embeddings",
    "ExtractiveChatModel",
    "FakeListChatModel",
    "FakeListLLM",
    "FakeListLLMError",
    "FakeMessagesListChatModel",
    "FakeStreamingListLLM",
    "Generation",
    "GenericFakeChatModel",
    "ParrotFakeChatModel",
    "HashedNgramEmbeddings",
    "HumanMessage",
    "BaseChatMessageHistory",
    "InMemoryChatHistory",
    "InMemoryHistoryStore",
    "InMemoryVectorStore",
    "RunnableWithMessageHistory",
    "SQLiteChatHistory",
    "SQLiteHistoryStore",
    "InvalidToolCall",
    "KendraAccessDenied",
    "KendraConnectionError",
    "KendraError",
    "KendraInvalidRequest",
    "KendraResourceNotFound",
    "KendraThrottled",
    "KendraUnavailable",
    "LanguageModelInput",
    "MessageLikeRepresentation",
    "MalformedDataError",
    "Message",
    "MissingSecretError",
    "PromptValue",
    "Script",
    "ScriptedCall",
    "ScriptedChatModel",
    "ScriptExhaustedError",
    "StructuredTool",
    "Secret",
    "SentenceEmbeddings",
    "SimpleChatModel",
    "StringPromptValue",
    "SystemMessage",
    "Tool",
    "ToolPickingChatModel",
    "ToolCall",
    "ToolCallChunk",
    "ToolMessage",
    "UsageMetadata",
    "VectorStoreRetriever",
    "coerce_to_message",
    "coerce_to_messages",
    "cosine_similarity",
    "dumps",
    "format_documents_as_string",
    "get_buffer_string",
    "json_diff",
    "load_text_documents",
    "loads",
    "message_to_dict",
    "parse_and_check_json_markdown",
    "parse_json_markdown",
    "parse_partial_json",
    "tool",
    "tokenize",
]
