"""Demo managed databases: a three-node MySQL with backups, a MongoDB, a MySQL provisioning."""

from __future__ import annotations

import string

from tui.simulator.app import DEFAULT_TIMINGS
from tui.simulator.context import SeedContext
from tui.simulator.handlers.databases import new_backup, new_database, sync_auto_backups
from tui.simulator.registry import seeder

DAY = 86400


def _password(ctx: SeedContext) -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(ctx.rng.choice(alphabet) for _ in range(24))


@seeder("databases", order=30)
def seed_databases(ctx: SeedContext) -> None:
    """Three databases in different states; the MySQL cluster has automatic backups and one
    snapshot, and one label is non-ASCII."""
    orders = new_database(
        ctx.store,
        engine="mysql",
        version="8.0.30",
        label="orders-[prod]",
        region="us-east",
        type_="ded-4",
        now=ctx.now - 40 * DAY,
        password=_password(ctx),
        cluster_size=3,
        replication_type="semi_synch",
        allow_list=["203.0.113.0/24", "198.51.100.17"],
        encrypted=True,
        status="active",
    )
    # Active for ten days: a full week of automatic backups exists.
    orders["_active_since"] = ctx.now - 10 * DAY
    sync_auto_backups(ctx.store, orders, ctx.now)
    new_backup(
        ctx.store,
        orders,
        label="before-schema-v42",
        kind="snapshot",
        target="primary",
        at=ctx.now - 3 * DAY - 5 * 3600,
    )
    ctx.shared["databases.mysql_id"] = orders["id"]

    sessions = new_database(
        ctx.store,
        engine="mongodb",
        version="6.0",
        label="café-sessions",
        region="eu-west",
        type_="std-2",
        now=ctx.now - 12 * DAY,
        password=_password(ctx),
        # Opened to the world "for a quick test" (the account check finds it).
        allow_list=["192.0.2.10", "0.0.0.0/0"],
        status="active",
    )
    sessions["_active_since"] = ctx.now - 12 * DAY + 1800
    sync_auto_backups(ctx.store, sessions, ctx.now)
    ctx.shared["databases.mongodb_id"] = sessions["id"]

    analytics = new_database(
        ctx.store,
        engine="mysql",
        version="5.7.39",
        label="analytics-staging",
        region="eu-central",
        type_="std-2",
        now=ctx.now,
        password=_password(ctx),
    )
    # Created just now: it becomes active one provisioning delay after start-up.
    ctx.store.schedule(
        ctx.now + DEFAULT_TIMINGS["databases.provision"],
        "databases.provisioned",
        id=analytics["id"],
    )
    ctx.shared["databases.provisioning_id"] = analytics["id"]
