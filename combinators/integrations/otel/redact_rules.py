"""What the tracing redactor treats as secret: key names (word rules) and value formats.

Each rule is tested on a corpus of real formats and of ordinary text that must stay
(``tests/security/test_redaction_corpus.py``). A key is secret when one of its words
(split at ``_``, ``-``, ``.`` and camelCase) names a secret (``password``, ``pwd``,
``auth``, ``session``, ``cookie``, ...), when two adjacent words do (``api key``,
``private key``, ``access key``), or when the key glues one in (``dbpassword``). A key
named ``tokens`` (plural) holds a count: ``input_tokens`` stays, while
``access_tokens``, ``auth_tokens`` and ``id_tokens`` go.

>>> secret_key_name("OPENAI_API_KEY"), secret_key_name("author"), secret_key_name("sessionId")
(True, False, True)
>>> [f.name for f in SECRET_FORMATS][:3]
['openai', 'stripe', 'google-api-key']
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from typing import Final, final

import attrs

SECRET_WORDS: Final = frozenset(
    {
        "auth", "authorization", "authentication", "oauth", "pwd", "passwd", "password", "passwords",
        "passphrase", "secret", "secrets", "token", "credential", "credentials", "cookie", "cookies",
        "session", "apikey", "jwt", "bearer", "privatekey", "passcode", "sessionid", "csrf", "xsrf",
    }
)  # fmt: skip
"""Words that make a key secret wherever they appear in it."""

SECRET_PAIRS: Final = frozenset(
    {
        ("api", "key"), ("private", "key"), ("access", "key"), ("account", "key"), ("master", "key"),
        ("signing", "key"), ("encryption", "key"), ("client", "key"), ("subscription", "key"),
        ("connection", "string"), ("shared", "access"),
    }
)  # fmt: skip
"""Adjacent words that make a key secret (``x-api-key``, ``AccountKey``)."""

GLUED: Final = re.compile(
    r"password|passwd|passphrase|apikey|apitoken|accesstoken|refreshtoken|idtoken|authtoken|privatekey|secretkey|credential"
)
"""Secret words glued into a longer word (``dbpassword``, ``xapikey``)."""

_WORDS: Final = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def key_words(key: str) -> list[str]:
    """A key's words, lowercased.

    >>> key_words("x-amz-security-token"), key_words("XApiKey"), key_words("access_tokens")
    (['x', 'amz', 'security', 'token'], ['x', 'api', 'key'], ['access', 'tokens'])
    """
    return [word.lower() for word in _WORDS.findall(key)]


def secret_key_name(key: str) -> bool:
    """Whether a value under ``key`` is secret whatever it is (see the module)."""
    words = key_words(key)
    if any(word in SECRET_WORDS for word in words):
        return True
    if any(pair in SECRET_PAIRS for pair in zip(words, words[1:])):
        return True
    return GLUED.search("".join(words)) is not None


def tokenish(text: str) -> bool:
    """Whether ``text`` looks like a generated token rather than a word or a number:
    at least 8 characters, not only digits, with a digit, mixed case or a symbol.

    >>> tokenish("abc123xyz0"), tokenish("established"), tokenish("12345678")
    (True, False, False)
    """
    if len(text) < 8 or text.isdigit():
        return False
    has_digit = any(c.isdigit() for c in text)
    mixed = any(c.isupper() for c in text) and any(c.islower() for c in text)
    return has_digit or mixed or any(c in "-_./+=~:!@#$%^&*" for c in text)


def aws_secret_like(text: str) -> bool:
    """40 base64 characters with upper, lower and a digit (a hex digest has no uppercase)."""
    return any(c.isupper() for c in text) and any(c.islower() for c in text) and any(c.isdigit() for c in text)


def bearer_token(text: str) -> bool:
    """``Bearer <token>`` where the token looks generated (``Bearer of bad news`` stays).

    >>> bearer_token("Bearer tok.abc.123-xyz"), bearer_token("bearer tokens")
    (True, False)
    """
    return tokenish(text.split()[-1])


def basic_credentials(text: str) -> bool:
    """``Basic <base64 of user:password>``.

    >>> basic_credentials("Basic dXNlcjpwYXNz"), basic_credentials("basic understanding")
    (True, False)
    """
    text = text.split()[-1]
    try:
        decoded = base64.b64decode(text + "=" * (-len(text) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()


def _no_triggers() -> tuple[str, ...]:
    return ()


@final
@attrs.frozen
class SecretFormat:
    """A secret's format: where the match has a group ``secret``, only that part is
    replaced (the name in ``password=...`` stays); ``check`` further tests that part.

    ``triggers`` (lowercase) are texts one of which the format cannot match without:
    a text that has none of them skips the format's pattern (most texts have none of
    any, and are left after a few substring tests). ``min_run`` asks for a run of that many
    characters without white space instead; a format with neither is always tried.
    """

    name: str
    pattern: str
    check: Callable[[str], bool] | None = None
    triggers: tuple[str, ...] = attrs.field(factory=_no_triggers)
    min_run: int = 0


# Patterns start with a literal where they can (the regex engine then scans for it fast);
# a boundary check sits after the literal, as a lookbehind over it.
_SECRET_NAMES: Final = (
    r"(?i:api[_-]?key|apikey|secret|token(?!i[sz]|s(?![a-z]))|credential"
    r"|auth(?!or(?:s|ed|ing)?(?![a-z])|orit)|cookie|session[_-]?id)"
)
_PASSWORD_NAMES: Final = r"(?i:passw(?:or)?d|pwd|passphrase|passcode)"
_ASSIGNED: Final = r"[\w.-]*[\"']?\s*[:=]\s*[\"']?(?!(?i:bearer|basic|token)\s)"
# (a header's scheme is not its value: "Authorization: Bearer <token>" is the bearer rule's)
_AWS_PREFIXES: Final = ("akia", "asia", "abia", "acca")

SECRET_FORMATS: Final = (
    SecretFormat(
        "openai", r"sk-(?<![\w-]sk-)(?:proj-|ant-[a-z]+\d*-|svcacct-|admin-)?[A-Za-z0-9_-]{8,}", triggers=("sk-",)
    ),
    SecretFormat(
        "stripe", r"[rsp]k_(?:live|test)_(?<![A-Za-z0-9].{8})[A-Za-z0-9]{10,}", triggers=("k_live_", "k_test_")
    ),
    SecretFormat("google-api-key", r"AIza[0-9A-Za-z_-]{35}", triggers=("aiza",)),
    SecretFormat("google-oauth", r"ya29\.[0-9A-Za-z_-]{20,}", triggers=("ya29.",)),
    SecretFormat(
        "aws-access-key-id",
        r"(?:AKIA|ASIA|ABIA|ACCA)(?<![A-Z0-9].{4})[A-Z0-9]{16}(?![A-Z0-9])",
        triggers=_AWS_PREFIXES,
    ),
    SecretFormat(
        "aws-secret-key", r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])", aws_secret_like, min_run=40
    ),
    SecretFormat(
        "github",
        r"g(?<![A-Za-z0-9]g)(?:h[pousr]_[A-Za-z0-9]{30,}|ithub_pat_[A-Za-z0-9_]{40,})",
        triggers=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    SecretFormat(
        "gitlab",
        r"gl(?<![A-Za-z0-9]gl)(?:pat|dt|ptt|rt|cbt|soat)-[A-Za-z0-9_-]{20,}",
        triggers=("glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glsoat-"),
    ),
    SecretFormat("slack", r"xox(?<![A-Za-z0-9]xox)[abposr]-[A-Za-z0-9-]{10,}", triggers=("xox",)),
    SecretFormat(
        "slack-webhook", r"hooks\.slack\.com/services/(?P<secret>[A-Za-z0-9/_-]+)", triggers=("hooks.slack.com",)
    ),
    SecretFormat(
        "azure-connection",
        r"(?i:AccountKey|SharedAccessKey|SharedAccessSignature)=(?P<secret>[^;\s\"']+)",
        triggers=("accountkey=", "sharedaccesskey=", "sharedaccesssignature="),
    ),
    SecretFormat("jwt", r"eyJ(?<![\w-]eyJ)[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]*", triggers=("eyj",)),
    SecretFormat("bearer", r"(?i:bearer|token)\s+[A-Za-z0-9._~+/-]+=*", bearer_token, triggers=("bearer", "token")),
    SecretFormat("basic", r"(?i:basic)\s+[A-Za-z0-9+/]{6,}={0,2}", basic_credentials, triggers=("basic",)),
    SecretFormat(
        "private-key",
        r"-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----|$)",
        triggers=("private key",),
    ),
    SecretFormat("url-password", r"://[^/\s:@\"']*:(?P<secret>[^/\s@\"']+)@", triggers=("://",)),
    SecretFormat(
        "url-query",
        r"[?&;](?i:api[_-]?key|key|token|access_token|refresh_token|id_token|client_secret|secret|password|passwd"
        r"|pwd|sig|signature|auth|code)=(?P<secret>[^&\s#\"']+)",
        triggers=("=",),
    ),
    SecretFormat(
        "password-assignment",
        rf"{_PASSWORD_NAMES}{_ASSIGNED}(?P<secret>[^\s\"',;&]+)",
        triggers=("passw", "pwd", "passphrase", "passcode"),
    ),
    SecretFormat(
        "secret-assignment",
        rf"{_SECRET_NAMES}{_ASSIGNED}(?P<secret>[^\s\"',;&]+)",
        tokenish,
        triggers=("key", "secret", "token", "credential", "auth", "cookie", "session"),
    ),
)
"""The value formats replaced wherever they appear, in every string a trace carries."""
