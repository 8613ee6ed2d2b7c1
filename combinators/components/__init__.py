"""Domain runnables built on the public core: messages, prompts, models, parsers,
tools, documents and retrievers.

>>> from combinators.components import GenericFakeChatModel, Script
>>> GenericFakeChatModel(Script(["hi there"])).invoke("hello").text
'hi there'
"""

from combinators.components.documents import BaseRetriever as BaseRetriever
from combinators.components.documents import Document as Document
from combinators.components.documents import format_documents_as_string as format_documents_as_string
from combinators.components.documents import load_text_documents as load_text_documents
from combinators.components.bm25 import Bm25Index as Bm25Index
from combinators.components.bm25 import Bm25Retriever as Bm25Retriever
from combinators.components.bm25 import ENGLISH_STOPWORDS as ENGLISH_STOPWORDS
from combinators.components.bm25 import tokenize as tokenize
from combinators.components.embeddings import Embeddings as Embeddings
from combinators.components.embeddings import HashedNgramEmbeddings as HashedNgramEmbeddings
from combinators.components.embeddings import SentenceEmbeddings as SentenceEmbeddings
from combinators.components.vectorstore import DocumentFilter as DocumentFilter
from combinators.components.vectorstore import InMemoryVectorStore as InMemoryVectorStore
from combinators.components.vectorstore import VectorStoreRetriever as VectorStoreRetriever
from combinators.components.vectorstore import cosine_similarity as cosine_similarity
from combinators.components.kendra import AmazonKendraRetriever as AmazonKendraRetriever
from combinators.components.kendra import KendraAccessDenied as KendraAccessDenied
from combinators.components.kendra import KendraConnectionError as KendraConnectionError
from combinators.components.kendra import KendraError as KendraError
from combinators.components.kendra import KendraInvalidRequest as KendraInvalidRequest
from combinators.components.kendra import KendraResourceNotFound as KendraResourceNotFound
from combinators.components.kendra import KendraThrottled as KendraThrottled
from combinators.components.messages import AIMessage as AIMessage
from combinators.components.messages import AIMessageChunk as AIMessageChunk
from combinators.components.messages import BaseMessage as BaseMessage
from combinators.components.messages import HumanMessage as HumanMessage
from combinators.components.messages import InvalidToolCall as InvalidToolCall
from combinators.components.messages import MESSAGE_TYPES as MESSAGE_TYPES
from combinators.components.messages import Message as Message
from combinators.components.messages import SystemMessage as SystemMessage
from combinators.components.messages import ToolCall as ToolCall
from combinators.components.messages import ToolCallChunk as ToolCallChunk
from combinators.components.messages import ToolMessage as ToolMessage
from combinators.components.messages import UsageMetadata as UsageMetadata
from combinators.components.messages import coerce_to_message as coerce_to_message
from combinators.components.messages import coerce_to_messages as coerce_to_messages
from combinators.components.messages import get_buffer_string as get_buffer_string
from combinators.components.messages import message_to_dict as message_to_dict
from combinators.components.prompt_values import ChatPromptValue as ChatPromptValue
from combinators.components.prompt_values import PROMPT_VALUE_TYPES as PROMPT_VALUE_TYPES
from combinators.components.prompt_values import PromptValue as PromptValue
from combinators.components.prompt_values import StringPromptValue as StringPromptValue
from combinators.components.partial_json import json_diff as json_diff
from combinators.components.partial_json import parse_json_markdown as parse_json_markdown
from combinators.components.partial_json import parse_partial_json as parse_partial_json
from combinators.components.secrets import MissingSecretError as MissingSecretError
from combinators.components.secrets import Secret as Secret
from combinators.components.serialization import DisallowedTypeError as DisallowedTypeError
from combinators.components.serialization import MalformedDataError as MalformedDataError
from combinators.components.serialization import dumps as dumps
from combinators.components.serialization import loads as loads
from combinators.components.chat_model import BaseChatModel as BaseChatModel
from combinators.components.chat_model import ChatOutput as ChatOutput
from combinators.components.chat_model import LanguageModelInput as LanguageModelInput
from combinators.components.chat_model import SimpleChatModel as SimpleChatModel
from combinators.components.llm import BaseLLM as BaseLLM
from combinators.components.llm import LLM as LLM
from combinators.components.extractive import ExtractiveChatModel as ExtractiveChatModel
from combinators.components.fake_models import FakeListChatModel as FakeListChatModel
from combinators.components.fake_models import FakeListLLM as FakeListLLM
from combinators.components.fake_models import GenericFakeChatModel as GenericFakeChatModel
from combinators.components.fake_models import Script as Script

from combinators.components.tools import StructuredTool as StructuredTool
from combinators.components.tools import Tool as Tool
from combinators.components.tools import tool as tool

from combinators.components.openai_chat import ChatOpenAI as ChatOpenAI
from combinators.components.openai_embeddings import OpenAIEmbeddings as OpenAIEmbeddings
from combinators.components.openai_structured import StructuredOutputError as StructuredOutputError
from combinators.components.openai_structured import StructuredOutputParser as StructuredOutputParser
from combinators.components.openai_errors import ModelAPIError as ModelAPIError
from combinators.components.openai_errors import TransientModelError as TransientModelError
from combinators.components.openai_errors import ModelAuthenticationError as ModelAuthenticationError
from combinators.components.openai_errors import ModelNotFoundError as ModelNotFoundError
from combinators.components.openai_errors import ModelBadRequestError as ModelBadRequestError
from combinators.components.openai_errors import ModelResponseError as ModelResponseError
from combinators.components.openai_errors import ModelRateLimitError as ModelRateLimitError
from combinators.components.openai_errors import ModelServerError as ModelServerError
from combinators.components.openai_errors import ModelConnectionError as ModelConnectionError
from combinators.components.openai_errors import ModelTimeoutError as ModelTimeoutError
from combinators.components.openai_errors import ModelStreamError as ModelStreamError

from combinators.components.prompts import ChatPromptTemplate as ChatPromptTemplate
from combinators.components.prompts import PromptTemplate as PromptTemplate
from combinators.components.chat_prompts import AIMessagePromptTemplate as AIMessagePromptTemplate
from combinators.components.chat_prompts import BaseMessagePromptTemplate as BaseMessagePromptTemplate
from combinators.components.chat_prompts import HumanMessagePromptTemplate as HumanMessagePromptTemplate
from combinators.components.chat_prompts import MessagesPlaceholder as MessagesPlaceholder
from combinators.components.chat_prompts import SystemMessagePromptTemplate as SystemMessagePromptTemplate
from combinators.components.parsers import OutputParserError as OutputParserError
from combinators.components.parsers import StrOutputParser as StrOutputParser
from combinators.components.json_parser import JsonOutputParser as JsonOutputParser
from combinators.components.partial_json import PartialJsonReader as PartialJsonReader

__all__ = [
    "ChatPromptTemplate",
    "PromptTemplate",
    "AIMessagePromptTemplate",
    "BaseMessagePromptTemplate",
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
    "BaseRetriever",
    "Bm25Index",
    "Bm25Retriever",
    "ChatOutput",
    "ChatPromptValue",
    "DisallowedTypeError",
    "Document",
    "DocumentFilter",
    "Embeddings",
    "ExtractiveChatModel",
    "FakeListChatModel",
    "FakeListLLM",
    "GenericFakeChatModel",
    "HashedNgramEmbeddings",
    "HumanMessage",
    "InMemoryVectorStore",
    "InvalidToolCall",
    "KendraAccessDenied",
    "KendraConnectionError",
    "KendraError",
    "KendraInvalidRequest",
    "KendraResourceNotFound",
    "KendraThrottled",
    "LanguageModelInput",
    "MalformedDataError",
    "Message",
    "MissingSecretError",
    "PromptValue",
    "Script",
    "StructuredTool",
    "Secret",
    "SentenceEmbeddings",
    "SimpleChatModel",
    "StringPromptValue",
    "SystemMessage",
    "Tool",
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
    "parse_json_markdown",
    "parse_partial_json",
    "tool",
    "tokenize",
]
