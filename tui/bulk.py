"""Running one action on many items: bounded concurrency, 429 waits, per-item results (headless).

The screens plan a run (which marked items the action allows, which are skipped and why), ask
once, then hand the targets to :class:`BulkRun`. It sends at most ``concurrency`` requests at
once; a 429 that the client's own retries did not absorb pauses every worker until the time the
API named, then the item is tried again. Each item ends ``done`` or ``failed`` with the API's
reason; a stopped run leaves the items it had not started ``skipped``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tui.api.errors import CloudError, RateLimited
from tui.refresh import describe_error
from tui.untrusted import Shown, shown

ItemState = Literal["pending", "running", "waiting", "done", "failed", "skipped"]

DEFAULT_RATE_WAIT = 5.0
"""Seconds to wait after a 429 that named no time."""
MAX_RATE_WAITS = 6
"""429s one item may meet before it counts as failed (the client already retried each)."""


@dataclass
class BulkItem:
    """One target of a bulk run and what became of it.

    Attributes:
        key: The item's key in its list (marks are kept by it).
        label: Display name.
        ident: The item's id as text.
        item: The item itself.
        params: Path parameters of the item's request.
        body: Request body for this item (tags computed per item), or None.
        state: Where it is.
        reason: Why it failed or was skipped.
    """

    key: Hashable
    label: str
    ident: str
    item: Mapping[str, Any]
    params: dict[str, Any]
    body: dict[str, Any] | None = None
    state: ItemState = "pending"
    reason: str = ""

    def line(self) -> Shown:
        """``label (id)`` for lists of targets."""
        if self.ident in ("", self.label):
            return shown(self.label)
        return shown(f"{self.label} (id {self.ident})")


@dataclass
class BulkPlan:
    """Targets the action may run on, and those skipped before anything is sent."""

    targets: list[BulkItem] = field(default_factory=list)
    skipped: list[BulkItem] = field(default_factory=list)


def plan(items: Sequence[BulkItem], check: Callable[[BulkItem], tuple[bool, str]]) -> BulkPlan:
    """Split ``items`` into targets and skipped ones.

    Args:
        items: Candidate items (the marked rows), in list order.
        check: ``(allowed, reason)`` per item (availability: status, grants, tags present).

    Returns:
        The plan; skipped items carry state ``skipped`` and the reason.
    """
    result = BulkPlan()
    for entry in items:
        allowed, reason = check(entry)
        if allowed:
            result.targets.append(entry)
        else:
            entry.state = "skipped"
            entry.reason = reason or "not available"
            result.skipped.append(entry)
    return result


@dataclass(frozen=True)
class Summary:
    """Counts of a finished run."""

    done: int
    failed: int
    skipped: int

    def __str__(self) -> Shown:
        return f"{self.done} done, {self.failed} failed, {self.skipped} skipped"


def summarize(items: Sequence[BulkItem]) -> Summary:
    """Counts of ``items`` by final state."""
    states = [t.state for t in items]
    return Summary(states.count("done"), states.count("failed"), states.count("skipped"))


Send = Callable[[BulkItem], Awaitable[Any]]
Progress = Callable[[BulkItem], None]
Sleep = Callable[[float], Awaitable[None]]


class BulkRun:
    """Sends one request per target with bounded concurrency.

    Args:
        targets: What to act on.
        send: Sends the request of one item (raises :class:`CloudError` on failure).
        concurrency: Requests in flight at most.
        on_progress: Told each time an item changes state (the screen redraws its line).
        sleep: Awaitable sleep (tests inject one that does not wait).
        clock: Monotonic seconds (tests inject one).
    """

    def __init__(
        self,
        targets: Sequence[BulkItem],
        send: Send,
        *,
        concurrency: int = 4,
        on_progress: Progress | None = None,
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.targets = list(targets)
        self.send = send
        self.concurrency = max(1, concurrency)
        self.on_progress = on_progress
        self.sleep = sleep
        self.clock = clock
        self.stopped = False
        self.resume_at = 0.0
        """Until when every worker holds back (a 429 named a time)."""
        self.rate_waits = 0
        """429s met during the run (shown to the user)."""

    def stop(self) -> None:
        """Start no further items; those in flight finish."""
        self.stopped = True

    def _set(self, entry: BulkItem, state: ItemState, reason: str = "") -> None:
        entry.state = state
        entry.reason = reason
        if self.on_progress is not None:
            self.on_progress(entry)

    async def run(self) -> Summary:
        """Run every target; returns the counts (items keep their own state and reason)."""
        queue: asyncio.Queue[BulkItem] = asyncio.Queue()
        for entry in self.targets:
            queue.put_nowait(entry)
        workers = [
            asyncio.create_task(self._worker(queue))
            for _ in range(min(self.concurrency, len(self.targets)))
        ]
        try:
            await asyncio.gather(*workers)
        finally:
            for worker in workers:
                worker.cancel()
        return self.summary()

    def summary(self) -> Summary:
        """Counts so far (of the targets)."""
        return summarize(self.targets)

    async def _hold(self) -> None:
        """Wait while a 429 asked everyone to."""
        while (wait := self.resume_at - self.clock()) > 0:
            await self.sleep(wait)

    async def _worker(self, queue: asyncio.Queue[BulkItem]) -> None:
        while not queue.empty():
            entry = queue.get_nowait()
            if self.stopped:
                self._set(entry, "skipped", "stopped before it was sent")
                continue
            await self._one(entry)

    async def _one(self, entry: BulkItem) -> None:
        waits = 0
        while True:
            await self._hold()
            self._set(entry, "running")
            try:
                await self.send(entry)
            except RateLimited as error:
                waits += 1
                self.rate_waits += 1
                if waits > MAX_RATE_WAITS:
                    self._set(entry, "failed", describe_error(error))
                    return
                delay = error.retry_after or DEFAULT_RATE_WAIT
                self.resume_at = max(self.resume_at, self.clock() + delay)
                self._set(entry, "waiting", f"rate limited; waiting {delay:.0f} s")
                continue
            except CloudError as error:
                self._set(entry, "failed", failure_reason(error))
                return
            self._set(entry, "done")
            return


def failure_reason(error: CloudError) -> str:
    """The API's own reason when it gave one, else a sentence about the failure."""
    reasons = getattr(error, "reasons", "")
    status = getattr(error, "status", None)
    if reasons and not reasons.startswith("HTTP "):
        return f"{reasons} ({status})" if status else reasons
    return describe_error(error)


def tag_body(item: Mapping[str, Any], tag: str, add: bool) -> tuple[dict[str, Any] | None, str]:
    """The update body adding or removing ``tag`` on ``item``, or why nothing is to do.

    Returns:
        ``({"tags": [...]}, "")``, or ``(None, reason)`` when the item already is as asked.
    """
    current = [t for t in (item.get("tags") or []) if isinstance(t, str)]
    present = any(t.lower() == tag.lower() for t in current)
    if add:
        if present:
            return None, f"already tagged {tag}"
        return {"tags": [*current, tag]}, ""
    if not present:
        return None, f"not tagged {tag}"
    return {"tags": [t for t in current if t.lower() != tag.lower()]}, ""
