"""Deterministic demo data: users first, then every area's seeder in order."""

from __future__ import annotations

import random
from typing import Any

from tui.simulator import registry
from tui.simulator.context import SeedContext
from tui.simulator.demo_users import ensure_users, grant_restricted
from tui.simulator.store import Store

__all__ = ["ensure_users", "grant_restricted", "seed_demo"]
# The demo users live in their own module (below the seeders' context, which grants entities to
# them); they are re-exported here because tests and benchmarks seed through this module.


def seed_demo(store: Store, now: float, *, scale: int = 0) -> None:
    """Fill ``store`` with the demo account.

    Args:
        store: An empty store.
        now: Seed time, epoch seconds.
        scale: Extra instances for benchmarks (other resources proportionally).
    """
    from tui.simulator import seeds as _seeds  # noqa: F401  (registers seeders)

    ensure_users(store)
    shared: dict[str, Any] = {}
    for _order, area, fn in registry.SEEDERS:
        # One random stream per area: adding data to one area never changes another's.
        ctx = SeedContext(store, now, random.Random(f"cloudtui-{area}"), scale, shared)
        fn(ctx)
    store.dirty = False
