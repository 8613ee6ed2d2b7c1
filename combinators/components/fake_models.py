"""The import path the README used before the models got their room; kept so that code
written against it keeps working. New code imports from ``combinators.components``.

>>> from combinators.components.fake_models import GenericFakeChatModel, Script
>>> GenericFakeChatModel(Script(["hi"])).invoke("hello").text
'hi'
"""

from combinators.components.models.fakes import FakeListChatModel as FakeListChatModel
from combinators.components.models.fakes import FakeListLLM as FakeListLLM
from combinators.components.models.fakes import GenericFakeChatModel as GenericFakeChatModel
from combinators.components.models.fakes import Script as Script

__all__ = ["FakeListChatModel", "FakeListLLM", "GenericFakeChatModel", "Script"]
