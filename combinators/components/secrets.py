"""Secret: an API key or password that never shows itself by accident.

``repr``, ``str``, ``format`` and the projections' JSON form (``__redacted__``) all give
ten stars, whatever the length; ``get_secret_value()`` is the one way to read it.
Equality compares values in constant time. A secret is not an attrs class on purpose:
``attrs.asdict`` of a value holding one keeps the ``Secret`` object (redacted) instead
of unpacking its field.

Pickling (and cloudpickle) keeps the value: pickles travel to your own workers (Dask,
process pools), which need the key, and a pickle is code anyway, never a safe format
for untrusted data. JSON serialization (``serialization.dumps``) redacts: it loads
back as a placeholder that must be given the value again.

>>> key = Secret("sk-123")
>>> key, str(key), f"{key}"
(Secret('**********'), '**********', '**********')
>>> key.get_secret_value()
'sk-123'
"""

from __future__ import annotations

import hmac
from typing import ClassVar, Final, NoReturn, final

from effects.errors import CombinatorsError
from effects.authoring import checked

REDACTED: Final = "**********"

SET_BY_LOADS: Final = "combinators.set_by_loads"
"""attrs field metadata: the value ``loads`` gives the field itself; data can never set it.

``dumps`` leaves such a field out, and a payload that names it is malformed. The
components that read secrets from the environment mark ``secrets_from_env`` so, with
``False``: a value built from data never reads the environment's secrets.
"""


class MissingSecretError(CombinatorsError, LookupError):
    """A placeholder secret (loaded from redacted JSON) was read before being supplied.

    >>> Secret.placeholder("openai").get_secret_value()
    Traceback (most recent call last):
    ...
    combinators.components.secrets.MissingSecretError: ...
    """


def _placeholder(name: str | None) -> Secret:
    return Secret.placeholder(name)


@final
class Secret:
    """A secret string; only ``get_secret_value()`` reveals it.

    >>> Secret("a") == Secret("a"), Secret("a") == Secret("b")
    (True, False)
    """

    __slots__ = ("_value", "_missing_name", "_is_placeholder")

    sensitive_kind: ClassVar[str] = "secret"
    """A field typed ``Secret`` is sensitive: a served chain's client may never set it."""

    _value: str
    _missing_name: str | None
    _is_placeholder: bool

    def __init__(self, value: str) -> None:
        checked(value, str, "Secret takes a str")
        object.__setattr__(self, "_value", value)
        object.__setattr__(self, "_missing_name", None)
        object.__setattr__(self, "_is_placeholder", False)

    @classmethod
    def placeholder(cls, name: str | None = None) -> Secret:
        """A secret whose value was redacted; reading it raises ``MissingSecretError``.

        >>> Secret.placeholder("api_key")
        Secret.placeholder('api_key')
        """
        secret = cls("")
        object.__setattr__(secret, "_missing_name", name)
        object.__setattr__(secret, "_is_placeholder", True)
        return secret

    @property
    def is_placeholder(self) -> bool:
        """Whether this secret still waits for its value (see ``placeholder``)."""
        return self._is_placeholder

    @property
    def placeholder_name(self) -> str | None:
        """The name a placeholder was serialized under (``None`` for real secrets)."""
        return self._missing_name

    def get_secret_value(self) -> str:
        """The secret itself.

        >>> Secret.placeholder("api_key").get_secret_value()
        Traceback (most recent call last):
        combinators.components.secrets.MissingSecretError: the secret 'api_key' was redacted when it was serialized; pass it to loads(..., secrets={'api_key': Secret(...)})
        """
        if self._is_placeholder:
            name = self._missing_name
            raise MissingSecretError(
                f"the secret {name!r} was redacted when it was serialized; pass it to "
                f"loads(..., secrets={{{name!r}: Secret(...)}})"
            )
        return self._value

    def __redacted__(self) -> str:
        """The form logs, events and traces show."""
        return REDACTED

    def __repr__(self) -> str:
        if self._is_placeholder:
            return f"Secret.placeholder({self._missing_name!r})"
        return f"Secret({REDACTED!r})"

    def __str__(self) -> str:
        return REDACTED

    def __format__(self, format_spec: str) -> str:
        return format(REDACTED, format_spec)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Secret):
            return NotImplemented
        same = hmac.compare_digest(self._value.encode(), other._value.encode())
        return same and (self._is_placeholder, self._missing_name) == (
            other._is_placeholder,
            other._missing_name,
        )

    def __hash__(self) -> int:
        return hash((Secret, self._value, self._missing_name))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Secret is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"Secret is immutable; cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, tuple[str | None]]:
        # Pickles keep the value (see the module docstring); placeholders stay placeholders.
        if self._is_placeholder:
            return _placeholder, (self._missing_name,)
        return Secret, (self._value,)
