"""Secrets: a value redacted in every repr, event, log and trace.

>>> from combinators.secrets import Secret
>>> Secret("sk-1")
Secret('**********')
"""

from combinators.components.secrets import MissingSecretError as MissingSecretError
from combinators.components.secrets import Secret as Secret

__all__ = [
    "MissingSecretError",
    "Secret",
]
