"""When and how long to retry a failed request.

POST is retried only when the server certainly did not act on it: a 429, or a connection that
failed before the request was sent. Retrying a POST after a 502 could create a duplicate
instance, so it is never done.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from tui.api.errors import ApiError, CloudError, RateLimited, TransportFailure

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
RETRY_STATUSES = frozenset({408, 429, 502, 503, 504})

Sleep = Callable[[float], Awaitable[None]]


@dataclass
class RetryPolicy:
    """Exponential backoff with full jitter, honouring ``Retry-After``.

    Attributes:
        max_attempts: Total tries including the first.
        base_delay: Delay before the first retry, before jitter.
        max_delay: Upper bound of one computed delay.
        max_retry_after: Upper bound of a server-requested delay we are willing to wait.
        sleep: Awaitable sleep; tests inject a recorder so they run instantly.
        rng: Random source in [0, 1) for jitter.
    """

    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0
    sleep: Sleep = field(default=asyncio.sleep)
    rng: Callable[[], float] = field(default=random.random)

    def should_retry(self, method: str, error: CloudError, attempt: int) -> bool:
        """Decide whether ``error`` on try number ``attempt`` (1-based) deserves another try.

        Args:
            method: The request's HTTP method.
            error: What the try raised.
            attempt: How many tries have been made so far.

        Returns:
            True when another try is allowed and safe.
        """
        if attempt >= self.max_attempts:
            return False
        method = method.upper()
        if isinstance(error, TransportFailure):
            # A connection that never carried the request is safe to retry for every method.
            return not error.sent or method in IDEMPOTENT_METHODS
        if isinstance(error, ApiError):
            if error.status == 429:
                return True
            return method in IDEMPOTENT_METHODS and error.status in RETRY_STATUSES
        return False

    def delay(self, error: CloudError, attempt: int) -> float:
        """Seconds to wait before try ``attempt + 1``.

        Args:
            error: What the previous try raised.
            attempt: How many tries have been made so far (1-based).

        Returns:
            The server's ``Retry-After`` when given (capped), else a jittered exponential delay.
        """
        if isinstance(error, RateLimited) and error.retry_after is not None:
            return min(error.retry_after, self.max_retry_after)
        ceiling = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        # Full jitter, but never less than half the step so retries do not hammer the server.
        return ceiling * (0.5 + 0.5 * self.rng())
