"""The LangChain bridge (extra ``langchain``): langchain-core components inside our
chains (``from_langchain``), our chains inside LangChain and LangGraph (``to_langchain``),
LangChain's callback handlers on our runs (``config["callbacks"]``), values converted
losslessly both ways.

>>> from langchain_core.retrievers import BaseRetriever as TheirRetriever
>>> callable(from_langchain)
True
"""

from effects.deprecation import Moved as _Moved
from effects.deprecation import moved_modules as _moved_modules
from effects.hooks import require_extra as _require_extra

_require_extra("combinators.integrations.langchain", "langchain", "langchain_core")

from combinators.integrations.langchain.runnable import FromLangChain as FromLangChain
from combinators.integrations.langchain.runnable import from_langchain as from_langchain
from combinators.integrations.langchain.shortcuts import add_documents as add_documents
from combinators.integrations.langchain.shortcuts import embeddings_of as embeddings_of
from combinators.integrations.langchain.shortcuts import load_with as load_with
from combinators.integrations.langchain.shortcuts import split_with as split_with
from combinators.integrations.langchain.shortcuts import tool_of as tool_of
from combinators.integrations.langchain.shortcuts import vector_store_retriever as vector_store_retriever
from combinators.integrations.langchain.to_runnable import ToLangChain as ToLangChain
from combinators.integrations.langchain.to_runnable import to_langchain as to_langchain
from combinators.integrations.langchain.conversion import to_ours as to_ours

# Its old module path (before it was named for what it does), kept with a dated warning.
_moved_modules(
    {
        "combinators.integrations.langchain.values": _Moved(
            "combinators.integrations.langchain", source="combinators.integrations.langchain.conversion"
        )
    }
)

__all__ = [
    "FromLangChain",
    "ToLangChain",
    "add_documents",
    "embeddings_of",
    "from_langchain",
    "load_with",
    "split_with",
    "to_langchain",
    "to_ours",
    "tool_of",
    "vector_store_retriever",
]
