"""The demo users: a full account user and a restricted one with a few grants (headless).

Both the seeding (:mod:`tui.simulator.seed`) and every seeder, through
:meth:`tui.simulator.context.SeedContext.grant`, use these, so this module sits below both.
"""

from __future__ import annotations

from typing import Any

from tui.simulator.auth import GLOBAL_GRANTS, GRANT_KINDS
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
