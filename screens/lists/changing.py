"""Which items of a list are changing state, and the cheap refresh that fetches only them.

A long list refreshed on a timer need not be listed again whole while a few of its items boot
or resize: :class:`ChangingItems` keeps the keys of the items in a transitional status up to
date as pages arrive and refreshes apply (scanning 10,000 items for them would cost about
15 ms per refresh), says when a timed refresh may poll only them
(:func:`tui.refresh.refresh_mode`), and polls them, those on screen first.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from tui.api.errors import NotFound
from tui.refresh import Diff, RefreshMode, RefreshPolicy, diff_polled, pick_polls, refresh_mode
from tui.resources.loader import fetch_item
from tui.resources.spec import ResourceSpec

if TYPE_CHECKING:
    from tui.api.client import ApiClient

Items = Mapping[Hashable, dict[str, Any]]


class ChangingItems:
    """The items of one list in a transitional status, and when it was last listed whole.

    Args:
        spec: What the list shows.
    """

    def __init__(self, spec: ResourceSpec) -> None:
        self.spec = spec
        self.keys: set[Hashable] = set()
        """Keys of the items in a transitional status."""
        self._full_at = 0.0
        self._polled_at: dict[Hashable, float] = {}

    def __bool__(self) -> bool:
        # Every item of the list counts, filtered out or not: a filter is a view, and a row
        # that settles behind it should still be noticed quickly.
        return bool(self.keys)

    def arrived(self, key: Hashable, item: Mapping[str, Any]) -> None:
        """An item of a page of the first load."""
        if self.spec.is_transitional(item):
            self.keys.add(key)

    def applied(self, diff: Diff[dict[str, Any]]) -> None:
        """A refresh applied: only added, changed and removed items can enter or leave a
        transitional status."""
        self.keys.difference_update(diff.removed)
        for key in (*diff.added, *diff.changed):
            if self.spec.is_transitional(diff.items[key]):
                self.keys.add(key)
            else:
                self.keys.discard(key)

    def listed_whole(self) -> None:
        """The list was just fetched whole (its first load, or a full refresh)."""
        self._full_at = time.monotonic()

    def mode(self, policy: RefreshPolicy, requests: int) -> RefreshMode:
        """How a timed refresh fetches the list: whole, or only its changing items."""
        if not self.spec.view_endpoint or self.spec.adapter:
            return "full"
        return refresh_mode(
            policy,
            requests=requests,
            transitional=len(self.keys),
            since_full=time.monotonic() - self._full_at,
        )

    async def poll(
        self,
        client: ApiClient,
        items: Items,
        params: Mapping[str, Any],
        *,
        visible: set[Hashable],
        limit: int,
    ) -> Diff[dict[str, Any]]:
        """Fetch the changing items (``visible`` ones first, ``limit`` at most) one by one.

        Returns:
            What changed in ``items``: updated items, and those deleted meanwhile.

        Raises:
            CloudError: A fetch failed otherwise than with "not found".
        """
        changing = [k for k in self.keys if k in items]
        chosen = pick_polls(changing, visible=visible, polled_at=self._polled_at, limit=limit)
        answers = await asyncio.gather(
            *(fetch_item(client, self.spec, items[k], params) for k in chosen),
            return_exceptions=True,
        )
        now = time.monotonic()
        self._polled_at = {k: t for k, t in self._polled_at.items() if k in changing}
        fresh: dict[Hashable, dict[str, Any]] = {}
        gone: set[Hashable] = set()
        for key, answer in zip(chosen, answers, strict=True):
            self._polled_at[key] = now
            if isinstance(answer, NotFound):
                gone.add(key)  # deleted meanwhile
            elif isinstance(answer, BaseException):
                raise answer
            else:
                fresh[key] = answer
        return diff_polled(items, fresh, gone)
