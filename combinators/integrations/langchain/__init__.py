"""The LangChain bridge (extra ``langchain``): langchain-core components inside our
chains, their values converted losslessly both ways.

>>> from langchain_core.retrievers import BaseRetriever as TheirRetriever
>>> callable(from_langchain)
True
"""

from combinators.integrations.langchain import _extra as _extra  # first: names a missing extra
from combinators.integrations.langchain.runnable import FromLangChain as FromLangChain
from combinators.integrations.langchain.runnable import from_langchain as from_langchain
from combinators.integrations.langchain.values import to_langchain as to_langchain
from combinators.integrations.langchain.values import to_ours as to_ours

__all__ = ["FromLangChain", "from_langchain", "to_langchain", "to_ours"]
