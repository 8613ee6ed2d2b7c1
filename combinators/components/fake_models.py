"""The import path the README used before the models got their room (deprecated: import
from ``combinators.language_models``; removed after the date the warning names).

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     from combinators.components.fake_models import GenericFakeChatModel, Script
>>> GenericFakeChatModel(Script(["hi"])).invoke("hello").text
'hi'
"""

from combinators.components.models.fakes import FakeListChatModel as FakeListChatModel
from combinators.components.models.fakes import FakeListLLM as FakeListLLM
from combinators.components.models.fakes import GenericFakeChatModel as GenericFakeChatModel
from combinators.components.models.fakes import Script as Script
from effects.deprecation import deprecated_module as _deprecated_module

_deprecated_module(__name__, "combinators.language_models")

__all__ = ["FakeListChatModel", "FakeListLLM", "GenericFakeChatModel", "Script"]
