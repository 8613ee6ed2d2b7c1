"""The ``langchain`` extra, checked before anything of the bridge loads, so that its absence is named."""

import importlib

from effects.hooks import MissingExtraError, install_line

try:
    importlib.import_module("langchain_core")
except ModuleNotFoundError as missing:
    raise MissingExtraError(
        "combinators.integrations.langchain needs the optional extra 'langchain':"
        f" {install_line('langchain')} (missing module: {missing.name})"
    ) from missing
