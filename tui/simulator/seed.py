"""Deterministic demo data: users first, then every area's seeder in order."""

from __future__ import annotations

import random
from typing import Any

from tui.simulator import registry
from tui.simulator.auth import GLOBAL_GRANTS, GRANT_KINDS
from tui.simulator.context import SeedContext
from tui.simulator.store import Store

RESTRICTED_GLOBALS = {
    "add_domains": True,
    "add_volumes": True,
    "add_deployscripts": True,
    "add_computes": False,
    "add_images": False,
    "add_databases": False,
    "add_loadbalancers": False,
    "add_firewalls": False,
    "add_metrics": False,
    "cancel_account": False,
    "metrics_subscription": False,
}
"""Global grants of the restricted demo user: some present, some missing on purpose."""


def ensure_users(store: Store) -> None:
    """Create the demo users when the state has none (also for loaded empty states)."""
    users = store.table("users")
    if "demo" not in users:
        users["demo"] = {
            "username": "demo",
            "email": "demo@example.com",
            "restricted": False,
            "uid": 4101,
        }
    if "ops-restricted" not in users:
        grants: dict[str, Any] = {kind: [] for kind in GRANT_KINDS}
        grants["global"] = {name: RESTRICTED_GLOBALS.get(name, False) for name in GLOBAL_GRANTS}
        grants["global"]["account_access"] = None
        users["ops-restricted"] = {
            "username": "ops-restricted",
            "email": "ops@example.com",
            "restricted": True,
            "uid": 4102,
            "grants": grants,
        }


def grant_restricted(
    store: Store, kind: str, entity_id: object, label: str, permissions: str
) -> None:
    """Give the restricted demo user a per-entity grant (seeders call this)."""
    ensure_users(store)
    user = store.table("users")["ops-restricted"]
    user["grants"].setdefault(kind, []).append(
        {"id": entity_id, "label": label, "permissions": permissions}
    )


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
