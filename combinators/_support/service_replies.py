"""Reading what a service replied, safely: a name fit to show in a message, and how long
it asks us to wait (``Retry-After``). Used by the service-error family and the integrations
that build its errors.

>>> safe_name("temperature"), parse_retry_after("2")
('temperature', 2.0)
"""

from __future__ import annotations

import re
from typing import Final

_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-\[\]]{0,63}")
# A name from elsewhere (an argument a provider names, a remote error's type) is shown only
# when it reads as a name: nothing that could carry a sentence, a URL or a key-sized value.
_MAX_RETRY_AFTER: Final = 86_400.0


def safe_name(value: object) -> str | None:
    """``value`` when it is a short identifier-like name, else ``None``.

    >>> safe_name("messages[0].content"), safe_name("http://10.0.0.1/x"), safe_name("a b")
    ('messages[0].content', None, None)
    """
    if isinstance(value, str) and _NAME.fullmatch(value) and not value.startswith(("sk-", "org-")):
        return value
    return None


def parse_retry_after(value: object) -> float | None:
    """Seconds to wait, from a ``Retry-After`` (seconds) or ``retry-after-ms`` value.

    Dates and anything else unreadable give ``None``; absurd values are capped at a day.

    >>> parse_retry_after("2"), parse_retry_after(1.5), parse_retry_after("soon"), parse_retry_after(None)
    (2.0, 1.5, None, None)
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        seconds = float(value)
    elif isinstance(value, str):
        try:
            seconds = float(value.strip())
        except ValueError:
            return None
    else:
        return None
    if seconds != seconds or seconds < 0:  # NaN or negative
        return None
    return min(seconds, _MAX_RETRY_AFTER)


__all__ = ["parse_retry_after", "safe_name"]
