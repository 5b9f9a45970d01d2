"""The overview's count of findings, from the lists the overview loaded (headless).

The overview lists instances, types, volumes, databases, images, balancers, domains, clusters
and buckets, named as the check's listings (:data:`tui.check.gather.LISTINGS`) are. The rules
that need nothing else run over them at no extra request; the others (records, balancer
ports, object ACLs ...) are left to ``:check``, and :attr:`OverviewCheck.left_out` counts them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.check.account import Account
from tui.check.gather import LISTINGS
from tui.check.rules import RULES
from tui.check.run import AccountCheck, evaluate
from tui.check.silences import Silences


@dataclass(frozen=True)
class OverviewCheck:
    """The check the overview shows.

    Attributes:
        check: The findings of the rules that could run.
        left_out: Rules that need a list the overview does not load.
    """

    check: AccountCheck
    left_out: int


def overview_check(
    parts: Mapping[str, list[dict[str, Any]]],
    *,
    now: float,
    important_tags: Iterable[str] = (),
    silences: Silences | None = None,
) -> OverviewCheck:
    """Run the rules whose every listing is among ``parts`` (the overview's loaded lists).

    Args:
        parts: Overview part -> its items (parts that failed or are loading left out).
        now: Epoch seconds ages are measured against.
        important_tags: ``[check] important_tags``.
        silences: The account's silences.
    """
    listings = {name: items for name, items in parts.items() if name in LISTINGS}
    runnable = [rule for rule in RULES if all(n in listings for n in rule.needs)]
    account = Account(listings, now, frozenset(important_tags))
    result = evaluate(account, runnable, silences=silences)
    return OverviewCheck(result, len(RULES) - len(runnable))


def overview_line(found: OverviewCheck) -> str:
    """``2 errors · 3 warnings · 1 info · saving ≈ $144.00/month`` and what was left out."""
    from tui.check.display import summary

    line = str(summary(found.check))
    if found.left_out:
        line += f"\n{found.left_out} rules need more lists: :check runs every rule."
    return line
