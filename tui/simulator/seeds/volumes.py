"""Demo volumes: attached and free ones, one migrating, one in a region without instances and one
with a non-ASCII label."""

from __future__ import annotations

from typing import Any

from tui.simulator.context import SeedContext
from tui.simulator.handlers.images import CONTRACT_REGIONS
from tui.simulator.handlers.volumes import last_used_config, new_volume
from tui.simulator.registry import seeder

DAY = 86400


def _instances(ctx: SeedContext) -> list[dict[str, Any]]:
    """The seeded instances (none while the compute area has not seeded any), by id."""
    rows = ctx.store.rows("compute.instances")
    return sorted(rows, key=lambda r: int(r["id"]) if str(r.get("id", "")).isdigit() else 0)


@seeder("volumes", order=20)
def seed_volumes(ctx: SeedContext) -> None:
    """Six volumes (plus ``scale // 4`` free ones); grants for the restricted user."""
    instances = _instances(ctx)
    regions = list(ctx.store.table("compute.regions")) or list(CONTRACT_REGIONS)
    used = {str(i.get("region")) for i in instances}
    empty_region = next((r for r in reversed(regions) if r not in used), "ap-northeast")

    def attach_target(index: int) -> tuple[dict[str, Any] | None, int | None]:
        if not instances:
            return None, None
        instance = instances[index % len(instances)]
        config = last_used_config(ctx.store, instance)
        return instance, (int(config["id"]) if config else None)

    db_host, db_config = attach_target(0)
    pg_data = new_volume(
        ctx.store,
        label="pg-data",
        size=200,
        region=str(db_host["region"]) if db_host else "us-east",
        now_iso=ctx.iso(-90 * DAY),
        status="active",
        instance=db_host,
        config_id=db_config,
        tags=["production", "database"],
    )
    web_host, web_config = attach_target(1)
    new_volume(
        ctx.store,
        label="web-assets",
        size=40,
        region=str(web_host["region"]) if web_host else "us-east",
        now_iso=ctx.iso(-60 * DAY),
        status="active",
        instance=web_host,
        config_id=web_config,
        tags=["production"],
    )
    scratch = new_volume(
        ctx.store,
        label="backup-scratch",
        size=20,
        region=str(instances[0]["region"]) if instances else "us-east",
        now_iso=ctx.iso(-14 * DAY),
        status="active",
    )
    new_volume(
        ctx.store,
        label="archive_2024",
        size=500,
        region=empty_region,
        now_iso=ctx.iso(-200 * DAY),
        status="active",
        tags=["archive"],
    )
    new_volume(
        ctx.store,
        label="logs-eu",
        size=250,
        region="eu-central",
        now_iso=ctx.iso(-40 * DAY),
        # Stays migrating in the demo: deleting it is refused until the migration finishes.
        status="migrating",
        tags=["logs"],
    )
    new_volume(
        ctx.store,
        label="cafe-media",
        size=60,
        region="eu-west",
        now_iso=ctx.iso(-3 * DAY),
        status="active",
        # Non-ASCII text lives in a tag: volume labels are ASCII (they name a device).
        tags=["café"],
    )
    for n in range(ctx.scale // 4):
        new_volume(
            ctx.store,
            label=f"bulk-{n:05d}",
            size=10 * (1 + ctx.rng.randrange(10)),
            region=regions[ctx.rng.randrange(len(regions))],
            now_iso=ctx.iso(-ctx.rng.randrange(300) * DAY),
            status="active",
        )
    ctx.grant("volume", scratch["id"], scratch["label"], "read_write")
    ctx.grant("volume", pg_data["id"], pg_data["label"], "read_only")
