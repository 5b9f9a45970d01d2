"""The overview's estimated monthly cost, by area and by tag (headless).

Prices come only from :mod:`tui.resources.pricing` (what the API returns: instance types and
their backups add-on); an item without a price is counted as "price not given", never guessed.
An item with several tags counts toward each of them, so the tags do not add up to the total.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tui.home.overview_data import OverviewData
from tui.resources.pricing import (
    NOT_GIVEN,
    Price,
    money,
    price_of_backups,
    price_of_balancer,
    price_of_database,
    price_of_instance,
    price_of_pool,
    price_of_volume,
)

UNTAGGED = "(untagged)"

PRICED_PARTS = (
    ("instances", "Instances"),
    ("databases", "Databases"),
    ("clusters", "Kubernetes pools"),
    ("pools", "Kubernetes pools"),
    ("balancers", "Load balancers"),
    ("volumes", "Volumes"),
)
"""Overview parts the cost reads, with the title said when one could not be listed."""


@dataclass
class AreaCost:
    """The cost of one area.

    Attributes:
        area: Area title.
        monthly: Sum of the prices given.
        priced: Items with a price.
        missing: Items without one ("price not given").
    """

    area: str
    monthly: float = 0.0
    priced: int = 0
    missing: int = 0

    def text(self) -> str:
        """``Instances $123.00 (12)`` or ``Volumes price not given (6)``."""
        if not self.priced:
            return f"{self.area} {NOT_GIVEN} ({self.missing:,})"
        extra = f", {self.missing:,} {NOT_GIVEN}" if self.missing else ""
        return f"{self.area} {money(self.monthly)} ({self.priced:,}{extra})"


@dataclass
class CostSummary:
    """Estimated monthly cost of the parts loaded so far.

    Attributes:
        areas: Cost per area, in display order.
        tags: Monthly cost per tag (priced items only).
        ready: False while the types (the prices) have not arrived.
    """

    areas: list[AreaCost] = field(default_factory=list)
    tags: dict[str, float] = field(default_factory=dict)
    ready: bool = True

    @property
    def total(self) -> float:
        """Sum over the areas."""
        return sum(a.monthly for a in self.areas)

    @property
    def missing(self) -> int:
        """Items without a price."""
        return sum(a.missing for a in self.areas)


def _tags(*items: Mapping[str, Any]) -> list[str]:
    if len(items) == 1:  # the common case, 10,000 times
        tags = items[0].get("tags")
        return list(dict.fromkeys(t for t in tags if isinstance(t, str))) if tags else [UNTAGGED]
    found: list[str] = []
    for item in items:
        for tag in item.get("tags") or []:
            if isinstance(tag, str) and tag not in found:
                found.append(tag)
    return found or [UNTAGGED]


def _instance_price(kind: Mapping[str, Any] | None, backups: bool) -> Price | None:
    """An instance of type ``kind``, with the backups add-on when enabled (and priced)."""
    price = price_of_instance(kind)
    extra = price_of_backups(kind) if backups and price is not None else None
    return price + extra if price is not None and extra is not None else price


def cost_summary(data: OverviewData) -> CostSummary:
    """The estimated monthly cost of everything loaded so far."""
    summary = CostSummary(ready=data.has("types"))
    types = {str(t.get("id")): t for t in data.items("types")}

    def add(cost: AreaCost, price: Price | None, tags: Iterable[str]) -> None:
        if price is None:
            cost.missing += 1
            return
        cost.priced += 1
        cost.monthly += price.monthly
        for tag in tags:
            summary.tags[tag] = summary.tags.get(tag, 0.0) + price.monthly

    if data.has("instances") and summary.ready:
        cost = AreaCost("Instances")
        # Priced once per (type, backups) pair, not per instance: 10,000 instances, ~20 types.
        prices: dict[tuple[str, bool], Price | None] = {}
        for item in data.items("instances"):
            backups = item.get("backups")
            enabled = bool(type(backups) is dict and backups.get("enabled"))
            group = (str(item.get("type")), enabled)
            if group not in prices:
                prices[group] = _instance_price(types.get(group[0]), enabled)
            add(cost, prices[group], _tags(item))
        summary.areas.append(cost)
    if data.has("databases"):
        cost = AreaCost("Databases")
        for item in data.items("databases"):
            add(cost, price_of_database(item), _tags(item))
        summary.areas.append(cost)
    if data.has("clusters") and summary.ready and data.pools:
        cost = AreaCost("Kubernetes pools")
        clusters = {str(c.get("id")): c for c in data.items("clusters")}
        for cluster_id, pools in data.pools.items():
            for pool in pools:
                kind = types.get(str(pool.get("type")))
                count = int(pool.get("count") or 0)
                tags = _tags(pool, clusters.get(cluster_id, {}))
                add(cost, price_of_pool(kind, count), tags)
        summary.areas.append(cost)
    for part, title, price_of in (
        ("balancers", "Load balancers", price_of_balancer),
        ("volumes", "Volumes", price_of_volume),
    ):
        if data.has(part):
            cost = AreaCost(title)
            for item in data.items(part):
                add(cost, price_of(item), _tags(item))
            summary.areas.append(cost)
    return summary


def cost_lines(data: OverviewData, *, brief: bool = False, top_tags: int = 5) -> str:
    """The cost block of the overview as plain text (shown literally: tags come from the API)."""
    summary = cost_summary(data)
    if "types" in data.errors:
        return f"Prices unavailable: {data.errors['types']}"
    if not summary.ready:
        return "Waiting for the prices (instance types)…"
    head = f"≈ {money(summary.total)}/month"
    if summary.missing:
        head += f"  + {summary.missing:,} item(s) with {NOT_GIVEN}"
    lines = [head, " · ".join(a.text() for a in summary.areas)]
    missing = list(dict.fromkeys(t for part, t in PRICED_PARTS if part in data.errors))
    if missing:
        lines.append(f"Not counted (could not be listed): {', '.join(missing)}")
    tags = sorted(summary.tags.items(), key=lambda kv: (-kv[1], kv[0]))
    if tags and brief:
        shown = " · ".join(f"{tag} {money(amount)}" for tag, amount in tags[:top_tags])
        more = f" · … (c: all {len(tags)} tags)" if len(tags) > top_tags else ""
        lines.append(f"By tag: {shown}{more}")
    elif tags:
        lines += ["", "By tag (an item counts for each of its tags):"]
        lines += [f"  {tag:<30} {money(amount):>12}" for tag, amount in tags]
    return "\n".join(lines)
