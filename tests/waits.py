"""Waiting in tests: for a condition, bounded by a deadline in seconds, never a count of looks.

A count of pauses is a hidden timing assumption: on an idle machine 400 looks take a second,
beside two CPU-bound processes on two cores they take far longer or far less work gets done
in each, and a test that passes alone fails under load. A deadline only matters when
something is wrong (a hang, a condition that never holds), so it is generous.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

WAIT_LIMIT = 60.0
"""Seconds any wait allows before failing the test. Only a hang or a bug reaches it: a loaded
machine takes seconds where an idle one takes milliseconds."""


class Deadline:
    """A point in time a wait must not pass.

    Args:
        seconds: From now.
    """

    def __init__(self, seconds: float = WAIT_LIMIT) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    @property
    def passed(self) -> bool:
        """True once the deadline is behind us."""
        return time.monotonic() > self.end

    @property
    def left(self) -> float:
        """Seconds until the deadline (0 once it has passed)."""
        return max(self.end - time.monotonic(), 0.0)


async def eventually(
    condition: Callable[[], Any],
    what: str = "the condition",
    *,
    seconds: float = WAIT_LIMIT,
    poll: float = 0.0,
) -> None:
    """Yield to the event loop until ``condition()`` holds (no app: a task, a server).

    Args:
        condition: Looked at before each yield.
        what: Named in the failure.
        seconds: The deadline.
        poll: Seconds between looks (0: whenever the loop comes back).

    Raises:
        AssertionError: ``condition()`` still fails after ``seconds``.
    """
    deadline = Deadline(seconds)
    while not condition():
        if deadline.passed:
            raise AssertionError(f"{what} did not happen within {seconds:g} s")
        await asyncio.sleep(poll)
