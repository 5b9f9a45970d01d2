"""The lists the overview has loaded so far (headless).

Below both :mod:`tui.home.overview` (counts and attention) and :mod:`tui.home.cost` (the cost),
which read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.api.errors import CloudError


@dataclass(repr=False)
class OverviewData:
    """The lists loaded so far, by part (:data:`tui.home.overview.SOURCES` keys and ``"pools"``).

    Attributes:
        parts: Items of each part that arrived.
        errors: Why a part could not be loaded (shown instead of its numbers).
        pools: Pools by cluster id.
        loading: Parts still streaming in: (items so far, total when known).
        version: Bumped when a part completes or fails (what counts, attention and cost read
            changes only then; chunks streaming in only move the progress figures).
        last_error: The error of the last part that failed (what a refresh that loaded
            nothing reports to the status bar), None while none has.
    """

    parts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    pools: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    loading: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    version: int = 0
    last_error: CloudError | None = None

    def __repr__(self) -> str:
        # Short: a repr of 10,000 items (a worker's description, a log line) would take 300 ms.
        sizes = ", ".join(f"{part}={len(items)}" for part, items in self.parts.items())
        return f"OverviewData(version={self.version}, {sizes})"

    def has(self, part: str) -> bool:
        """True when ``part`` has arrived."""
        return part in self.parts

    def items(self, part: str) -> list[dict[str, Any]]:
        """The items of ``part`` ([] until it arrived)."""
        return self.parts.get(part, [])

    def all_pools(self) -> list[dict[str, Any]]:
        """Every pool of every cluster loaded so far."""
        return [pool for pools in self.pools.values() for pool in pools]
