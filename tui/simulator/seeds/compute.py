"""Demo compute data: the region, type and kernel catalogues, and a dozen instances across
regions, types and statuses (one provisioning, one offline, one stopped, one with a pending
migration, two with backups), each with its disks and configuration profiles; plus ``scale``
bulk instances for benchmarks.

Statistics and transfer are not stored: the handlers derive them from each instance's id.
"""

from __future__ import annotations

from typing import Any

from tui.simulator.context import SeedContext
from tui.simulator.handlers.compute import (
    BALANCE_META,
    INSTANCE_ID_START,
    INSTANCES,
    KERNELS,
    REGIONS,
    TYPES,
    configs_of,
    default_alerts,
    deploy_image,
    host_uuid,
    new_backup,
    new_config,
    new_instance,
    public_ipv4,
    slaac_ipv6,
    type_specs,
)
from tui.simulator.registry import seeder

MINUTE, HOUR, DAY = 60, 3600, 86400
PROVISION_AFTER = 60.0
"""Seconds until the seeded ``provisioning`` instance is running: long enough to watch."""

_ALL = ["Compute", "Block Storage", "Object Storage", "Kubernetes", "Managed Databases", "Backups"]

REGION_CATALOG: tuple[dict[str, Any], ...] = (
    {"id": "us-east", "label": "Newark, NJ", "country": "us", "capabilities": [*_ALL, "Vlans"]},
    {"id": "us-central", "label": "Dallas, TX", "country": "us", "capabilities": [*_ALL, "Vlans"]},
    {"id": "us-west", "label": "Fremont, CA", "country": "us", "capabilities": list(_ALL)},
    {"id": "ca-central", "label": "Toronto, ON", "country": "ca", "capabilities": [*_ALL, "Vlans"]},
    {"id": "eu-west", "label": "London, UK", "country": "gb", "capabilities": [*_ALL, "Vlans"]},
    {
        "id": "eu-central",
        "label": "Frankfurt, DE",
        "country": "de",
        "capabilities": [*_ALL, "Vlans"],
    },
    {"id": "ap-south", "label": "Singapore, SG", "country": "sg", "capabilities": list(_ALL)},
    {
        "id": "ap-northeast",
        "label": "Tokyo, JP",
        "country": "jp",
        "capabilities": [c for c in _ALL if c != "Object Storage"] + ["Vlans"],
    },
)
"""Regions: the ids of the area contract; VLANs only in the newer-generation ones."""


def _type(
    type_id: str,
    label: str,
    cls: str,
    vcpus: int,
    memory_gb: int,
    disk_gb: int,
    transfer: int,
    monthly: float,
    backups_monthly: float,
) -> dict[str, Any]:
    return {
        "id": type_id,
        "label": label,
        "class": cls,
        "vcpus": vcpus,
        "memory": memory_gb * 1024,
        "disk": disk_gb * 1024,
        "transfer": transfer,
        "price": {"hourly": round(monthly / 730, 4), "monthly": monthly},
        "addons": {
            "backups": {
                "price": {"hourly": round(backups_monthly / 730, 4), "monthly": backups_monthly}
            }
        },
    }


TYPE_CATALOG: tuple[dict[str, Any], ...] = (
    _type("nano-1", "Nano 1 GB", "nanode", 1, 1, 25, 1000, 5.0, 2.0),
    _type("std-1", "Standard 2 GB", "standard", 1, 2, 50, 2000, 12.0, 2.5),
    _type("std-2", "Standard 4 GB", "standard", 2, 4, 80, 4000, 24.0, 5.0),
    _type("std-4", "Standard 8 GB", "standard", 4, 8, 160, 5000, 48.0, 10.0),
    _type("std-6", "Standard 16 GB", "standard", 6, 16, 320, 8000, 96.0, 20.0),
    _type("std-8", "Standard 32 GB", "standard", 8, 32, 640, 16000, 192.0, 40.0),
    _type("ded-2", "Dedicated 4 GB", "dedicated", 2, 4, 80, 4000, 36.0, 5.0),
    _type("ded-4", "Dedicated 8 GB", "dedicated", 4, 8, 160, 5000, 72.0, 10.0),
    _type("ded-8", "Dedicated 16 GB", "dedicated", 8, 16, 320, 6000, 144.0, 20.0),
    _type("hi-mem-24", "High Memory 24 GB", "highmem", 2, 24, 20, 5000, 60.0, 5.0),
    _type("hi-mem-48", "High Memory 48 GB", "highmem", 2, 48, 40, 6000, 120.0, 10.0),
)
"""Instance types from a small shared plan to dedicated and high-memory ones. ``std-2`` (4 GB
memory, 80 GB disk) is the type other areas' tests rely on."""


def _kernel(
    kernel_id: str,
    label: str,
    version: str,
    architecture: str,
    built: str,
    *,
    deprecated: bool = False,
    pvops: bool = True,
    xen: bool = False,
) -> dict[str, Any]:
    return {
        "id": kernel_id,
        "label": label,
        "version": version,
        "architecture": architecture,
        "built": built,
        "deprecated": deprecated,
        "kvm": True,
        "xen": xen,
        "pvops": pvops,
    }


KERNEL_CATALOG: tuple[dict[str, Any], ...] = (
    _kernel(
        "compute/latest-64bit",
        "Latest 64 bit (6.8.9-x86_64-compute)",
        "6.8.9",
        "x86_64",
        "2026-05-03T16:10:00",
    ),
    _kernel(
        "compute/latest-32bit",
        "Latest 32 bit (6.8.9-x86-compute)",
        "6.8.9",
        "i386",
        "2026-05-03T16:12:00",
    ),
    _kernel(
        "compute/6.8.9-x86_64", "6.8.9-x86_64-compute", "6.8.9", "x86_64", "2026-05-03T16:10:00"
    ),
    _kernel("compute/6.8.9-x86", "6.8.9-x86-compute", "6.8.9", "i386", "2026-05-03T16:12:00"),
    _kernel(
        "compute/6.6.30-x86_64", "6.6.30-x86_64-compute", "6.6.30", "x86_64", "2026-02-11T09:00:00"
    ),
    _kernel(
        "compute/6.1.90-x86_64", "6.1.90-x86_64-compute", "6.1.90", "x86_64", "2025-11-20T11:30:00"
    ),
    _kernel(
        "compute/5.15.158-x86_64",
        "5.15.158-x86_64-compute",
        "5.15.158",
        "x86_64",
        "2025-06-02T08:45:00",
    ),
    _kernel(
        "compute/5.10.216-x86",
        "5.10.216-x86-compute",
        "5.10.216",
        "i386",
        "2024-09-14T10:00:00",
        deprecated=True,
    ),
    _kernel(
        "compute/4.19.315-x86_64",
        "4.19.315-x86_64-compute",
        "4.19.315",
        "x86_64",
        "2023-12-05T14:20:00",
        deprecated=True,
        xen=True,
    ),
    _kernel(
        "compute/4.14.336-x86",
        "4.14.336-x86-compute",
        "4.14.336",
        "i386",
        "2023-08-30T07:15:00",
        deprecated=True,
        xen=True,
    ),
    _kernel("compute/grub2", "GRUB 2", "2.12", "x86_64", "2025-01-15T12:00:00", pvops=False),
    _kernel(
        "compute/grub-legacy",
        "GRUB (Legacy)",
        "0.97",
        "x86_64",
        "2019-03-01T12:00:00",
        deprecated=True,
        pvops=False,
    ),
    _kernel("compute/direct-disk", "Direct Disk", "", "x86_64", "2019-03-01T12:00:00", pvops=False),
)
"""Kernels: latest aliases, versioned builds for both architectures, some deprecated."""

IMAGE_LABELS = {
    "compute/debian12": "Debian 12",
    "compute/debian11": "Debian 11",
    "compute/ubuntu24.04": "Ubuntu 24.04 LTS",
    "compute/ubuntu22.04": "Ubuntu 22.04 LTS",
    "compute/alpine3.20": "Alpine 3.20",
    "compute/rocky9": "Rocky Linux 9",
    "compute/arch": "Arch Linux",
    "compute/fedora40": "Fedora 40",
}
"""Labels of the public images (the images area seeds them after this one runs)."""

SEED_INSTANCES: tuple[dict[str, Any], ...] = (
    {
        "label": "db-primary",
        "region": "us-east",
        "type": "ded-4",
        "image": "compute/debian12",
        "status": "running",
        "tags": ["production", "database"],
        "private_ip": True,
        "backups": ("Sunday", "W4"),
        "age": 420,
    },
    {
        "label": "web-prod-1",
        "region": "us-east",
        "type": "std-2",
        "image": "compute/ubuntu24.04",
        "status": "running",
        "tags": ["production", "web"],
        "private_ip": True,
        "backups": ("Scheduling", "Scheduling"),
        "age": 300,
    },
    {
        "label": "web-prod-2",
        "region": "us-east",
        "type": "std-2",
        "image": "compute/ubuntu24.04",
        "status": "running",
        "tags": ["production", "web"],
        "private_ip": True,
        "age": 299,
    },
    {
        "label": "staging-api-1",
        "region": "eu-central",
        "type": "std-1",
        "image": "compute/debian12",
        "status": "running",
        # Markup-looking text lives where the rules allow it: a tag, not the label.
        "tags": ["staging", "[staging]"],
        "age": 45,
    },
    {
        "label": "cafe-web",
        "region": "eu-west",
        "type": "nano-1",
        "image": "compute/alpine3.20",
        "status": "running",
        "tags": ["café"],
        "age": 20,
    },
    {
        "label": "ci-runner-01",
        "region": "us-west",
        "type": "ded-8",
        "image": "compute/ubuntu22.04",
        "status": "offline",
        "tags": ["ci"],
        "age": 90,
        "offline_days": 12,
    },
    {
        "label": "build-cache",
        "region": "us-central",
        "type": "std-4",
        "image": "compute/rocky9",
        "status": "running",
        "tags": [],
        "watchdog": False,
        "age": 150,
    },
    {
        "label": "vpn-gateway",
        "region": "ca-central",
        "type": "nano-1",
        "image": "compute/debian12",
        "status": "running",
        "tags": ["network"],
        "vlan": ("office-lan", "10.0.0.1/24"),
        "age": 200,
    },
    {
        "label": "analytics-worker",
        "region": "eu-central",
        "type": "hi-mem-24",
        "image": "compute/ubuntu24.04",
        "status": "running",
        "tags": ["analytics"],
        "age": 60,
    },
    {
        "label": "mail-relay",
        "region": "ap-south",
        "type": "std-1",
        "image": "compute/debian11",
        "status": "running",
        "tags": ["mail"],
        "pending_migration": True,
        "age": 700,
    },
    {
        "label": "legacy-ftp",
        "region": "us-west",
        "type": "std-1",
        "image": "compute/debian11",
        "status": "stopped",
        "tags": [],
        "group": "legacy",
        "age": 800,
    },
    {
        "label": "new-api-2",
        "region": "us-central",
        "type": "std-2",
        "image": "compute/debian12",
        "status": "provisioning",
        "tags": ["staging"],
        "age": 0,
    },
)
"""The demo instances, in id order (volumes attach to the first two). No instance runs in
``ap-northeast``: the volumes area keeps a volume there, in a region without instances."""

RESTRICTED_GRANTS = {
    "staging-api-1": "read_write",
    "build-cache": "read_write",
    "web-prod-2": "read_only",
}
"""What the restricted demo user may do with which instance."""

BULK_ROLES = ("web", "worker", "cache", "db", "edge", "batch", "proxy", "ci")


def _catalogues(ctx: SeedContext) -> None:
    for region in REGION_CATALOG:
        ctx.store.put(REGIONS, region["id"], {**region, "status": "ok"})
    for kind in TYPE_CATALOG:
        ctx.store.put(TYPES, kind["id"], dict(kind))
    for kernel in KERNEL_CATALOG:
        ctx.store.put(KERNELS, kernel["id"], dict(kernel))


def _seed_one(ctx: SeedContext, spec: dict[str, Any]) -> dict[str, Any]:
    """One demo instance with its disks, profiles and backups."""
    store = ctx.store
    kind = store.get(TYPES, spec["type"]) or {}
    age = spec["age"] * DAY + ctx.rng.randrange(0, 8 * HOUR) if spec["age"] else 30
    created = ctx.iso(-age)
    status = spec["status"]
    record = new_instance(
        store,
        label=spec["label"],
        region=spec["region"],
        kind=kind,
        status=status,
        now_iso=created,
        image=spec["image"],
        tags=spec["tags"],
        group=spec.get("group", ""),
        private_ip=spec.get("private_ip", False),
        backups_enabled="backups" in spec,
        watchdog_enabled=spec.get("watchdog", True),
    )
    interfaces = None
    if "vlan" in spec:
        vlan, address = spec["vlan"]
        interfaces = [
            {"purpose": "public", "label": None, "ipam_address": None},
            {"purpose": "vlan", "label": vlan, "ipam_address": address},
        ]
    config = deploy_image(
        store,
        record,
        image_label=IMAGE_LABELS.get(spec["image"], spec["image"]),
        swap_size=512,
        now_iso=created,
        disk_status="not ready" if status == "provisioning" else "ready",
        interfaces=interfaces,
    )
    if spec["label"] == "db-primary":
        # A second profile for maintenance: single-user mode on the same disks.
        new_config(
            store,
            record["id"],
            label="Recovery (single user)",
            devices=dict(config["devices"]),
            memory_limit=record["specs"]["memory"],
            now_iso=ctx.iso(-200 * DAY),
            comments="Boot this to repair the filesystem; networking stays off.",
            run_level="single",
        )
        record["alerts"] = {**record["alerts"], "cpu": 250, "io": 20000}
    if status == "provisioning":
        store.schedule(ctx.now + PROVISION_AFTER, "compute.provisioned", id=record["id"])
    else:
        record["_last_booted_config"] = config["id"]
    if spec.get("pending_migration"):
        record["_pending_migration"] = True
    record["updated"] = ctx.iso(-ctx.rng.randrange(1, 30) * DAY) if spec["age"] > 30 else created
    if "offline_days" in spec:  # powered off that long ago (after the draw: the rest stays)
        record["updated"] = ctx.iso(-spec["offline_days"] * DAY)
    if "backups" in spec:
        _seed_backups(ctx, record, spec["backups"])
    return record


def _seed_backups(ctx: SeedContext, record: dict[str, Any], schedule: tuple[str, str]) -> None:
    """Daily automatic backups; for the database also a snapshot and one being taken."""
    day, window = schedule
    backups = record["backups"]
    backups["schedule"] = {"day": day, "window": window}
    count = 3 if record["label"] == "db-primary" else 2
    last = None
    for n in range(count, 0, -1):
        start = ctx.now - n * DAY - ctx.now % DAY + 4 * HOUR
        finish = start + (18 + ctx.rng.randrange(10)) * MINUTE
        new_backup(
            ctx.store,
            record,
            label=None,
            kind="automatic",
            slot="automatic",
            created=ctx.iso(start - ctx.now),
            finished=ctx.iso(finish - ctx.now),
        )
        last = ctx.iso(finish - ctx.now)
    if record["label"] == "db-primary":
        new_backup(
            ctx.store,
            record,
            label="pre-upgrade [pg 16]",
            kind="snapshot",
            slot="current",
            created=ctx.iso(-12 * DAY),
            finished=ctx.iso(-12 * DAY + 25 * MINUTE),
        )
        new_backup(
            ctx.store,
            record,
            label="before kernel update",
            kind="snapshot",
            slot="in_progress",
            created=ctx.iso(-10 * MINUTE),
            finished=None,
            status="running",
        )
    backups.update(available=True, last_successful=last)


def _seed_bulk(ctx: SeedContext, count: int) -> None:
    """``count`` extra instances, built as plain dicts (no disks or profiles) so that 10,000
    take well under a second."""
    store = ctx.store
    table = store.table(INSTANCES)
    kinds = [store.get(TYPES, t) or {} for t in ("nano-1", "std-1", "std-2", "std-4", "ded-4")]
    specs = [type_specs(k) for k in kinds]
    alerts = [default_alerts(s["vcpus"]) for s in specs]
    regions = [r["id"] for r in REGION_CATALOG]
    images = list(IMAGE_LABELS)
    rnd = ctx.rng.random

    def pick(n: int) -> int:
        """0..n-1 (``int(random() * n)``: a third of ``randrange``'s cost, 60,000 calls here)."""
        return int(rnd() * n)

    first = store.next_id("compute.instance", start=INSTANCE_ID_START)
    address = store.next_id("compute.address", start=0)
    for n in range(count):
        iid = first + n
        k = pick(len(kinds))
        region = regions[pick(len(regions))]
        created = ctx.iso(-(1 + pick(699)) * DAY - pick(DAY))
        role = BULK_ROLES[n % len(BULK_ROLES)]
        table[str(iid)] = {
            "id": iid,
            "label": f"{role}-{region}-{n:05d}",
            "status": "offline" if rnd() < 0.08 else "running",
            "region": region,
            "type": kinds[k].get("id"),
            "specs": dict(specs[k]),
            "ipv4": [public_ipv4(address + n)],
            "ipv6": slaac_ipv6(region, address + n),
            "image": images[pick(len(images))],
            "tags": ["bulk", role] if n % 3 else ["bulk"],
            "group": "",
            "hypervisor": "kvm",
            "host_uuid": host_uuid(iid),
            "alerts": dict(alerts[k]),
            "backups": {
                "available": False,
                "enabled": False,
                "last_successful": None,
                "schedule": {"day": "Scheduling", "window": "Scheduling"},
            },
            "watchdog_enabled": True,
            "created": created,
            "updated": created,
        }
    # Keep the id and address counters past the bulk so later creations never collide.
    store.counters["compute.instance"] = first + count - 1
    store.counters["compute.address"] = address + count - 1
    store.dirty = True


@seeder("compute", order=3)
def seed_compute(ctx: SeedContext) -> None:
    """Catalogues, the demo instances with their grants, then ``scale`` bulk instances."""
    _catalogues(ctx)
    ctx.store.meta.setdefault(BALANCE_META, 0)
    made = [_seed_one(ctx, spec) for spec in SEED_INSTANCES]
    for record in made:
        permission = RESTRICTED_GRANTS.get(record["label"])
        if permission:
            ctx.grant("compute", record["id"], record["label"], permission)
    ctx.shared["compute.instance_ids"] = [r["id"] for r in made]
    ctx.shared["compute.config_ids"] = {
        r["id"]: [c["id"] for c in configs_of(ctx.store, r["id"])] for r in made
    }
    if ctx.scale > 0:
        _seed_bulk(ctx, ctx.scale)
