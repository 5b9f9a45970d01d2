"""Refresh bookkeeping for lists, without Textual: when to refresh next and what changed.

The list screen re-arms a one-shot timer after every refresh with :meth:`RefreshSchedule.delay`
and applies :func:`diff_items` to its table, so rows are updated in place (the cursor, selection
and scroll position stay put) instead of being cleared and re-added.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Container, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tui.api.errors import (
    ApiError,
    CloudError,
    Forbidden,
    NotFound,
    RateLimited,
    TimeoutFailure,
    TransportFailure,
    Unauthorized,
    may_have_been_carried_out,
)
from tui.untrusted import Shown, shown

MAYBE_DONE = "the request may have been carried out"
"""The words a user sees when a change was sent and its answer was lost."""

ApiHealth = Literal["online", "unreachable", "rate_limited", "error", "retrying"]
"""What the status bar says about the API after the last request of a refresh."""

Item = Mapping[str, Any]


@dataclass(frozen=True)
class RefreshPolicy:
    """Intervals, seconds.

    Attributes:
        fast: While something visible is in a transitional status.
        slow: At rest.
        max_backoff: Upper bound of the delay after repeated failures (a server's
            ``Retry-After`` is honoured even when longer).
    """

    fast: float = 2.5
    slow: float = 30.0
    max_backoff: float = 300.0
    budget: float = 30.0
    """Requests per minute a list may spend on full refreshes, however many items it has."""
    item_polls: int = 4
    """Most transitional items a large list fetches one by one per fast refresh."""

    @classmethod
    def from_settings(cls, refresh: Any) -> RefreshPolicy:
        """Build from ``Settings.refresh`` (anything with ``fast``, ``slow``, ``max_backoff``)."""
        return cls(float(refresh.fast), float(refresh.slow), float(refresh.max_backoff))


def rest_interval(policy: RefreshPolicy, requests: int = 1) -> float:
    """Seconds between full refreshes of a list that takes ``requests`` requests to fetch.

    The slow interval, stretched so full refreshes stay within ``policy.budget`` requests per
    minute: a 10,000-item list fetched in 25 requests refreshes every 50 s, not every 30 s.
    """
    if policy.budget <= 0:
        return policy.slow
    return max(policy.slow, max(1, requests) * 60.0 / policy.budget)


def next_delay(
    policy: RefreshPolicy,
    *,
    transitional: bool,
    failures: int = 0,
    retry_after: float | None = None,
    requests: int = 1,
) -> float:
    """Seconds until the next refresh.

    Args:
        policy: The intervals.
        transitional: Whether any visible item is changing state.
        failures: Consecutive failed refreshes (0 after a success).
        retry_after: Seconds the server asked to wait (429), if it said.
        requests: Requests a full refresh of the list takes (see :func:`rest_interval`).

    Returns:
        The fast or slow interval; after failures, that interval doubled per failure and capped
        at ``max_backoff``; never less than ``retry_after``.
    """
    base = policy.fast if transitional else rest_interval(policy, requests)
    delay = base
    if failures > 0:
        # Exponential backoff from the current interval; the exponent is capped so the
        # arithmetic stays small however long the outage lasts.
        delay = min(policy.max_backoff, max(base, base * 2 ** min(failures, 16)))
    if retry_after is not None:
        delay = max(delay, retry_after)
    return delay


def classify(error: BaseException | None) -> ApiHealth:
    """How an error (or None for success) reads in the status bar."""
    if error is None:
        return "online"
    if isinstance(error, RateLimited):
        return "rate_limited"
    if isinstance(error, TransportFailure):
        return "unreachable"
    return "error"


def is_permanent(error: BaseException) -> bool:
    """True for refusals that retrying will not change (token, permission, missing item)."""
    return isinstance(error, Unauthorized | Forbidden | NotFound)


def describe_error(error: BaseException) -> Shown:
    """One or two sentences for the user about a failed request (no traceback, no token).

    Args:
        error: What the client raised.

    Returns:
        Display text saying what failed and what it means (the server's reasons and paths
        went through the text boundary).
    """
    return shown(_describe(error))


def _describe(error: BaseException) -> str:
    if may_have_been_carried_out(error):
        return _maybe_done_text(error)
    if isinstance(error, RateLimited):
        wait = f" (the API asked to wait {error.retry_after:.0f} s)" if error.retry_after else ""
        return f"The API is rate limiting requests{wait}."
    if isinstance(error, TransportFailure):
        return f"The API is unreachable: {error.reason}."
    if isinstance(error, Unauthorized):
        return f"The API rejected the token ({error.reasons}). Sign in again (cloudtui login)."
    if isinstance(error, Forbidden):
        if error.reasons == f"HTTP {error.status}":
            # The server said nothing more: name the usual causes.
            return (
                "Not allowed: the token's scopes or the user's grants do not cover this "
                "(some areas need an unrestricted user)."
            )
        return f"Not allowed: {error.reasons}."
    if isinstance(error, NotFound):
        return (
            f"Not found: {error.method} {error.path} ({error.reasons}); it may have been deleted."
        )
    if isinstance(error, ApiError):
        return f"{error.method} {error.path} failed ({error.status}): {error.reasons}."
    return f"{type(error).__name__}: {error}"


def _maybe_done_text(error: BaseException) -> str:
    method = getattr(error, "method", "")
    path = getattr(error, "path", "")
    if isinstance(error, TransportFailure):
        why = f"the answer never came ({error.reason})"
    else:
        why = f"an earlier try lost its answer, then the server said: {describe_error_plain(error)}"
    return (
        f"{method} {path}: {why}. {MAYBE_DONE[0].upper()}{MAYBE_DONE[1:]}: "
        "the list is refreshed to show it; check it before sending again."
    )


def describe_error_plain(error: BaseException) -> str:
    """:func:`describe_error` without the "may have been carried out" wording."""
    if isinstance(error, ApiError):
        return f"{error.status} {error.reasons}"
    return str(error)


def retry_text(error: BaseException, wait: float) -> str:
    """Status-bar words for a request about to be retried after ``error``, ``wait`` s later.

    Example: ``no answer in time: retrying GET /volumes in 1 s``.
    """
    if isinstance(error, RateLimited):
        why = "rate limited"
    elif isinstance(error, TimeoutFailure):
        why = "no answer in time"
    elif isinstance(error, TransportFailure):
        why = "connection lost" if error.sent else "cannot connect"
    elif isinstance(error, ApiError):
        why = f"server error {error.status}"
    else:
        why = type(error).__name__
    method = getattr(error, "method", "")
    path = getattr(error, "path", "")
    seconds = max(wait, 0.0)
    when = f"{seconds:.1f}" if seconds < 10 else f"{seconds:.0f}"
    return f"{why}: retrying {method} {path} in {when} s"


def error_title(error: BaseException) -> Shown:
    """A short notification title for ``error``."""
    if may_have_been_carried_out(error):
        return "Outcome unknown"
    return {
        "rate_limited": "Rate limited",
        "unreachable": "API unreachable",
    }.get(classify(error), "Not allowed" if isinstance(error, Forbidden) else "API error")


@dataclass
class RefreshSchedule:
    """Consecutive failures and the next delay of one refreshing list.

    Args:
        policy: The intervals.
    """

    policy: RefreshPolicy = field(default_factory=RefreshPolicy)
    failures: int = 0
    retry_after: float | None = None
    requests: int = 1
    """Requests a full refresh of the list takes (the list sets it after each refresh)."""

    def succeeded(self, *, transitional: bool) -> float:
        """Record a successful refresh; returns the delay until the next one."""
        self.failures = 0
        self.retry_after = None
        return next_delay(self.policy, transitional=transitional, requests=self.requests)

    def failed(self, error: BaseException, *, transitional: bool) -> float:
        """Record a failed refresh; returns the (backed-off) delay until the next one.

        A refusal that waiting cannot fix (401, 403, 404) waits the longest backoff: the user
        retries with ``r`` after changing something, rather than the list asking every minute.
        """
        self.failures += 1
        self.retry_after = getattr(error, "retry_after", None)
        if is_permanent(error):
            return self.policy.max_backoff
        return next_delay(
            self.policy,
            transitional=transitional,
            failures=self.failures,
            retry_after=self.retry_after,
            requests=self.requests,
        )

    @staticmethod
    def is_expected(error: BaseException) -> bool:
        """True for API and network failures (shown in place, never a crash)."""
        return isinstance(error, CloudError)


RefreshMode = Literal["full", "items"]
"""A whole-list refresh, or only the transitional items fetched one by one."""


def refresh_mode(
    policy: RefreshPolicy, *, requests: int, transitional: int, since_full: float
) -> RefreshMode:
    """What the next refresh of a list fetches.

    A list that a few requests fetch (most lists) always refreshes whole. A longer one (more
    requests than ``policy.item_polls``), while some of its items change state, fetches only
    those items (one request each, at most ``policy.item_polls``) at the fast interval, and the
    whole list only once its rest interval has passed: status changes still show within the
    fast interval while the request rate does not grow with the list's length.

    Args:
        policy: The intervals and budget.
        requests: Requests a full refresh takes.
        transitional: How many items are in a transitional status.
        since_full: Seconds since the last full refresh.

    Returns:
        ``"full"`` or ``"items"``.
    """
    if (
        transitional <= 0
        or requests <= policy.item_polls
        or since_full >= rest_interval(policy, requests)
    ):
        return "full"
    return "items"


def pick_polls(
    keys: Iterable[Hashable],
    *,
    visible: Container[Hashable],
    polled_at: Mapping[Hashable, float],
    limit: int,
) -> list[Hashable]:
    """Which transitional items to fetch one by one: visible ones first, then the least
    recently fetched, so every item gets its turn when more than ``limit`` are changing."""
    ranked = sorted(keys, key=lambda k: (k not in visible, polled_at.get(k, 0.0)))
    return ranked[: max(0, limit)]


@dataclass(frozen=True)
class Diff:
    """Changes between two snapshots of a list, keyed by id.

    Attributes:
        added: Keys present only in the new snapshot.
        removed: Keys present only in the old snapshot.
        changed: Keys present in both whose item differs.
        order: Every key of the new snapshot, in its order.
        items: The new snapshot by key (built once while diffing).
    """

    added: tuple[Hashable, ...] = ()
    removed: tuple[Hashable, ...] = ()
    changed: tuple[Hashable, ...] = ()
    order: tuple[Hashable, ...] = ()
    items: Mapping[Hashable, Item] = field(default_factory=dict, compare=False, repr=False)

    @property
    def empty(self) -> bool:
        """True when nothing was added, removed or changed."""
        return not (self.added or self.removed or self.changed)


def index_items(items: Iterable[Item], key: Callable[[Item], Hashable]) -> dict[Hashable, Item]:
    """Items by key, in order (a later duplicate key wins, as on the server)."""
    return {key(item): item for item in items}


def diff_items(
    old: Mapping[Hashable, Item], new: Sequence[Item], key: Callable[[Item], Hashable]
) -> Diff:
    """Compare a list's current items with a fresh answer.

    Args:
        old: Current items by key.
        new: The fresh items, in server order.
        key: Key of an item (its id).

    Returns:
        What to add, remove and update.
    """
    fresh = index_items(new, key)
    added = tuple(k for k in fresh if k not in old)
    removed = tuple(k for k in old if k not in fresh)
    changed = tuple(k for k, item in fresh.items() if k in old and old[k] != item)
    return Diff(added, removed, changed, tuple(fresh), fresh)


DIFF_CHUNK = 2000
"""Items compared between two yields to the event loop (about 5 ms of work here)."""


async def diff_items_chunked(
    old: Mapping[Hashable, Item],
    new: Sequence[Item],
    key: Callable[[Item], Hashable],
    *,
    chunk: int = DIFF_CHUNK,
) -> Diff:
    """:func:`diff_items` that lets other tasks run every ``chunk`` items.

    Diffing 10,000 items takes about 40 ms here, and the work grows with the list; in chunks,
    keys typed meanwhile are handled within a few milliseconds however long the list is.
    ``old`` must not change while this runs (the refresh that owns it is the only writer).
    """
    fresh: dict[Hashable, Item] = {}
    changed: list[Hashable] = []
    added: list[Hashable] = []
    for start in range(0, len(new), chunk):
        for item in new[start : start + chunk]:
            k = key(item)
            fresh[k] = item
        await asyncio.sleep(0)
    keys = list(fresh)
    for start in range(0, len(keys), chunk):
        for k in keys[start : start + chunk]:
            previous = old.get(k)
            if previous is None and k not in old:
                added.append(k)
            elif previous != fresh[k]:
                changed.append(k)
        await asyncio.sleep(0)
    removed = tuple(k for k in old if k not in fresh)
    return Diff(tuple(added), removed, tuple(changed), tuple(keys), fresh)


def diff_polled(
    old: Mapping[Hashable, Item], fresh: Mapping[Hashable, Item], gone: Collection[Hashable]
) -> Diff:
    """The :class:`Diff` of a list after fetching some of its items one by one.

    Only the fetched items can have changed, so only they are compared: a fast refresh of a
    10,000-item list then costs what its few polled items cost, not a diff of the whole list.

    Args:
        old: Current items by key.
        fresh: The fetched items by key (each one already in ``old``).
        gone: Keys whose fetch said the item no longer exists.

    Returns:
        What to remove and update (nothing is added by polling).
    """
    removed = tuple(k for k in old if k in gone) if gone else ()
    items = {k: fresh.get(k, item) for k, item in old.items() if not (gone and k in gone)}
    changed = tuple(k for k, item in fresh.items() if k in items and old[k] != item)
    return Diff((), removed, changed, tuple(items), items)


@dataclass(frozen=True)
class Settled:
    """An item that left a transitional status.

    Attributes:
        key: Its key.
        label: Its display name.
        before: The transitional status it had.
        after: The status it has now.
    """

    key: Hashable
    label: str
    before: str
    after: str

    @property
    def message(self) -> Shown:
        """``web-1 is now running``."""
        return shown(f"{self.label} is now {self.after.replace('_', ' ')}")


def settled_items(
    old: Mapping[Hashable, Item],
    new: Mapping[Hashable, Item],
    *,
    status: Callable[[Item], str | None],
    transitional: Callable[[str], bool],
    label: Callable[[Item], str],
    keys: Iterable[Hashable] | None = None,
) -> list[Settled]:
    """Items whose status went from transitional to settled between two snapshots.

    Args:
        old: Items before the refresh, by key.
        new: Items after the refresh, by key.
        status: Status of an item.
        transitional: Whether a status is transitional.
        label: Display name of an item.
        keys: Only look at these keys (a diff's ``changed``: unchanged items cannot settle).

    Returns:
        One entry per settled item, in the new order.
    """
    out: list[Settled] = []
    for key in new if keys is None else keys:
        item = new.get(key)
        previous = old.get(key)
        if item is None:
            continue
        if previous is None:
            continue
        before, after = status(previous), status(item)
        if (
            before
            and after
            and before != after
            and transitional(before)
            and not transitional(after)
        ):
            out.append(Settled(key, label(item), before, after))
    return out
