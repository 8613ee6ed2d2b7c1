"""The ``serving`` extra, checked before anything of serving loads, so that its absence is named."""

import importlib

from effects.hooks import MissingExtraError, install_line

for module in ("starlette", "httpx"):
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as missing:
        raise MissingExtraError(
            "combinators.integrations.serving needs the optional extra 'serving':"
            f" {install_line('serving')} (missing module: {missing.name})"
        ) from missing
