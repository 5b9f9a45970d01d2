"""Images: public ones for everyone, private ones for the account, uploads through the simulator.

Choices where the reference is silent:

* A private image's grant id is the number after ``private/`` (grant ids are integers).
* Image labels are 1..128 characters; descriptions 1..65000 (reference).
* Public images cannot be changed or deleted: 403.
* An upload keeps the image ``pending_upload`` until its data has arrived *and* been processed
  (``images.process`` seconds), then it is ``available``; its ``size`` is the uncompressed size
  in MB. A second PUT to the same address answers 409; a PUT after the 24-hour window (the image
  is gone by then) answers 404. The upload address must receive
  ``Content-Type: application/octet-stream`` (415 otherwise).
* Shared lookups (regions, grants clean-up) used by the volumes and deployment-script handlers
  live here too.
"""

from __future__ import annotations

import json
import secrets
import zlib
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from tui.simulator.auth import Principal
from tui.simulator.clock import iso
from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import forbidden, not_found
from tui.simulator.registry import handles, raw_route, transition
from tui.simulator.store import Store
from tui.simulator.validate import Check

IMAGES = "images.images"
REGIONS = "compute.regions"
UPLOAD_PREFIX = "/_sim/uploads/"
GZIP_MAGIC = b"\x1f\x8b"
LABEL_MAX = 128
DESCRIPTION_MAX = 65000
MB = 1024 * 1024
PRIVATE_START = 31000
TRANSITIONS = ("images.ready", "images.processed", "images.upload_expire", "images.expire")

CONTRACT_REGIONS = (
    "us-east",
    "us-central",
    "us-west",
    "ca-central",
    "eu-west",
    "eu-central",
    "ap-south",
    "ap-northeast",
)
"""The fixed region ids, used only while no area has filled ``compute.regions``."""


# -- shared helpers -------------------------------------------------------------------------


def region_exists(store: Store, region: str) -> bool:
    """True when ``region`` names a region (the fixed list while the catalogue is empty)."""
    table = store.table(REGIONS)
    if table:
        return region in table
    return region in CONTRACT_REGIONS


def check_region(store: Store, v: Check, *, required: bool) -> Any:
    """Validate the body's ``region`` against the region catalogue."""
    region = v.string("region", required=required)
    if isinstance(region, str) and not region_exists(store, region):
        v.fail("region", "region is not valid")
    return region


def drop_grants(store: Store, kind: str, entity_id: object) -> None:
    """Remove every user's per-entity grant on a deleted entity."""
    for user in store.table("users").values():
        entries = (user.get("grants") or {}).get(kind)
        if entries:
            kept = [e for e in entries if str(e.get("id")) != str(entity_id)]
            if len(kept) != len(entries):
                user["grants"][kind] = kept
                store.dirty = True


def image_number(image: dict[str, Any]) -> int | str:
    """The grant id of an image: the number of a private image, the full id otherwise."""
    num = image.get("_num")
    return int(num) if isinstance(num, int) else str(image["id"])


def can_see_image(principal: Principal, image: dict[str, Any]) -> bool:
    """Public images are visible to anyone; private ones to the account, within grants."""
    if image.get("is_public"):
        return True
    if not principal.authenticated:
        return False
    return principal.can_read("image", image_number(image))


def new_image(
    store: Store,
    *,
    label: str,
    now: float,
    created_by: str,
    status: str,
    size: int,
    region: str | None,
    description: str | None = None,
    kind: str = "manual",
    expiry: str | None = None,
) -> dict[str, Any]:
    """Build and store a private image record."""
    num = store.next_id("images.private", start=PRIVATE_START)
    image_id = f"private/{num}"
    record = {
        "id": image_id,
        "label": label,
        "description": description,
        "status": status,
        "type": kind,
        "is_public": False,
        "deprecated": False,
        "created_by": created_by,
        "vendor": None,
        "size": size,
        "created": iso(now),
        "updated": iso(now),
        "expiry": expiry,
        "eol": None,
        "_num": num,
        "_region": region,
        "_upload_token": None,
        "_uploaded": False,
    }
    return store.put(IMAGES, image_id, record)


def _image(ctx: Ctx) -> dict[str, Any]:
    image = ctx.store.get(IMAGES, str(ctx.params.get("imageId", "")))
    if image is None or not can_see_image(ctx.principal, image):
        raise not_found("Image not found")
    return image


def _writable(ctx: Ctx) -> dict[str, Any]:
    image = _image(ctx)
    if image.get("is_public"):
        raise forbidden("Public images cannot be changed or deleted")
    ctx.principal.require_write("image", image_number(image))
    return image


def _check_label(v: Check, *, required: bool) -> Any:
    return v.string("label", required=required, min_len=1, max_len=LABEL_MAX)


def _check_description(v: Check) -> Any:
    return v.string("description", min_len=1, max_len=DESCRIPTION_MAX, nullable=True)


# -- transitions ----------------------------------------------------------------------------


@transition("images.ready")
def image_ready(store: Store, now: float, id: str) -> None:
    """An image captured from a disk is ready to deploy."""
    image = store.get(IMAGES, id)
    if image is None or image["status"] != "creating":
        return
    image.update(status="available", updated=iso(now))
    store.put(IMAGES, id, image)


@transition("images.processed")
def upload_processed(store: Store, now: float, id: str) -> None:
    """Uploaded data has been processed: the image can be deployed."""
    image = store.get(IMAGES, id)
    if image is None or image["status"] != "pending_upload" or not image.get("_uploaded"):
        return
    image.update(status="available", updated=iso(now))
    store.put(IMAGES, id, image)


@transition("images.upload_expire", deadline=True)
def upload_expired(store: Store, now: float, id: str, token: str) -> None:
    """No data arrived within the upload window: the upload is cancelled, the image deleted."""
    image = store.get(IMAGES, id)
    if (
        image is None
        or image["status"] != "pending_upload"
        or image.get("_uploaded")
        or image.get("_upload_token") != token
    ):
        return
    store.delete(IMAGES, id)
    drop_grants(store, "image", image_number(image))


@transition("images.expire", deadline=True)
def automatic_expired(store: Store, now: float, id: str) -> None:
    """An automatic image reached its expiry date and is deleted."""
    image = store.get(IMAGES, id)
    if image is None or image.get("type") != "automatic":
        return
    store.delete(IMAGES, id)
    drop_grants(store, "image", image_number(image))


# -- handlers -------------------------------------------------------------------------------


@handles("images.list")
def images_list(ctx: Ctx) -> Collection:
    """Public images, and with a token the account's private ones the caller may see."""
    return Collection(
        [public(i) for i in ctx.store.rows(IMAGES) if can_see_image(ctx.principal, i)]
    )


@handles("images.view")
def images_view(ctx: Ctx) -> dict[str, Any]:
    """One image (``compute/...`` or ``private/<n>``)."""
    return public(_image(ctx))


@handles("images.create")
def images_create(ctx: Ctx) -> dict[str, Any]:
    """Capture a disk as a private image: ``creating``, then ``available``."""
    p = ctx.principal
    p.require_global("add_images")
    v = Check(ctx.body)
    v.unknown(("disk_id", "label", "description"))
    disk_id = v.integer("disk_id", required=True)
    label = _check_label(v, required=False)
    description = _check_description(v)
    disk: dict[str, Any] | None = None
    instance: dict[str, Any] | None = None
    if isinstance(disk_id, int):
        disk = ctx.store.get("compute.disks", disk_id)
        compute_id = disk.get("_compute_id") if disk else None
        instance = ctx.store.get("compute.instances", compute_id) if disk else None
        if disk is None or instance is None or not p.can_read("compute", compute_id):
            v.fail("disk_id", "disk_id does not name a disk of an instance you can access")
    v.done()
    assert disk is not None and instance is not None  # v.done() raised otherwise
    image = new_image(
        ctx.store,
        label=label if label is not None else str(disk.get("label") or f"disk-{disk_id}"),
        now=ctx.now,
        created_by=p.username,
        status="creating",
        size=int(disk.get("size") or 0),
        region=instance.get("region"),
        description=description,
    )
    image["_disk_id"] = disk_id
    ctx.schedule("images.ready", after=ctx.delay("images.create"), id=image["id"])
    p.add_grant("image", image["_num"], image["label"])
    return public(image)


@handles("images.upload")
def images_upload(ctx: Ctx) -> dict[str, Any]:
    """Start an upload: a ``pending_upload`` image and the address to PUT its data to."""
    p = ctx.principal
    p.require_global("add_images")
    v = Check(ctx.body)
    v.unknown(("label", "region", "description"))
    label = _check_label(v, required=True)
    region = check_region(ctx.store, v, required=True)
    description = _check_description(v)
    v.done()
    image = new_image(
        ctx.store,
        label=label,
        now=ctx.now,
        created_by=p.username,
        status="pending_upload",
        size=0,
        region=region,
        description=description,
    )
    token = secrets.token_urlsafe(24)
    image["_upload_token"] = token
    ctx.store.put(IMAGES, image["id"], image)
    ctx.schedule(
        "images.upload_expire",
        after=ctx.delay("images.upload_window"),
        id=image["id"],
        token=token,
    )
    p.add_grant("image", image["_num"], label)
    return {"image": public(image), "upload_to": f"{ctx.base_url}{UPLOAD_PREFIX}{token}"}


@handles("images.update")
def images_update(ctx: Ctx) -> dict[str, Any]:
    """Change label and description of a private image (description may be null)."""
    image = _writable(ctx)
    v = ctx.check()
    v.unknown(("label", "description"), nullable=("description",))
    label = _check_label(v, required=False)
    description = _check_description(v)
    v.done()
    if label is not None:
        image["label"] = label
    if v.has("description"):
        image["description"] = description
    image["updated"] = ctx.now_iso
    ctx.store.put(IMAGES, image["id"], image)
    return public(image)


@handles("images.delete")
def images_delete(ctx: Ctx) -> None:
    """Delete a private image (irreversible)."""
    image = _writable(ctx)
    ctx.store.delete(IMAGES, image["id"])
    for name in TRANSITIONS:
        ctx.store.cancel_events(name, id=image["id"])
    drop_grants(ctx.store, "image", image_number(image))


# -- the upload address ---------------------------------------------------------------------


def _upload_error(status: int, reason: str) -> Response:
    return Response(
        json.dumps({"errors": [{"reason": reason}]}),
        status_code=status,
        media_type="application/json",
    )


def _find_upload(store: Store, token: str) -> dict[str, Any] | None:
    if not token:
        return None
    for image in store.rows(IMAGES):
        if image.get("_upload_token") and secrets.compare_digest(image["_upload_token"], token):
            return image
    return None


class _GzipMeter:
    """Checks a gzip stream chunk by chunk and measures its uncompressed size without keeping
    it (a bounded output buffer per step, so a compression bomb cannot exhaust memory)."""

    STEP = MB

    def __init__(self) -> None:
        self.head = b""
        self.raw_size = 0
        self._inflate = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16)

    def feed(self, chunk: bytes) -> None:
        """Consume a chunk.

        Raises:
            ValueError: The data is not gzip.
        """
        if len(self.head) < 2:
            self.head += chunk[: 2 - len(self.head)]
            if len(self.head) == 2 and self.head != GZIP_MAGIC:
                raise ValueError("not gzip")
        data = chunk
        while data:
            if self._inflate.eof:
                # A gzip file may hold several members back to back.
                data = self._inflate.unused_data + data
                self._inflate = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16)
            try:
                out = self._inflate.decompress(data, self.STEP)
            except zlib.error:
                raise ValueError("corrupt gzip data") from None
            self.raw_size += len(out)
            data = self._inflate.unconsumed_tail
            if self._inflate.eof and self._inflate.unused_data:
                data = self._inflate.unused_data + data
                self._inflate = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16)

    @property
    def complete(self) -> bool:
        """True when at least one whole gzip member arrived and nothing is left half-read."""
        return len(self.head) == 2 and self._inflate.eof


@raw_route(UPLOAD_PREFIX, operation="images.upload_data")
async def receive_upload(request: Request, sim: Any) -> Response:
    """The ``upload_to`` address: accepts one PUT of gzip-compressed raw disk data."""
    store: Store = sim.store
    raw_path = request.scope.get("raw_path", request.url.path.encode()).decode("latin-1")
    token = raw_path.split("?", 1)[0][len(UPLOAD_PREFIX) :]
    if request.method.upper() != "PUT":
        return _upload_error(405, "Send the image data with PUT")
    image = _find_upload(store, token)
    if image is None:
        return _upload_error(404, "No upload is waiting at this address (cancelled or unknown)")
    if image["status"] != "pending_upload" or image.get("_uploaded"):
        return _upload_error(409, "The data of this image was already uploaded")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/octet-stream":
        return _upload_error(415, "Content-Type must be application/octet-stream")
    limit: int = sim.upload_limit
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return _upload_error(413, f"The upload exceeds the limit of {limit} bytes")
    meter = _GzipMeter()
    total = 0
    try:
        async for chunk in request.stream():
            if not chunk:
                continue
            total += len(chunk)
            if total > limit:
                return _upload_error(413, f"The upload exceeds the limit of {limit} bytes")
            meter.feed(chunk)
    except ValueError:
        return _upload_error(400, "The data must be a gzip-compressed raw disk image")
    if not meter.complete:
        return _upload_error(400, "The data must be a complete gzip-compressed raw disk image")
    now = sim.clock.now()
    image.update(
        _uploaded=True,
        size=max(1, -(-meter.raw_size // MB)),
        updated=iso(now),
    )
    store.put(IMAGES, image["id"], image)
    store.cancel_events("images.upload_expire", id=image["id"])
    store.schedule(now + sim.timings.get("images.process", 5.0), "images.processed", id=image["id"])
    return Response(status_code=200)
