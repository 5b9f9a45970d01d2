"""The account as the rules see it: its listings (plain dicts), the time and the settings
they depend on, and what several rules derive from them, computed once (headless)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from tui.check.addresses import instance_addresses_by_region, owned_addresses
from tui.resources.pricing import price_of_backups, price_of_instance

DAY = 86400.0

PARENT = "_parent"
"""Field a child listing's items carry: the path parameters of the object they belong to
(a record's ``{domainId}``, a node's ``{loadbalancerId, configId}``)."""


def timestamp(value: Any) -> float | None:
    """Epoch seconds of an API date-time (UTC, with or without an offset); None if unreadable."""
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()


def day_text(seconds: float) -> str:
    """``2026-10-21``: a date in UTC."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d")


@dataclass
class Account:
    """What the rules read.

    Attributes:
        listings: Listing name -> its items (:data:`tui.check.gather.LISTINGS`).
        now: Epoch seconds the rules measure ages against (the simulator's clock in the demo).
        important_tags: Tags that mark an instance as important (the ``[check]`` setting).
    """

    listings: Mapping[str, list[dict[str, Any]]]
    now: float
    important_tags: frozenset[str] = field(default_factory=frozenset)

    def items(self, name: str) -> list[dict[str, Any]]:
        """The items of listing ``name`` ([] when it was not fetched)."""
        return self.listings.get(name, [])

    @cached_property
    def types(self) -> dict[str, Mapping[str, Any]]:
        """Instance types by id (the prices)."""
        return {str(t.get("id")): t for t in self.items("types")}

    @cached_property
    def owned(self) -> frozenset[str]:
        """Every address the account's instances and load balancers hold."""
        return owned_addresses(self.items("instances"), self.items("balancers"))

    @cached_property
    def instance_addresses(self) -> dict[str, frozenset[str]]:
        """Region -> its instances' addresses."""
        return instance_addresses_by_region(self.items("instances"))

    @cached_property
    def balancers(self) -> dict[str, Mapping[str, Any]]:
        """Load balancers by id."""
        return {str(b.get("id")): b for b in self.items("balancers")}

    def instance_price(self, instance: Mapping[str, Any]) -> float | None:
        """What ``instance`` costs a month: its type, plus the backups add-on when enabled."""
        kind = self.types.get(str(instance.get("type")))
        base = price_of_instance(kind)
        if base is None:
            return None
        backups = instance.get("backups")
        if isinstance(backups, Mapping) and backups.get("enabled"):
            addon = price_of_backups(kind)
            if addon is None:
                return None  # part of what it costs is not given: no figure at all
            base = base + addon
        return base.monthly
