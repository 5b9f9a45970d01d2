"""The overview of every account: counts, attention and monthly cost per account, and totals.

Each account's overview is loaded as the single-account overview loads it
(:func:`tui.home.overview.load_overview`), all accounts at once through their own sessions
(:class:`tui.accounts.fanout.FanoutSessions`); an account that fails shows its reason and
still leaves the others and the totals of those that answered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tui.accounts.fanout import FanoutSessions
from tui.accounts.switch import AccountUnavailable
from tui.home.cost import cost_summary
from tui.home.overview import Attention, OverviewData, attention, load_overview
from tui.resources.pricing import money

PARTS: tuple[tuple[str, str], ...] = (
    ("instances", "Instances"),
    ("volumes", "Volumes"),
    ("balancers", "Balancers"),
    ("domains", "Domains"),
    ("clusters", "Clusters"),
    ("databases", "Databases"),
    ("buckets", "Buckets"),
)
"""Overview parts counted per account -> column title."""


UNPRICED_NOTE = "A cost ending in + leaves out items whose price is not listed."


@dataclass(frozen=True)
class AccountOverview:
    """One account's overview.

    Attributes:
        account: Profile name.
        counts: Items per part (parts that failed are missing).
        attention: What needs a look.
        monthly: Estimated monthly cost of what was priced.
        unpriced: Items without a price.
        errors: Part -> why it could not be loaded.
        error: Why the account could not be asked at all ('' when it could).
    """

    account: str
    counts: dict[str, int] = field(default_factory=dict)
    attention: list[Attention] = field(default_factory=list)
    monthly: float = 0.0
    unpriced: int = 0
    errors: dict[str, str] = field(default_factory=dict)
    error: str = ""

    @property
    def attention_count(self) -> int:
        """Items needing attention (over every attention row)."""
        return sum(a.count for a in self.attention)

    def problem(self) -> str:
        """The account's error, or the first part's, or ''."""
        if self.error:
            return self.error
        return next(iter(self.errors.values()), "")


async def account_overview(sessions: FanoutSessions, name: str, now: float) -> AccountOverview:
    """Load the overview of account ``name`` (every part; failures are recorded)."""
    try:
        session = sessions.session(name)
    except AccountUnavailable as exc:
        return AccountOverview(name, error=str(exc))
    data = OverviewData()
    await load_overview(session.client, data, lambda _part: None)
    cost = cost_summary(data)
    counts = {part: len(data.parts[part]) for part, _title in PARTS if part in data.parts}
    if not data.parts and data.errors:
        return AccountOverview(name, error=next(iter(data.errors.values())))
    return AccountOverview(
        name, counts, attention(data, now), cost.total, cost.missing, dict(data.errors)
    )


async def overview_all(
    sessions: FanoutSessions,
    names: Sequence[str],
    now: float,
    arrived: Callable[[AccountOverview], None],
) -> list[AccountOverview]:
    """Every account's overview at once; ``arrived`` gets each as it comes."""

    async def one(name: str) -> AccountOverview:
        result = await account_overview(sessions, name, now)
        arrived(result)
        return result

    return list(await asyncio.gather(*(one(name) for name in names)))


def overview_row(overview: AccountOverview) -> tuple[str, ...]:
    """The cells of one account: counts ("?" for a part that failed), attention, cost."""
    if overview.error:
        return (overview.account, *("?" for _ in PARTS), "?", "?")
    counts = (f"{overview.counts[p]:,}" if p in overview.counts else "?" for p, _title in PARTS)
    cost = money(overview.monthly) + ("+" if overview.unpriced else "")
    return (overview.account, *counts, f"{overview.attention_count:,}", cost)


def total_row(overviews: Sequence[AccountOverview]) -> tuple[str, ...]:
    """The Total cells over the accounts that answered (their number is in the first cell)."""
    answered = [o for o in overviews if not o.error]
    counts = (f"{sum(o.counts.get(p, 0) for o in answered):,}" for p, _title in PARTS)
    attention_total = sum(o.attention_count for o in answered)
    cost = money(sum(o.monthly for o in answered))
    cost += "+" if any(o.unpriced for o in answered) else ""
    return (f"Total ({len(answered)})", *counts, f"{attention_total:,}", cost)


def attention_lines(overviews: Sequence[AccountOverview]) -> list[str]:
    """``beta: 2 instances offline`` per attention row, and ``✖ gamma: reason`` per failure."""
    lines: list[str] = []
    for overview in overviews:
        problem = overview.problem()
        if problem:
            lines.append(f"✖ {overview.account}: {problem}")
        lines.extend(f"{overview.account}: {a.text()}" for a in overview.attention)
    if any(o.unpriced for o in overviews if not o.error):
        lines.append(UNPRICED_NOTE)
    return lines
