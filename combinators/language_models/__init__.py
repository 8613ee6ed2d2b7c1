"""Chat and completion models: the bases, the offline fakes and scripted models, typed errors (LangChain's ``langchain_core.language_models``).

>>> from combinators.language_models import GenericFakeChatModel, Script
>>> GenericFakeChatModel(Script(["hi there"])).invoke("hello").text
'hi there'
"""

from combinators.components.models.chat_model import BaseChatModel as BaseChatModel
from combinators.components.models.chat_model import ChatOutput as ChatOutput
from combinators.components.models.chat_model import LanguageModelInput as LanguageModelInput
from combinators.components.models.chat_model import SimpleChatModel as SimpleChatModel
from combinators.components.models.llm import BaseLLM as BaseLLM
from combinators.components.models.llm import LLM as LLM
from combinators.components.models.extractive import ExtractiveChatModel as ExtractiveChatModel
from combinators.components.models.fakes import FakeListChatModel as FakeListChatModel
from combinators.components.models.fakes import FakeListLLM as FakeListLLM
from combinators.components.models.fake_streaming import FakeListLLMError as FakeListLLMError
from combinators.components.models.fake_messages import FakeMessagesListChatModel as FakeMessagesListChatModel
from combinators.components.models.fake_streaming import FakeStreamingListLLM as FakeStreamingListLLM
from combinators.components.models.fakes import GenericFakeChatModel as GenericFakeChatModel
from combinators.components.models.fake_messages import ParrotFakeChatModel as ParrotFakeChatModel
from combinators.components.models.fakes import Script as Script
from combinators.components.models.scripted import ScriptedCall as ScriptedCall
from combinators.components.models.scripted import ScriptedChatModel as ScriptedChatModel
from combinators.components.models.scripted import ScriptExhaustedError as ScriptExhaustedError
from combinators.components.models.tool_picking import ToolPickingChatModel as ToolPickingChatModel
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
    "ChatOutput",
    "ExtractiveChatModel",
    "FakeListChatModel",
    "FakeListLLM",
    "FakeListLLMError",
    "FakeMessagesListChatModel",
    "FakeStreamingListLLM",
    "GenericFakeChatModel",
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
    "ParrotFakeChatModel",
    "Script",
    "ScriptExhaustedError",
    "ScriptedCall",
    "ScriptedChatModel",
    "SimpleChatModel",
    "ToolPickingChatModel",
    "TransientModelError",
]
