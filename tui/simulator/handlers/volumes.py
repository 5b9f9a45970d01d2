"""Block volumes: create, attach and detach, clone, resize, delete.

Choices where the reference is silent:

* Labels follow the public reference's pattern ``^[a-zA-Z]((?!--|__)[a-zA-Z0-9-_])+$`` on
  create, rename and clone: ASCII letters, digits, dashes and underscores, beginning with a
  letter, never two dashes or two underscores in a row (``0`` and ``9lives`` are refused).
  The length is the documented 1..32, so a one-letter label is accepted where the pattern
  alone would ask for two characters. Labels are unique among the account's volumes (compared
  case-insensitively): the label becomes part of ``filesystem_path``
  (``/dev/disk/by-id/scsi-0Volume_<label>``), which follows renames and must name one device.
* ``size`` is 10..10240 GB (default 20). A new or cloned volume is ``creating`` for
  ``volumes.create`` seconds, a resized one ``resizing`` for ``volumes.resize`` seconds, then
  ``active``.
* The "last used" profile of an instance is its ``_last_booted_config`` when the compute area
  records one, else its most recently updated profile; an instance without profiles cannot take
  a volume (400, field ``config_id``).
* Instance-related errors in a body name ``compute_id`` (unknown or invisible instance, other
  region); missing ``read_write`` on an existing visible instance is 403.
* State refusals answer 409: attaching an attached volume, detaching a free one, deleting a
  ``migrating`` one, cloning or resizing one that is not ``active``.
* Only unrestricted users may set or change tags (403, field ``tags``), as for instances.
* A volume whose instance no longer exists shows as free.
"""

from __future__ import annotations

import re
from typing import Any

from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import SimError, conflict, forbidden, not_found
from tui.simulator.handlers.images import check_region, drop_grants
from tui.simulator.registry import handles, transition
from tui.simulator.store import Store
from tui.simulator.validate import Check

VOLUMES = "volumes.volumes"
INSTANCES = "compute.instances"
CONFIGS = "compute.configs"
LABEL = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""ASCII letters, digits, underscores and dashes (the label is part of a device path)."""
DOUBLED = re.compile(r"--|__")
"""Two dashes or two underscores in a row, which the reference's label pattern refuses."""
PATH_PREFIX = "/dev/disk/by-id/scsi-0Volume_"
SIZE_MIN, SIZE_MAX, SIZE_DEFAULT = 10, 10240, 20
TRANSIENT_DEFAULT_MAX = 8
TRANSIENT_RAM_THRESHOLD_GB = 16
TRANSIENT_HARD_MAX = 64
ID_START = 46000
TRANSITIONS = ("volumes.ready", "volumes.resized")


# -- records --------------------------------------------------------------------------------


def new_volume(
    store: Store,
    *,
    label: str,
    size: int,
    region: str,
    now_iso: str,
    status: str = "creating",
    instance: dict[str, Any] | None = None,
    config_id: int | None = None,
    tags: list[str] | None = None,
) -> dict[str, Any]:
    """Build and store a volume record, attached to ``instance`` when given."""
    volume_id = store.next_id("volumes.volume", start=ID_START)
    record = {
        "id": volume_id,
        "label": label,
        "status": status,
        "size": size,
        "region": region,
        "compute_id": instance["id"] if instance else None,
        "compute_label": instance.get("label") if instance else None,
        "hardware_type": "nvme",
        "filesystem_path": PATH_PREFIX + label,
        "tags": list(tags or []),
        "created": now_iso,
        "updated": now_iso,
        "_config_id": config_id,
        "_persist": True,
    }
    return store.put(VOLUMES, volume_id, record)


def volume_view(store: Store, record: dict[str, Any]) -> dict[str, Any]:
    """The API representation, with the attachment read from the live instance record."""
    out = public(record)
    compute_id = record.get("compute_id")
    if compute_id is not None:
        instance = store.get(INSTANCES, compute_id)
        if instance is None:
            out["compute_id"] = None
            out["compute_label"] = None
        else:
            out["compute_label"] = instance.get("label")
    return out


def configs_of(store: Store, compute_id: object) -> list[dict[str, Any]]:
    """Configuration profiles of an instance."""
    return [c for c in store.rows(CONFIGS) if str(c.get("_compute_id")) == str(compute_id)]


def last_used_config(store: Store, instance: dict[str, Any]) -> dict[str, Any] | None:
    """The only profile, else the last booted one, else the most recently updated one."""
    configs = configs_of(store, instance["id"])
    if len(configs) <= 1:
        return configs[0] if configs else None
    booted = instance.get("_last_booted_config")
    for config in configs:
        if booted is not None and str(config.get("id")) == str(booted):
            return config
    return max(
        configs,
        key=lambda c: (str(c.get("updated") or c.get("created") or ""), _as_int(c.get("id"))),
    )


def transient_limit(store: Store, instance: dict[str, Any]) -> int:
    """How many volumes the instance may hold attached without persistence."""
    memory_mb = (instance.get("specs") or {}).get("memory")
    if not isinstance(memory_mb, int):
        kind = store.get("compute.types", instance.get("type"))
        memory_mb = kind.get("memory") if kind else None
    ram_gb = memory_mb // 1024 if isinstance(memory_mb, int) else 0
    if ram_gb >= TRANSIENT_RAM_THRESHOLD_GB:
        return min(ram_gb, TRANSIENT_HARD_MAX)
    return TRANSIENT_DEFAULT_MAX


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _attached(store: Store, record: dict[str, Any]) -> dict[str, Any] | None:
    """The instance the volume is attached to, if it still exists."""
    compute_id = record.get("compute_id")
    return store.get(INSTANCES, compute_id) if compute_id is not None else None


# -- validation -----------------------------------------------------------------------------


def _check_label(ctx: Ctx, v: Check, *, required: bool, own_id: object = None) -> Any:
    label = v.string("label", required=required, min_len=1, max_len=32)
    if not isinstance(label, str) or not 1 <= len(label) <= 32:
        return label
    if not LABEL.fullmatch(label):
        v.fail("label", "label may contain only ASCII letters, digits, dashes and underscores")
    elif not label[0].isalpha():
        v.fail("label", "label must begin with a letter")
    elif DOUBLED.search(label):
        v.fail("label", "label may not hold two dashes or two underscores in a row")
    elif any(
        str(r.get("label", "")).casefold() == label.casefold() and r["id"] != own_id
        for r in ctx.store.rows(VOLUMES)
    ):
        v.fail("label", f"label {label!r} is already used by another volume")
    return label


def _check_tags(ctx: Ctx, v: Check, current: list[str]) -> Any:
    tags = v.string_list("tags")
    if isinstance(tags, list) and ctx.principal.restricted and sorted(tags) != sorted(current):
        raise SimError(403, "Only unrestricted users may add or change tags", "tags")
    return tags


def _visible_instance(ctx: Ctx, v: Check, compute_id: Any) -> dict[str, Any] | None:
    """The instance named by the body's ``compute_id`` (an error is recorded otherwise)."""
    if not isinstance(compute_id, int):
        return None
    instance = ctx.store.get(INSTANCES, compute_id)
    if instance is None or not ctx.principal.can_read("compute", compute_id):
        v.fail("compute_id", "compute_id does not name an instance you can access")
        return None
    return instance


def _require_instance_write(ctx: Ctx, instance: dict[str, Any]) -> None:
    if not ctx.principal.can_write("compute", instance["id"]):
        raise forbidden("You need read_write access to the instance")


def _resolve_config(
    ctx: Ctx, v: Check, instance: dict[str, Any], config_id: Any
) -> dict[str, Any] | None:
    """The profile a persistent attachment joins: the given one, or the last used one."""
    if isinstance(config_id, int):
        config = ctx.store.get(CONFIGS, config_id)
        if config is None or str(config.get("_compute_id")) != str(instance["id"]):
            v.fail("config_id", "config_id is not a configuration profile of this instance")
            return None
        return config
    config = last_used_config(ctx.store, instance)
    if config is None:
        v.fail("config_id", "the instance has no configuration profile to attach the volume to")
    return config


def _volume(ctx: Ctx) -> dict[str, Any]:
    record = ctx.store.get(VOLUMES, ctx.param_int("volumeId"))
    if record is None or not ctx.principal.can_read("volume", record["id"]):
        raise not_found("Volume not found")
    return record


def _save(ctx: Ctx, record: dict[str, Any]) -> dict[str, Any]:
    record["updated"] = ctx.now_iso
    ctx.store.put(VOLUMES, record["id"], record)
    return volume_view(ctx.store, record)


# -- transitions ----------------------------------------------------------------------------


@transition("volumes.ready")
def volume_ready(store: Store, now: float, id: int) -> None:
    """A new or cloned volume is ready."""
    record = store.get(VOLUMES, id)
    if record is not None and record["status"] == "creating":
        record["status"] = "active"
        store.put(VOLUMES, id, record)


@transition("volumes.resized")
def volume_resized(store: Store, now: float, id: int) -> None:
    """A resize finished."""
    record = store.get(VOLUMES, id)
    if record is not None and record["status"] == "resizing":
        record["status"] = "active"
        store.put(VOLUMES, id, record)


# -- handlers -------------------------------------------------------------------------------


@handles("volumes.list")
def volumes_list(ctx: Ctx) -> Collection:
    """Every volume the caller may see."""
    return Collection(
        [
            volume_view(ctx.store, r)
            for r in ctx.store.rows(VOLUMES)
            if ctx.principal.can_read("volume", r["id"])
        ]
    )


@handles("volumes.create")
def volumes_create(ctx: Ctx) -> dict[str, Any]:
    """Create a volume in a region, or attached at once to an instance."""
    p = ctx.principal
    p.require_global("add_volumes")
    v = Check(ctx.body)
    v.unknown(("label", "size", "region", "compute_id", "config_id", "tags"))
    label = _check_label(ctx, v, required=True)
    size = v.integer("size", lo=SIZE_MIN, hi=SIZE_MAX, default=SIZE_DEFAULT)
    compute_id = v.integer("compute_id", nullable=True)
    config_id = v.integer("config_id", nullable=True)
    tags = _check_tags(ctx, v, [])
    instance: dict[str, Any] | None = None
    config: dict[str, Any] | None = None
    if v.raw("compute_id") is None:
        # Absent or null: a free volume, placed by region.
        region = check_region(ctx.store, v, required=False)
        if v.raw("region") is None and "region" not in {e.get("field") for e in v.errors}:
            v.fail("region", "region is required when compute_id is not given")
        if config_id is not None:
            v.fail("config_id", "config_id must not be given without compute_id")
    else:
        region = check_region(ctx.store, v, required=False)
        instance = _visible_instance(ctx, v, compute_id)
        if instance is not None:
            if region is not None and region != instance.get("region"):
                v.fail("region", f"region must match the instance's region ({instance['region']})")
            region = instance.get("region")
            config = _resolve_config(ctx, v, instance, config_id)
    v.done()
    if instance is not None:
        _require_instance_write(ctx, instance)
    record = new_volume(
        ctx.store,
        label=label,
        size=size,
        region=str(region),
        now_iso=ctx.now_iso,
        instance=instance,
        config_id=config["id"] if config else None,
        tags=tags,
    )
    ctx.schedule("volumes.ready", after=ctx.delay("volumes.create"), id=record["id"])
    p.add_grant("volume", record["id"], label)
    return volume_view(ctx.store, record)


@handles("volumes.view")
def volumes_view(ctx: Ctx) -> dict[str, Any]:
    """One volume."""
    return volume_view(ctx.store, _volume(ctx))


@handles("volumes.update")
def volumes_update(ctx: Ctx) -> dict[str, Any]:
    """Change label (the device path follows) and tags."""
    record = _volume(ctx)
    ctx.principal.require_write("volume", record["id"])
    v = ctx.check()
    v.unknown(("label", "tags"))
    label = _check_label(ctx, v, required=False, own_id=record["id"])
    tags = _check_tags(ctx, v, record["tags"])
    v.done()
    if label is not None:
        record["label"] = label
        record["filesystem_path"] = PATH_PREFIX + label
    if tags is not None:
        record["tags"] = list(tags)
    return _save(ctx, record)


@handles("volumes.delete")
def volumes_delete(ctx: Ctx) -> None:
    """Delete a volume (irreversible), not while it migrates."""
    record = _volume(ctx)
    ctx.principal.require_write("volume", record["id"])
    if record["status"] == "migrating":
        raise conflict("The volume is migrating: it can be deleted once the migration finishes")
    ctx.store.delete(VOLUMES, record["id"])
    for name in TRANSITIONS:
        ctx.store.cancel_events(name, id=record["id"])
    drop_grants(ctx.store, "volume", record["id"])


@handles("volumes.attach")
def volumes_attach(ctx: Ctx) -> dict[str, Any]:
    """Attach to an instance of the same region, persistently (a profile) or until next boot."""
    record = _volume(ctx)
    v = Check(ctx.body)
    v.unknown(("compute_id", "config_id", "persist_across_boots"))
    compute_id = v.integer("compute_id", required=True)
    config_id = v.integer("config_id", nullable=True)
    persist = v.boolean("persist_across_boots", default=True)
    instance = _visible_instance(ctx, v, compute_id)
    config: dict[str, Any] | None = None
    if instance is not None:
        if instance.get("region") != record["region"]:
            v.fail(
                "compute_id",
                f"the instance is in {instance.get('region')} and the volume in "
                f"{record['region']}: they must share a region",
            )
        elif persist is False:
            if config_id is not None:
                v.fail(
                    "config_id", "config_id must not be given when persist_across_boots is false"
                )
            if instance.get("status") != "running":
                v.fail(
                    "persist_across_boots",
                    "the instance must be running to attach a volume without persistence",
                )
            held = sum(
                1
                for r in ctx.store.rows(VOLUMES)
                if str(r.get("compute_id")) == str(instance["id"]) and not r.get("_persist", True)
            )
            limit = transient_limit(ctx.store, instance)
            if held >= limit:
                v.fail(
                    "persist_across_boots",
                    f"the instance already holds {held} volumes attached without persistence "
                    f"(at most {limit})",
                )
        else:
            config = _resolve_config(ctx, v, instance, config_id)
    v.done()
    if _attached(ctx.store, record) is not None:
        raise conflict(
            f"The volume is already attached to instance {record['compute_id']}: detach it first",
            "compute_id",
        )
    assert instance is not None  # v.done() raised otherwise
    _require_instance_write(ctx, instance)
    record.update(
        compute_id=instance["id"],
        compute_label=instance.get("label"),
        _config_id=config["id"] if config else None,
        _persist=persist is not False,
    )
    return _save(ctx, record)


@handles("volumes.detach")
def volumes_detach(ctx: Ctx) -> None:
    """Detach from its instance."""
    record = _volume(ctx)
    ctx.principal.require_write("volume", record["id"])
    instance = _attached(ctx.store, record)
    if instance is None:
        raise conflict("The volume is not attached to an instance")
    _require_instance_write(ctx, instance)
    record.update(compute_id=None, compute_label=None, _config_id=None, _persist=True)
    _save(ctx, record)


@handles("volumes.clone")
def volumes_clone(ctx: Ctx) -> dict[str, Any]:
    """Copy an active volume (same size, region and data) into a new free one."""
    record = _volume(ctx)
    p = ctx.principal
    p.require_global("add_volumes")
    v = Check(ctx.body)
    v.unknown(("label",))
    label = _check_label(ctx, v, required=True)
    v.done()
    if record["status"] != "active":
        raise conflict(f"Only an active volume can be cloned (this one is {record['status']})")
    clone = new_volume(
        ctx.store,
        label=label,
        size=record["size"],
        region=record["region"],
        now_iso=ctx.now_iso,
    )
    clone["_cloned_from"] = record["id"]
    ctx.schedule("volumes.ready", after=ctx.delay("volumes.create"), id=clone["id"])
    p.add_grant("volume", clone["id"], label)
    return volume_view(ctx.store, clone)


@handles("volumes.resize")
def volumes_resize(ctx: Ctx) -> dict[str, Any]:
    """Grow an active volume: ``resizing``, then ``active``."""
    record = _volume(ctx)
    ctx.principal.require_write("volume", record["id"])
    v = Check(ctx.body)
    v.unknown(("size",))
    size = v.integer("size", required=True, lo=SIZE_MIN, hi=SIZE_MAX)
    if isinstance(size, int) and SIZE_MIN <= size <= SIZE_MAX and size <= record["size"]:
        v.fail("size", f"size must be larger than the current {record['size']} GB (growth only)")
    v.done()
    if record["status"] != "active":
        raise conflict(f"Only an active volume can be resized (this one is {record['status']})")
    record.update(size=size, status="resizing")
    ctx.schedule("volumes.resized", after=ctx.delay("volumes.resize"), id=record["id"])
    return _save(ctx, record)
