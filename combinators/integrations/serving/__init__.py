"""Serving: any runnable over HTTP with LangServe's wire protocol, and a ``RemoteRunnable``.

Needs the ``server`` extra (Starlette, uvicorn, httpx).
"""

from combinators.integrations.serving.app import serve as serve
from combinators.integrations.serving.app import mount as mount

__all__ = ["mount", "serve"]
