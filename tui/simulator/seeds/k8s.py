"""Demo Kubernetes clusters: a highly available production cluster and a smaller staging one."""

from __future__ import annotations

from tui.simulator.context import SeedContext
from tui.simulator.handlers.k8s import new_cluster, new_pool
from tui.simulator.registry import seeder

DAY = 86400


@seeder("k8s", order=30)
def seed_k8s(ctx: SeedContext) -> None:
    """Two ready clusters with pools; one has an HA control plane, one a non-ASCII label."""
    prod = new_cluster(
        ctx.store,
        label="shop-prod",
        region="eu-central",
        k8s_version="1.31",
        now=ctx.now - 30 * DAY,
        token=f"{ctx.rng.getrandbits(256):064x}",
        high_availability=True,
        tags=["production", "shop"],
        ready=True,
    )
    new_pool(
        ctx.store,
        prod["id"],
        {
            "count": 3,
            "type": "std-4",
            "autoscaler": {"enabled": True, "min": 3, "max": 6},
            "disks": [],
            "tags": ["web"],
        },
        "ready",
    )
    new_pool(
        ctx.store,
        prod["id"],
        {
            "count": 2,
            "type": "ded-4",
            "autoscaler": {"enabled": False, "min": 2, "max": 2},
            "disks": [{"size": 10240, "type": "ext4"}],
            "tags": ["workers"],
        },
        "ready",
    )
    staging = new_cluster(
        ctx.store,
        label="zürich-staging",
        region="us-east",
        k8s_version="1.30",
        now=ctx.now - 9 * DAY,
        token=f"{ctx.rng.getrandbits(256):064x}",
        tags=["staging"],
        ready=True,
    )
    new_pool(
        ctx.store,
        staging["id"],
        {
            "count": 2,
            "type": "std-2",
            "autoscaler": {"enabled": False, "min": 2, "max": 2},
            "disks": [],
            "tags": [],
        },
        "ready",
    )
    ctx.shared["k8s.cluster_ids"] = [prod["id"], staging["id"]]
