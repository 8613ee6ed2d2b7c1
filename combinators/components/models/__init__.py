"""Chat models and completion models: the bases, the offline fakes, a small extractive model, typed errors."""

from combinators.components.models.chat_model import BaseChatModel as BaseChatModel
from combinators.components.models.chat_model import ChatOutput as ChatOutput
from combinators.components.models.chat_model import LanguageModelInput as LanguageModelInput
from combinators.components.models.chat_model import SimpleChatModel as SimpleChatModel
from combinators.components.models.llm import BaseLLM as BaseLLM
from combinators.components.models.llm import LLM as LLM
from combinators.components.models.extractive import ExtractiveChatModel as ExtractiveChatModel
from combinators.components.models.fakes import FakeListChatModel as FakeListChatModel
from combinators.components.models.fakes import FakeListLLM as FakeListLLM
from combinators.components.models.fakes import GenericFakeChatModel as GenericFakeChatModel
from combinators.components.models.fakes import Script as Script
from combinators.components.models.outputs import ChatGeneration as ChatGeneration
from combinators.components.models.outputs import Generation as Generation
from combinators.components.models.fake_messages import FakeMessagesListChatModel as FakeMessagesListChatModel
from combinators.components.models.fake_messages import ParrotFakeChatModel as ParrotFakeChatModel
from combinators.components.models.fake_streaming import FakeListLLMError as FakeListLLMError
from combinators.components.models.fake_streaming import FakeStreamingListLLM as FakeStreamingListLLM
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

__all__ = [
    "BaseChatModel",
    "BaseLLM",
    "ChatGeneration",
    "ChatOutput",
    "ExtractiveChatModel",
    "FakeListChatModel",
    "FakeListLLM",
    "FakeListLLMError",
    "FakeMessagesListChatModel",
    "FakeStreamingListLLM",
    "Generation",
    "GenericFakeChatModel",
    "ParrotFakeChatModel",
    "LLM",
    "LanguageModelInput",
    "ModelAPIError",
    "ModelAuthenticationError",
    "ModelBadRequestError",
    "ModelConnectionError",
    "ModelNotFoundError",
    "ModelRateLimitError",
    "ModelResponseError",
    "ModelServerError",
    "ModelStreamError",
    "ModelTimeoutError",
    "Script",
    "SimpleChatModel",
    "TransientModelError",
]
