"""One bound on requests in flight, shared by several listings and handed out in turn.

A fanout lists the same kind of item from several accounts at once. Each listing alone sends
up to :data:`~tui.api.calls.DEFAULT_MAX_CONCURRENCY` pages together; five of them would hold
five times the answers (and their bytes) at once. With one shared bound the first account to
ask would take every slot and the others would wait behind all of its pages; here a freed
slot goes to the parties that wait in turn (round robin), so every account advances at the
same pace and none starves.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Hashable
from types import TracebackType


class FairShare:
    """At most ``total`` requests in flight across every party; waiting parties served in turn.

    Args:
        total: Requests in flight at once, all parties together.
    """

    def __init__(self, total: int) -> None:
        self.total = max(1, total)
        self.busy = 0
        """Slots held now."""
        self._waiting: dict[Hashable, deque[asyncio.Future[None]]] = {}
        self._turns: deque[Hashable] = deque()

    def slots(self, party: Hashable) -> PartySlots:
        """The slots of ``party`` (an account): ``async with`` it around each request."""
        return PartySlots(self, party)

    async def acquire(self, party: Hashable) -> None:
        """Wait for a slot: at once when one is free and nobody waits, else in ``party``'s turn."""
        if self.busy < self.total and not self._turns:
            self.busy += 1
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._waiting.get(party)
        if queue is None:
            queue = self._waiting[party] = deque()
            self._turns.append(party)
        queue.append(granted)
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self.release()  # granted, then cancelled before it could run: pass it on
            else:
                self._forget(party, granted)
            raise

    def release(self) -> None:
        """Give a slot back; the next party in turn that waits gets it."""
        self.busy -= 1
        while self.busy < self.total and self._turns:
            party = self._turns.popleft()
            queue = self._waiting[party]
            granted = queue.popleft()
            if queue:
                self._turns.append(party)  # its next request waits for its next turn
            else:
                del self._waiting[party]
            if not granted.done():
                granted.set_result(None)
                self.busy += 1

    def _forget(self, party: Hashable, granted: asyncio.Future[None]) -> None:
        queue = self._waiting.get(party)
        if queue is None or granted not in queue:
            return
        queue.remove(granted)
        if not queue:
            del self._waiting[party]
            self._turns.remove(party)


class PartySlots:
    """One party's use of a :class:`FairShare`, as an ``async with`` around each request."""

    def __init__(self, share: FairShare, party: Hashable) -> None:
        self._share = share
        self._party = party

    async def __aenter__(self) -> None:
        await self._share.acquire(self._party)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._share.release()
