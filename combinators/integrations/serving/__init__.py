"""Serving: any runnable over HTTP with LangServe's wire protocol, and ``RemoteRunnable``.

Needs the ``serving`` extra (Starlette, uvicorn, httpx): ``pip install 'lcel-combinators[serving]'``.

>>> from combinators import RunnableLambda
>>> app = serve({"/echo": RunnableLambda(str)})
>>> sorted(route.path for route in app.routes if "/c/" not in route.path)[:5]
['/', '/docs', '/echo/batch', '/echo/config_schema', '/echo/docs']
>>> "/echo/c/{config_hash}/invoke" in {route.path for route in app.routes}
True
"""

from effects.hooks import require_extra as _require_extra

_require_extra("combinators.integrations.serving", "serving", "starlette", "httpx")

from combinators.integrations.serving.app import ServeSettings as ServeSettings
from combinators.integrations.serving.app import mount as mount
from combinators.integrations.serving.app import serve as serve
from combinators.integrations.serving.errors import ErrorInfo as ErrorInfo
from combinators.integrations.serving.errors import ErrorMap as ErrorMap
from combinators.integrations.serving.errors import default_error_info as default_error_info
from combinators.integrations.serving.remote import RemoteRunnable as RemoteRunnable
from combinators.integrations.serving.remote_errors import RemoteAuthError as RemoteAuthError
from combinators.integrations.serving.remote_errors import RemoteConnectionError as RemoteConnectionError
from combinators.integrations.serving.remote_errors import RemoteRunnableError as RemoteRunnableError
from combinators.integrations.serving.remote_errors import RemoteInputError as RemoteInputError
from combinators.integrations.serving.remote_errors import RemoteRateLimited as RemoteRateLimited
from combinators.integrations.serving.remote_errors import RemoteTimeout as RemoteTimeout
from combinators.integrations.serving.remote_errors import RemoteTransientError as RemoteTransientError
from combinators.integrations.serving.remote_errors import RemoteUnavailable as RemoteUnavailable
from combinators.integrations.serving.wire import WIRE_TYPES as WIRE_TYPES
from combinators.integrations.serving.wire import from_wire as from_wire
from combinators.integrations.serving.wire import to_wire as to_wire

__all__ = [
    "WIRE_TYPES",
    "ErrorInfo",
    "ErrorMap",
    "RemoteAuthError",
    "RemoteConnectionError",
    "RemoteRunnableError",
    "RemoteInputError",
    "RemoteRateLimited",
    "RemoteRunnable",
    "RemoteTimeout",
    "RemoteTransientError",
    "RemoteUnavailable",
    "ServeSettings",
    "default_error_info",
    "from_wire",
    "mount",
    "serve",
    "to_wire",
]
