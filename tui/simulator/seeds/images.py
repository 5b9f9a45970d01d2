"""Demo images: the public catalogue and a handful of private images in every status."""

from __future__ import annotations

from typing import Any

from tui.simulator.clock import iso
from tui.simulator.context import SeedContext
from tui.simulator.handlers.images import IMAGES, new_image
from tui.simulator.registry import seeder

DAY = 86400
HOUR = 3600

PUBLIC_IMAGES: tuple[dict[str, Any], ...] = (
    {
        "id": "compute/debian12",
        "label": "Debian 12",
        "vendor": "Debian",
        "size": 1300,
        "eol": "2028-06-30T00:00:00",
    },
    {
        "id": "compute/debian11",
        "label": "Debian 11",
        "vendor": "Debian",
        "size": 1200,
        "eol": "2026-08-31T00:00:00",
        "deprecated": True,
    },
    {
        "id": "compute/ubuntu24.04",
        "label": "Ubuntu 24.04 LTS",
        "vendor": "Ubuntu",
        "size": 2500,
        "eol": "2029-05-31T00:00:00",
    },
    {
        "id": "compute/ubuntu22.04",
        "label": "Ubuntu 22.04 LTS",
        "vendor": "Ubuntu",
        "size": 2400,
        "eol": "2027-04-30T00:00:00",
    },
    {
        "id": "compute/alpine3.20",
        "label": "Alpine 3.20",
        "vendor": "Alpine",
        "size": 300,
        "eol": "2026-04-01T00:00:00",
    },
    {
        "id": "compute/rocky9",
        "label": "Rocky Linux 9",
        "vendor": "Rocky",
        "size": 2000,
        "eol": "2032-05-31T00:00:00",
    },
    {
        "id": "compute/arch",
        "label": "Arch Linux",
        "vendor": "Arch",
        "size": 1500,
        "eol": None,
    },
    {
        "id": "compute/fedora40",
        "label": "Fedora 40",
        "vendor": "Fedora",
        "size": 1900,
        "eol": "2025-05-13T00:00:00",
    },
)
"""The provider's images (ids fixed by the area contract); Debian 11 is deprecated."""


@seeder("images", order=5)
def seed_images(ctx: SeedContext) -> None:
    """Public images, then private ones: available, automatic (expiring), creating, uploading."""
    created = ctx.iso(-400 * DAY)
    for entry in PUBLIC_IMAGES:
        record = {
            "id": entry["id"],
            "label": entry["label"],
            "description": f"{entry['label']} as published by its vendor, with the cloud agent.",
            "status": "available",
            "type": "manual",
            "is_public": True,
            "deprecated": bool(entry.get("deprecated", False)),
            "created_by": "compute",
            "vendor": entry["vendor"],
            "size": entry["size"],
            "created": created,
            "updated": created,
            "expiry": None,
            "eol": entry["eol"],
        }
        ctx.store.put(IMAGES, entry["id"], record)

    golden = new_image(
        ctx.store,
        label="web-[prod]-golden",
        now=ctx.now - 45 * DAY,
        created_by="demo",
        status="available",
        size=5120,
        region="us-east",
        description="Nginx and the shop app on Debian 12, hardened.",
    )
    pos = new_image(
        ctx.store,
        label="café-pos-base",
        now=ctx.now - 20 * DAY,
        created_by="demo",
        status="available",
        size=3072,
        region="eu-west",
        description="Point-of-sale base system for the café branches.",
    )
    expiry_at = ctx.now + 5 * DAY  # within the week the overview and the check warn of
    automatic = new_image(
        ctx.store,
        label="db-02 final disk",
        now=ctx.now - 18 * DAY,
        created_by="demo",
        status="available",
        size=20480,
        region="us-central",
        kind="automatic",
        expiry=iso(expiry_at),
    )
    ctx.store.schedule(expiry_at, "images.expire", id=automatic["id"])
    creating = new_image(
        ctx.store,
        label="ci-runner-2026-11",
        now=ctx.now - 60,
        created_by="demo",
        status="creating",
        size=8192,
        region="us-west",
        description="CI runner captured from ci-01.",
    )
    # Long enough for a demo viewer to see the transitional status, short enough to settle.
    ctx.store.schedule(ctx.now + 120, "images.ready", id=creating["id"])
    uploading = new_image(
        ctx.store,
        label="freebsd-14-custom",
        now=ctx.now - 2 * HOUR,
        created_by="demo",
        status="pending_upload",
        size=0,
        region="eu-central",
        description="Custom FreeBSD build; upload started from the build server.",
    )
    token = f"seed-{ctx.rng.getrandbits(128):032x}"
    uploading["_upload_token"] = token
    ctx.store.schedule(ctx.now + 22 * HOUR, "images.upload_expire", id=uploading["id"], token=token)
    ctx.grant("image", pos["_num"], pos["label"], "read_write")
    ctx.shared["images.private_ids"] = [
        golden["id"],
        pos["id"],
        automatic["id"],
        creating["id"],
        uploading["id"],
    ]
