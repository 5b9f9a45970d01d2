"""Fault injection: latency, 5xx, rate limiting, dropped connections, lost answers, stalls,
scripted failures.

A *dropped* connection breaks before the request is handled (the server did nothing); a *lost*
answer breaks after it was handled (the server acted, the client cannot know); a *stall*
answers only after ``stall_seconds``, longer than a client's read timeout.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

LOSE = -1
"""``fail_next`` status meaning: carry the request out, then drop the connection."""
STALL = -2
"""``fail_next`` status meaning: answer only after ``stall_seconds``."""


@dataclass(frozen=True)
class FaultDecision:
    """What to do with one request instead of (or before) handling it.

    Attributes:
        drop: Break the connection without an answer (the request is not handled).
        lose: Handle the request, then break the connection before the answer.
        stall: Seconds to wait before handling and answering (0: none).
        status: Answer with this error status.
        retry_after: ``Retry-After`` seconds (for 429).
        reason: Error reason text.
    """

    drop: bool = False
    lose: bool = False
    stall: float = 0.0
    status: int | None = None
    retry_after: int | None = None
    reason: str = ""


@dataclass
class Faults:
    """Configurable misbehaviour of the simulator.

    Attributes:
        latency: Seconds added to every API request.
        jitter: Up to this many extra seconds, uniformly random.
        error_rate: Share of requests answered with a 5xx (0..1).
        drop_rate: Share of requests whose connection is dropped (0..1).
        rate_limit: Requests allowed per ``rate_window`` seconds (None: unlimited).
        rate_window: Window of the rate limit, seconds.
        lost_response_rate: Share of requests carried out whose answer is then lost (0..1).
        stall_rate: Share of requests answered only after ``stall_seconds`` (0..1).
        stall_seconds: How long a stalled request waits (longer than the client's 30 s read
            timeout by default).
        seed: Seed of the random source, for repeatable runs.
    """

    latency: float = 0.0
    jitter: float = 0.0
    error_rate: float = 0.0
    drop_rate: float = 0.0
    rate_limit: int | None = None
    rate_window: float = 60.0
    lost_response_rate: float = 0.0
    stall_rate: float = 0.0
    stall_seconds: float = 35.0
    seed: int = 7
    _scripted: dict[str, deque[int]] = field(default_factory=dict, repr=False)
    _recent: deque[float] = field(default_factory=deque, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def fail_next(self, operation: str, count: int, status: int) -> None:
        """Make the next ``count`` calls of ``operation`` fail with ``status``.

        Args:
            operation: Endpoint name (``compute.instances.list``) or ``*`` for any operation.
            count: How many calls.
            status: HTTP status to answer, 0 to drop the connection, :data:`LOSE` to carry the
                request out and lose the answer, :data:`STALL` to answer late.
        """
        queue = self._scripted.setdefault(operation, deque())
        queue.extend([status] * count)

    def clear(self) -> None:
        """Remove every fault."""
        self.latency = self.jitter = self.error_rate = self.drop_rate = 0.0
        self.lost_response_rate = self.stall_rate = 0.0
        self.rate_limit = None
        self._scripted.clear()
        self._recent.clear()

    def delay(self) -> float:
        """Seconds to wait before answering this request."""
        if self.latency <= 0 and self.jitter <= 0:
            return 0.0
        return self.latency + (self.rng.random() * self.jitter if self.jitter > 0 else 0.0)

    def decide(self, operation: str, now: float) -> FaultDecision | None:
        """Decide whether this request misbehaves.

        Args:
            operation: Endpoint name of the request.
            now: Current time (real seconds; the rate window is measured in it).

        Returns:
            A decision, or None to handle the request normally.
        """
        for key in (operation, "*"):
            queue = self._scripted.get(key)
            if queue:
                status = queue.popleft()
                if status == 0:
                    return FaultDecision(drop=True)
                if status == LOSE:
                    return FaultDecision(lose=True)
                if status == STALL:
                    return FaultDecision(stall=self.stall_seconds)
                return FaultDecision(
                    status=status,
                    retry_after=1 if status == 429 else None,
                    reason=f"Injected failure ({status})",
                )
        if self.rate_limit is not None:
            while self._recent and now - self._recent[0] >= self.rate_window:
                self._recent.popleft()
            if len(self._recent) >= self.rate_limit:
                wait = max(1, int(self.rate_window - (now - self._recent[0])) + 1)
                return FaultDecision(status=429, retry_after=wait, reason="Too many requests")
            self._recent.append(now)
        if self.drop_rate > 0 and self.rng.random() < self.drop_rate:
            return FaultDecision(drop=True)
        if self.error_rate > 0 and self.rng.random() < self.error_rate:
            status = self.rng.choice((500, 502, 503))
            return FaultDecision(status=status, reason="Injected server error")
        # Drawn last, and only when enabled, so runs without these faults keep their sequence.
        if self.lost_response_rate > 0 and self.rng.random() < self.lost_response_rate:
            return FaultDecision(lose=True)
        if self.stall_rate > 0 and self.rng.random() < self.stall_rate:
            return FaultDecision(stall=self.stall_seconds)
        return None
