"""The ``server`` extra, checked before anything of serving loads, so that its absence is named."""

import importlib

from effects.hooks import MissingExtraError

for module in ("starlette", "httpx"):
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as missing:
        raise MissingExtraError(
            "combinators.integrations.serving needs the optional extra 'server':"
            f" pip install 'combinators[server]' (missing module: {missing.name})"
        ) from missing
