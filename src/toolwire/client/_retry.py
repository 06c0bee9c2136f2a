"""Retry policy: which failures are retried, and how long to wait, on top of tenacity.

Retried: HTTP 408, 409, 429 and 5xx answers, and transport failures (connection refused or
dropped, timeouts). Other answers (400, 401 after the refresh hook, 403, 404...) are raised at once.
The wait before retry ``n`` (1-based) is ``min(initial * multiplier**(n-1), max_delay)`` plus a
random jitter of up to ``jitter`` times that; a server's ``Retry-After``/``retry-after-ms`` hint
replaces it, capped at ``max_retry_after``. tenacity runs the loop, with an injectable sleep so
tests check the waits without sleeping.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import tenacity

from toolwire.client._errors import TransportError
from toolwire.errors import ProviderError

__all__ = ["RETRY_STATUSES", "RetryPolicy", "async_retrying", "retrying"]

RETRY_STATUSES = frozenset({408, 409, 429})
"""Client-error statuses worth retrying (every 5xx is retried too)."""

_log = logging.getLogger("toolwire.client")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently failed calls are retried.

    Attributes:
        max_attempts: attempts in all, the first included (1: no retries).
        initial: wait before the first retry, in seconds.
        multiplier: growth of the wait per retry.
        max_delay: the longest computed wait.
        jitter: random extra wait, as a fraction of the computed wait.
        max_retry_after: the longest server-requested wait honoured (longer ones are capped).
        retry_transport_errors: retry connection failures and timeouts.
    """

    max_attempts: int = 3
    initial: float = 0.5
    multiplier: float = 2.0
    max_delay: float = 8.0
    jitter: float = 0.25
    max_retry_after: float = 60.0
    retry_transport_errors: bool = True

    def should_retry(self, exc: BaseException) -> bool:
        """Whether a call that failed with ``exc`` may be tried again."""
        if isinstance(exc, ProviderError):
            status = exc.status
            return status is not None and (status in RETRY_STATUSES or status >= 500)
        return self.retry_transport_errors and isinstance(exc, TransportError)

    def backoff(self, retry: int, unit: float) -> float:
        """The computed wait before retry number ``retry`` (1-based); ``unit`` is in [0, 1)."""
        base = min(self.initial * self.multiplier ** (retry - 1), self.max_delay)
        return base + base * self.jitter * unit

    def delay(self, retry: int, exc: BaseException | None, unit: float) -> float:
        """The wait before retry ``retry`` after ``exc``: the server's hint (capped) or the backoff."""
        hint = getattr(exc, "retry_after", None)
        if isinstance(hint, int | float):
            return min(float(hint), self.max_retry_after)
        return self.backoff(retry, unit)


class _Wait(tenacity.wait.wait_base):
    """tenacity wait strategy delegating to :meth:`RetryPolicy.delay`."""

    def __init__(self, policy: RetryPolicy, rng: Callable[[], float]) -> None:
        self.policy = policy
        self.rng = rng

    def __call__(self, retry_state: tenacity.RetryCallState) -> float:
        outcome = retry_state.outcome
        exc = outcome.exception() if outcome is not None else None
        return self.policy.delay(retry_state.attempt_number, exc, self.rng())


def _before_sleep(state: tenacity.RetryCallState) -> None:
    outcome = state.outcome
    exc = outcome.exception() if outcome is not None else None
    wait = state.next_action.sleep if state.next_action is not None else 0.0
    _log.info("retrying after %s (attempt %d) in %.3fs", type(exc).__name__, state.attempt_number, wait)


def _kwargs(policy: RetryPolicy, rng: Callable[[], float] | None) -> dict[str, object]:
    return {
        "stop": tenacity.stop_after_attempt(max(policy.max_attempts, 1)),
        "wait": _Wait(policy, rng or random.random),
        "retry": tenacity.retry_if_exception(policy.should_retry),
        "before_sleep": _before_sleep,
        "reraise": True,
    }


def retrying(
    policy: RetryPolicy, sleep: Callable[[float], None], rng: Callable[[], float] | None = None
) -> tenacity.Retrying:
    """A tenacity controller for blocking calls (``for attempt in retrying(...): with attempt:``)."""
    return tenacity.Retrying(sleep=sleep, **_kwargs(policy, rng))  # type: ignore[arg-type]


def async_retrying(
    policy: RetryPolicy,
    sleep: Callable[[float], Awaitable[None]],
    rng: Callable[[], float] | None = None,
) -> tenacity.AsyncRetrying:
    """A tenacity controller for async calls (``async for attempt in async_retrying(...):``)."""
    return tenacity.AsyncRetrying(sleep=sleep, **_kwargs(policy, rng))  # type: ignore[arg-type]
