"""Retry policies as values: when to stop, how long to wait, what to retry.

Waiting is computed here and performed by the runtime's clock, so tests inject a
``FakeClock`` and every delay is exactly predictable.

>>> policy = RetryPolicy(max_attempts=4, wait=ExponentialWait(initial=1.0, jitter=0.0))
>>> [policy.delay_before(n, lambda: 0.5) for n in (2, 3, 4)]
[1.0, 2.0, 4.0]
>>> policy.should_retry(ValueError()), policy.should_retry(KeyboardInterrupt())
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Final, final

import attrs

RetryOn = tuple[type[BaseException], ...] | Callable[[BaseException], bool]


@final
@attrs.frozen
class NoWait:
    """Retry at once.

    >>> NoWait().delay(3, lambda: 0.5)
    0.0
    """

    def delay(self, retry: int, random: Callable[[], float]) -> float:
        return 0.0


@final
@attrs.frozen
class FixedWait:
    """The same pause before every retry.

    >>> FixedWait(0.25).delay(5, lambda: 0.9)
    0.25
    """

    seconds: float

    def delay(self, retry: int, random: Callable[[], float]) -> float:
        return self.seconds


@final
@attrs.frozen(repr=False)
class ExponentialWait:
    """``initial * exp_base ** (retry - 1)`` plus up to ``jitter`` seconds, capped at ``max``.

    >>> ExponentialWait(initial=0.5, jitter=1.0, max=3.0).delay(3, lambda: 0.5)
    2.5
    """

    initial: float = 1.0
    exp_base: float = 2.0
    jitter: float = 1.0
    max: float = math.inf

    def __repr__(self) -> str:
        from combinators._support.reprs import changed_fields

        return f"ExponentialWait({', '.join(changed_fields(self))})"

    def delay(self, retry: int, random: Callable[[], float]) -> float:
        base = self.initial * self.exp_base ** (retry - 1)
        return min(base + self.jitter * random(), self.max)


Wait = NoWait | FixedWait | ExponentialWait


def _never_cancellation(error: BaseException) -> bool:
    # Only ordinary errors are retried: cancellation (a BaseException since 3.8),
    # KeyboardInterrupt and SystemExit always propagate, whatever the policy says.
    return isinstance(error, Exception)


@final
@attrs.frozen(repr=False)
class RetryPolicy:
    """Stop after ``max_attempts`` attempts (or once the waits would pass ``max_delay``)."""

    max_attempts: int = 3
    wait: Wait = NoWait()
    retry_on: RetryOn = (Exception,)
    max_delay: float | None = None

    def __attrs_post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"RetryPolicy needs max_attempts >= 1, got {self.max_attempts}")

    def __repr__(self) -> str:
        # Only what differs from the defaults, as an expression that rebuilds the policy.
        from combinators._support.reprs import changed_fields

        return f"RetryPolicy({', '.join(changed_fields(self))})"

    def should_retry(self, error: BaseException) -> bool:
        """Whether ``error`` is one this policy retries."""
        if not _never_cancellation(error):
            return False
        retry_on = self.retry_on
        if callable(retry_on):
            return bool(retry_on(error))
        return isinstance(error, retry_on)

    def delay_before(self, attempt: int, random: Callable[[], float]) -> float:
        """Seconds to wait before attempt number ``attempt`` (2 for the first retry)."""
        return self.wait.delay(attempt - 1, random)

    def allows(self, attempt: int, waited: float) -> bool:
        """Whether attempt number ``attempt`` may start after ``waited`` seconds of waits."""
        if attempt > self.max_attempts:
            return False
        return self.max_delay is None or waited <= self.max_delay

    @staticmethod
    def from_langchain(
        *,
        retry_if_exception_type: RetryOn = (Exception,),
        wait_exponential_jitter: bool = True,
        exponential_jitter_params: Mapping[str, float] | None = None,
        stop_after_attempt: int = 3,
    ) -> RetryPolicy:
        """The policy LangChain's ``with_retry`` arguments describe.

        >>> RetryPolicy.from_langchain(wait_exponential_jitter=False).wait
        NoWait()
        """
        wait: Wait = NoWait()
        if wait_exponential_jitter:
            params = dict(exponential_jitter_params or {})
            unknown = set(params) - _JITTER_KEYS
            if unknown:
                raise ValueError(
                    f"exponential_jitter_params has unknown keys {sorted(unknown)};"
                    f" expected some of {sorted(_JITTER_KEYS)}"
                )
            wait = ExponentialWait(**params)
        return RetryPolicy(stop_after_attempt, wait, retry_if_exception_type)


_JITTER_KEYS: Final = frozenset({"initial", "exp_base", "jitter", "max"})
