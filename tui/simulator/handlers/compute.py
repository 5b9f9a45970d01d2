"""Compute instances: lifecycle, configuration profiles, disks, backups, statistics, transfer,
attached volumes; kernels, regions and instance types.

Choices where the reference is silent:

* Instance labels are 3..64 characters and unique among the account's instances (compared
  case-insensitively; 400, field ``label``). Beyond length the reference is silent; the
  simulator applies the reference's rule for database snapshot labels (ASCII letters, digits,
  ``-``, ``_`` and ``.``; a letter or digit first and last; no two punctuation marks in a row),
  so markup and non-ASCII text belong in tags and descriptions, not in labels. An omitted
  label becomes ``<type prefix>-<region>-<n>`` (``std-us-east-1``) with the smallest free ``n``.
* ``root_pass`` (7..128) is required with ``image``; ``image`` and ``backup_id`` exclude each
  other; ``stackscript_id`` needs ``image`` (400, field ``image``) and a script whose
  ``images`` list holds that image or ``any/all`` (400, field ``stackscript_id``). The script's
  user-defined fields without a default need a string answer in ``stackscript_data``
  (400, field ``stackscript_data.<name>``); ``oneof`` answers must be one of the choices.
  Deploying a script raises its ``deployments_total`` and ``deployments_active``.
* Images must exist, be visible to the caller and be ``available`` (400, field ``image``).
  The main disk from an image takes the type's disk minus the swap disk; ``swap_size`` 0
  means no swap disk; image plus swap must fit in the type's disk (400, field ``swap_size``).
* ``backup_id`` must name a finished (``successful``) backup of an instance the caller can
  read (400, field ``backup_id``); a type whose disk is smaller than the backup's disks is
  refused with field ``type``. Disks and profiles are copied (volumes are not).
* ``interfaces`` (at most 3): one ``public`` entry at most, with no ``label`` or
  ``ipam_address``; ``vlan`` entries need a label of 1..64 letters, digits, ``-`` or ``_``,
  each VLAN once, an optional ``ipam_address`` with prefix length, and a region with the
  ``Vlans`` capability. Errors name ``interfaces[<i>].<field>``. Interfaces live on
  configuration profiles, so an instance created without image or backup refuses them.
* ``authorized_keys`` entries must look like one public SSH key; ``authorized_users`` must be
  users of the account. Neither is stored (nor is any password: nothing echoes a secret).
* From an image: ``provisioning`` for ``compute.provision`` seconds, then ``running`` (or
  ``offline`` with ``booted`` false); the disks are ``not ready`` until then. Boot, reboot,
  shutdown and resize take ``compute.boot``, ``compute.reboot``, ``compute.shutdown`` and
  ``compute.resize`` seconds; a new disk is ``not ready`` for ``compute.disk`` seconds.
* Boot is accepted from ``offline`` or ``stopped``; reboot and shutdown only from
  ``running``; every other state answers 409 (transitional states: "queued actions must
  complete first"). Boot and reboot use ``config_id``, else the last booted profile, else the
  first; an instance without profiles cannot boot (400, field ``config_id``). The profile used
  is recorded as ``_last_booted_config``.
* Resize refusals: unknown type or the current type (400, field ``type``); disks larger than the
  new type's disk (400, field ``type``); a transitional status, ``_pending_migration`` (an
  internal flag seeds may set) or an outstanding balance (store meta
  :data:`BALANCE_META`, US cents owed, absent = 0) answer 409. The instance is ``resizing``,
  then takes the new type's specs and returns to its previous power state; with
  ``allow_auto_disk_resize`` (default true) a single main ext3/ext4 disk grows into new space.
* Rescue accepts any non-transitional status; ``devices`` is optional (default: the
  instance's disks in order from ``sda``), slots ``sda``..``sdg`` (``sdh`` is reserved: field
  ``devices.sdh``); disks must be the instance's and volumes attached to it (fields
  ``devices.<slot>.disk_id`` / ``.volume_id``). The instance is ``booting`` (or
  ``rebooting`` when running), then ``running``.
* Delete is refused (409) while ``cloning`` or ``restoring``; it removes disks, profiles and
  backups, detaches volumes and drops every grant on the instance.
* Profiles: ``label`` 1..48 and ``devices`` required on create; ``kernel`` must be a known
  kernel (default ``compute/latest-64bit``); ``memory_limit`` 0..the instance's memory
  (default: all of it); ``run_level`` ``default`` (default), ``single``, ``binbash``;
  ``virt_mode`` ``paravirt`` (default), ``fullvirt``; ``root_device`` ``/dev/...`` (default
  ``/dev/sda``); every helper defaults to on (so updatedb is disabled). Devices follow the
  rescue rules with all eight slots; a disk or volume may sit in one slot only. ``devices``
  and ``interfaces`` given on update replace the whole map or list.
* Disks: ``size`` is required (MB, at least 1) and must fit in the type's free disk space, and
  hold the image when deploying one; the label defaults to ``<image label> Disk``; images have
  no filesystem of their own here, so ``ext4`` unless one is chosen.
* Alerts: non-negative integers; ``cpu`` at most 100 per vCPU, ``transfer_quota`` at most 100.
  Backup schedule: ``day`` ``Scheduling`` or a weekday name, ``window`` ``Scheduling`` or
  ``W0``, ``W2`` ... ``W22``. ``group`` is at most 50 characters.
* Statistics are computed from the instance id (nothing stored): 24 hours in 5-minute points;
  a month in 1-hour points (the current month: the past 30 days). Points start at the
  instance's creation. Values: CPU percent; I/O blocks per second; network bits per second.
  ``year`` 2000..the current year, ``month`` 1..12 and not in the future (400 naming the
  field). Transfer: ``year`` 2000..2037, ``month`` 1..12; ``used`` is bytes this month,
  ``quota`` the type's GB, ``billable`` whole GB beyond it; future months are zero.
* The instance volumes listing shows volumes attached to the instance that the caller may read.
* Public IPv4 addresses come from the documentation ranges (RFC 5737), then from
  100.64.0.0/10 for bulk data; IPv6 addresses from 2001:db8::/32; so no demo address reaches a
  real host. Private addresses are in 192.168.128.0/17.
"""

from __future__ import annotations

import ipaddress
import math
import random
import re
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import cache
from typing import Any, SupportsIndex, overload

from tui.simulator.clock import iso, parse_iso
from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import SimError, conflict, not_found
from tui.simulator.handlers.deployscripts import ANY_IMAGE, SCRIPTS, can_see_script
from tui.simulator.handlers.images import (
    CONTRACT_REGIONS,
    IMAGES,
    can_see_image,
    check_region,
    drop_grants,
)
from tui.simulator.handlers.volumes import volume_view
from tui.simulator.registry import handles, transition
from tui.simulator.store import Store
from tui.simulator.validate import Check

INSTANCES = "compute.instances"
CONFIGS = "compute.configs"
DISKS = "compute.disks"
BACKUPS = "compute.backups"
KERNELS = "compute.kernels"
REGIONS = "compute.regions"
TYPES = "compute.types"
VOLUMES = "volumes.volumes"

BALANCE_META = "compute.account_balance_cents"
"""Outstanding balance of the account in US cents; above 0, resizing is refused."""

INSTANCE_ID_START = 51200
CONFIG_ID_START = 23400
DISK_ID_START = 128400
BACKUP_ID_START = 71800

LABEL_MIN, LABEL_MAX = 3, 64
LABEL_PATTERN = re.compile(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*")
"""Instance labels: see the module notes (the reference's snapshot label rule)."""
ROOT_PASS_MIN, ROOT_PASS_MAX = 7, 128
CONFIG_LABEL_MAX = 48
DISK_LABEL_MAX = 48
GROUP_MAX = 50
INTERFACES_MAX = 3
DEFAULT_SWAP = 512
DEFAULT_KERNEL = "compute/latest-64bit"
DEVICE_SLOTS = ("sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh")
RESCUE_SLOTS = DEVICE_SLOTS[:-1]
RUN_LEVELS = ("default", "single", "binbash")
VIRT_MODES = ("paravirt", "fullvirt")
FILESYSTEMS = ("raw", "swap", "ext3", "ext4", "initrd")
HELPERS = ("devtmpfs_automount", "distro", "modules_dep", "network", "updatedb_disabled")
ALERTS = ("cpu", "io", "network_in", "network_out", "transfer_quota")
BACKUP_DAYS = (
    "Scheduling",
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
)
BACKUP_WINDOWS = ("Scheduling", *(f"W{h}" for h in range(0, 24, 2)))
VLAN_LABEL = re.compile(r"[A-Za-z0-9_-]{1,64}")
ROOT_DEVICE = re.compile(r"/dev/\S{1,59}")
SSH_KEY_PREFIXES = ("ssh-", "ecdsa-", "sk-")
VLAN_CAPABILITY = "Vlans"

TRANSITIONAL = frozenset(
    {
        "provisioning",
        "booting",
        "rebooting",
        "shutting_down",
        "migrating",
        "resizing",
        "deleting",
        "rebuilding",
        "cloning",
        "restoring",
    }
)
"""Statuses during which queued actions are still running."""

TRANSITIONS = (
    "compute.provisioned",
    "compute.booted",
    "compute.shut_down",
    "compute.resized",
)
"""Timed transitions keyed by ``id`` = instance id (``compute.disk_ready`` uses ``disk_id``)."""

CREATE_FIELDS = (
    "region",
    "type",
    "label",
    "group",
    "tags",
    "image",
    "root_pass",
    "authorized_keys",
    "authorized_users",
    "swap_size",
    "stackscript_id",
    "stackscript_data",
    "backup_id",
    "backups_enabled",
    "booted",
    "private_ip",
    "interfaces",
)
UPDATE_FIELDS = ("alerts", "backups.schedule", "group", "label", "tags", "watchdog_enabled")
"""What an instance update takes: of ``backups`` only its ``schedule``."""
CONFIG_FIELDS = (
    "label",
    "devices",
    "kernel",
    "comments",
    "memory_limit",
    "run_level",
    "virt_mode",
    "root_device",
    "helpers",
    "interfaces",
)
DISK_FIELDS = (
    "label",
    "size",
    "filesystem",
    "image",
    "root_pass",
    "authorized_keys",
    "authorized_users",
    "stackscript_id",
    "stackscript_data",
)

MINUTE, HOUR, DAY = 60, 3600, 86400
GB = 1024**3
SHARED_NET_START = (100 << 24) | (64 << 16) | 1
"""100.64.0.1, the first address of the shared address space (RFC 6598)."""
DOC_NETS = ("192.0.2", "198.51.100", "203.0.113")
"""RFC 5737 documentation networks: 253 usable hosts each (.1 .. .253 here)."""


# -- records --------------------------------------------------------------------------------


def type_specs(kind: dict[str, Any] | None) -> dict[str, int]:
    """``specs`` of an instance of type ``kind`` (zeros for an unknown type)."""
    kind = kind or {}
    return {
        "disk": int(kind.get("disk") or 0),
        "memory": int(kind.get("memory") or 0),
        "vcpus": int(kind.get("vcpus") or 0),
        "transfer": int(kind.get("transfer") or 0),
    }


def default_alerts(vcpus: int) -> dict[str, int]:
    """Alert thresholds of a new instance."""
    return {
        "cpu": 90 * max(1, vcpus),
        "io": 10000,
        "network_in": 10,
        "network_out": 10,
        "transfer_quota": 80,
    }


def _region_index(region: str) -> int:
    try:
        return CONTRACT_REGIONS.index(region)
    except ValueError:
        return len(CONTRACT_REGIONS)


def public_ipv4(n: int) -> str:
    """The ``n``-th public address handed out (documentation ranges first)."""
    if n < len(DOC_NETS) * 253:
        return f"{DOC_NETS[n // 253]}.{n % 253 + 1}"
    # Shared address space (100.64.0.0/10): never routed on the internet either.
    value = SHARED_NET_START + n
    return f"{value >> 24}.{(value >> 16) & 0xFF}.{(value >> 8) & 0xFF}.{value & 0xFF}"


def private_ipv4(n: int) -> str:
    """The ``n``-th private address (192.168.128.0/17)."""
    return f"192.168.{128 + (n // 254) % 128}.{n % 254 + 1}"


def slaac_ipv6(region: str, n: int) -> str:
    """A SLAAC-looking ``/128`` address in the documentation prefix."""
    # SLAAC derives the last 24 bits from the MAC address: spread them like real ones.
    mac = (n * 2654435761 + 0x5A17) & 0xFFFFFF
    prefix = f"2001:db8:{_region_index(region) + 1:x}00::f03c:95ff"
    return f"{prefix}:fe{mac >> 16:02x}:{mac & 0xFFFF:x}/128"


@cache
def _hosts() -> tuple[str, ...]:
    return tuple(str(uuid.uuid5(uuid.NAMESPACE_URL, f"cloudtui-host-{h}")) for h in range(48))


def host_uuid(instance_id: int) -> str:
    """The host machine of an instance (a few dozen hosts share the fleet)."""
    hosts = _hosts()
    return hosts[instance_id % len(hosts)]


def new_instance(
    store: Store,
    *,
    label: str,
    region: str,
    kind: dict[str, Any],
    status: str,
    now_iso: str,
    image: str | None = None,
    tags: Iterable[str] = (),
    group: str = "",
    private_ip: bool = False,
    backups_enabled: bool = False,
    watchdog_enabled: bool = True,
) -> dict[str, Any]:
    """Build and store an instance record with its addresses."""
    instance_id = store.next_id("compute.instance", start=INSTANCE_ID_START)
    n = store.next_id("compute.address", start=0)
    specs = type_specs(kind)
    ipv4 = [public_ipv4(n)]
    if private_ip:
        ipv4.append(private_ipv4(n))
    record: dict[str, Any] = {
        "id": instance_id,
        "label": label,
        "status": status,
        "region": region,
        "type": kind.get("id"),
        "specs": specs,
        "ipv4": ipv4,
        "ipv6": slaac_ipv6(region, n),
        "image": image,
        "tags": list(tags),
        "group": group,
        "hypervisor": "kvm",
        "host_uuid": host_uuid(instance_id),
        "alerts": default_alerts(specs["vcpus"]),
        "backups": {
            "available": False,
            "enabled": backups_enabled,
            "last_successful": None,
            "schedule": {"day": "Scheduling", "window": "Scheduling"},
        },
        "watchdog_enabled": watchdog_enabled,
        "created": now_iso,
        "updated": now_iso,
        "_last_booted_config": None,
    }
    return store.put(INSTANCES, instance_id, record)


def new_disk(
    store: Store,
    compute_id: int,
    *,
    label: str,
    size: int,
    filesystem: str,
    status: str,
    now_iso: str,
) -> dict[str, Any]:
    """Build and store a disk record of an instance."""
    disk_id = store.next_id("compute.disk", start=DISK_ID_START)
    record = {
        "id": disk_id,
        "label": label,
        "status": status,
        "size": size,
        "filesystem": filesystem,
        "created": now_iso,
        "updated": now_iso,
        "_compute_id": compute_id,
    }
    return store.put(DISKS, disk_id, record)


def empty_devices() -> dict[str, Any]:
    """A device map with every slot free."""
    return dict.fromkeys(DEVICE_SLOTS)


def default_helpers() -> dict[str, bool]:
    """Helpers of a new profile: everything on."""
    return dict.fromkeys(HELPERS, True)


def new_config(
    store: Store,
    compute_id: int,
    *,
    label: str,
    devices: dict[str, Any],
    memory_limit: int,
    now_iso: str,
    kernel: str = DEFAULT_KERNEL,
    comments: str | None = None,
    run_level: str = "default",
    virt_mode: str = "paravirt",
    root_device: str = "/dev/sda",
    helpers: dict[str, bool] | None = None,
    interfaces: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Build and store a configuration profile of an instance."""
    config_id = store.next_id("compute.config", start=CONFIG_ID_START)
    record = {
        "id": config_id,
        "label": label,
        "comments": comments,
        "kernel": kernel,
        "devices": {**empty_devices(), **devices},
        "root_device": root_device,
        "run_level": run_level,
        "virt_mode": virt_mode,
        "memory_limit": memory_limit,
        "helpers": helpers if helpers is not None else default_helpers(),
        "interfaces": list(interfaces or []),
        "created": now_iso,
        "updated": now_iso,
        "_compute_id": compute_id,
    }
    return store.put(CONFIGS, config_id, record)


def deploy_image(
    store: Store,
    instance: dict[str, Any],
    *,
    image_label: str,
    swap_size: int,
    now_iso: str,
    disk_status: str,
    interfaces: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The layout of an instance deployed from an image: main disk, swap disk, one profile.

    Returns:
        The profile.
    """
    total = int((instance.get("specs") or {}).get("disk") or 0)
    main = new_disk(
        store,
        instance["id"],
        label=f"{image_label} Disk",
        size=max(1, total - swap_size),
        filesystem="ext4",
        status=disk_status,
        now_iso=now_iso,
    )
    devices: dict[str, Any] = {"sda": {"disk_id": main["id"], "volume_id": None}}
    if swap_size > 0:
        swap = new_disk(
            store,
            instance["id"],
            label=f"{swap_size} MB Swap Image",
            size=swap_size,
            filesystem="swap",
            status=disk_status,
            now_iso=now_iso,
        )
        devices["sdb"] = {"disk_id": swap["id"], "volume_id": None}
    return new_config(
        store,
        instance["id"],
        label=f"My {image_label} Profile",
        devices=devices,
        memory_limit=int((instance.get("specs") or {}).get("memory") or 0),
        now_iso=now_iso,
        interfaces=interfaces,
    )


def new_backup(
    store: Store,
    instance: dict[str, Any],
    *,
    label: str | None,
    kind: str,
    slot: str,
    created: str,
    finished: str | None,
    status: str = "successful",
) -> dict[str, Any]:
    """Capture the instance's disks and profiles as a backup record.

    Args:
        store: The state.
        instance: The instance backed up.
        label: Label (snapshots), or None.
        kind: ``automatic`` or ``snapshot``.
        slot: ``automatic``, ``current`` or ``in_progress``.
        created: Start time.
        finished: Finish time, None while running.
        status: ``successful`` or ``running``.
    """
    backup_id = store.next_id("compute.backup", start=BACKUP_ID_START)
    disks = disks_of(store, instance["id"])
    configs = configs_of(store, instance["id"])
    record = {
        "id": backup_id,
        "label": label,
        "type": kind,
        "status": status,
        "available": status == "successful",
        "configs": [c.get("label") for c in configs],
        "disks": [
            {"filesystem": d.get("filesystem"), "label": d.get("label"), "size": d.get("size")}
            for d in disks
        ],
        "region": instance.get("region"),
        "created": created,
        "updated": finished or created,
        "finished": finished,
        "_compute_id": instance["id"],
        "_slot": slot,
        # What a restore needs: the source disk ids let copied profiles point at the new disks.
        "_disks": [
            {
                "id": d["id"],
                "label": d.get("label"),
                "size": d.get("size"),
                "filesystem": d.get("filesystem"),
            }
            for d in disks
        ],
        "_configs": [public(c) for c in configs],
    }
    return store.put(BACKUPS, backup_id, record)


def _owned(store: Store, table: str, compute_id: object) -> list[dict[str, Any]]:
    return store.group(table, "_compute_id", compute_id)


def disks_of(store: Store, compute_id: object) -> list[dict[str, Any]]:
    """Disks of an instance, in creation order."""
    return _owned(store, DISKS, compute_id)


def configs_of(store: Store, compute_id: object) -> list[dict[str, Any]]:
    """Configuration profiles of an instance, in creation order."""
    return _owned(store, CONFIGS, compute_id)


def backups_of(store: Store, compute_id: object) -> list[dict[str, Any]]:
    """Backups of an instance, in creation order."""
    return _owned(store, BACKUPS, compute_id)


def instance_view(record: dict[str, Any]) -> dict[str, Any]:
    """The API representation of an instance."""
    return public(record)


class PublicRows(list[dict[str, Any]]):
    """Records that turn into their public form only when read.

    The core paginates a handler's :class:`Collection` by ``len()`` and one slice, so a
    10,000-instance listing looks only at the page it sends instead of every record. A slice
    is for encoding only: its records may be the store's own.
    """

    @overload
    def __getitem__(self, index: SupportsIndex) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            # The core's page slice is encoded at once and never changed, so a record without
            # internal fields (nearly all) is passed as it is instead of copied: a third less
            # CPU for a 500-instance page (copying was as costly as encoding).
            return [r if _all_public(r) else public(r) for r in super().__getitem__(index)]
        return public(super().__getitem__(index))

    def __iter__(self) -> Any:
        return (public(r) for r in super().__iter__())


def _all_public(record: dict[str, Any]) -> bool:
    """True when no key of ``record`` is internal (``_``-prefixed)."""
    # A key starting with "_" sorts before "`" (the next character): when even the smallest
    # key does not, none is internal. min() runs in C, a third of the loop's cost on a page;
    # the loop decides only for records that have such a key (or one in upper case).
    if not record or min(record) >= "`":
        return True
    return all(k[:1] != "_" for k in record)


# -- lookups and shared checks --------------------------------------------------------------


def _instance(ctx: Ctx, *, write: bool = False) -> dict[str, Any]:
    """The instance of the path: 404 when invisible, 403 when a change needs read_write."""
    record = ctx.store.get(INSTANCES, ctx.param_int("computeId"))
    if record is None or not ctx.principal.can_read("compute", record["id"]):
        raise not_found("Instance not found")
    if write:
        ctx.principal.require_write("compute", record["id"])
    return record


def _kind_of(store: Store, instance: dict[str, Any]) -> dict[str, Any] | None:
    type_id = instance.get("type")
    return store.get(TYPES, type_id) if isinstance(type_id, str) else None


def _specs(store: Store, instance: dict[str, Any]) -> dict[str, int]:
    specs = instance.get("specs")
    if isinstance(specs, dict) and specs.get("disk"):
        return {k: int(specs.get(k) or 0) for k in ("disk", "memory", "vcpus", "transfer")}
    return type_specs(_kind_of(store, instance))


def _require_idle(instance: dict[str, Any], action: str) -> None:
    status = instance.get("status")
    if status in TRANSITIONAL:
        raise conflict(
            f"The instance is {status}: queued actions must complete before it can {action}"
        )


def _check_type(ctx: Ctx, v: Check, type_id: Any) -> dict[str, Any] | None:
    if not isinstance(type_id, str):
        return None
    kind = ctx.store.get(TYPES, type_id)
    if kind is None:
        v.fail("type", "type is not valid")
    return kind


def _label_taken(store: Store, label: str, own_id: object = None) -> bool:
    folded = label.casefold()
    own = str(own_id)
    return any(
        isinstance(r.get("label"), str)
        and r["label"].casefold() == folded
        and str(r.get("id")) != own
        for r in store.table(INSTANCES).values()
    )


def _check_label(ctx: Ctx, v: Check, *, create: bool, own_id: object = None) -> Any:
    label = v.string("label", min_len=LABEL_MIN, max_len=LABEL_MAX, nullable=create)
    if not isinstance(label, str) or not LABEL_MIN <= len(label) <= LABEL_MAX:
        return label
    if not LABEL_PATTERN.fullmatch(label):
        v.fail(
            "label",
            "label may contain only ASCII letters, digits, dashes, underscores and periods, "
            "must begin and end with a letter or digit, and must not have two of - _ . in a row",
        )
    elif _label_taken(ctx.store, label, own_id):
        v.fail("label", f"label {label!r} is already used by another instance")
    return label


def default_label(store: Store, type_id: str, region: str) -> str:
    """``<type prefix>-<region>-<n>`` with the smallest free ``n``."""
    prefix = type_id.rsplit("-", 1)[0] if "-" in type_id else type_id
    base = f"{prefix}-{region}"[: LABEL_MAX - 6]
    used = {
        str(r.get("label")).casefold()
        for r in store.table(INSTANCES).values()
        if str(r.get("label", "")).startswith(base)
    }
    n = 1
    while f"{base}-{n}".casefold() in used:
        n += 1
    return f"{base}-{n}"


def _check_tags(ctx: Ctx, v: Check, current: list[str]) -> Any:
    tags = v.string_list("tags")
    if isinstance(tags, list) and ctx.principal.restricted and sorted(tags) != sorted(current):
        raise SimError(403, "Only unrestricted users may add or change tags", "tags")
    return tags


def _optional_strings(v: Check, field: str) -> Any:
    """An optional array of strings (null counts as absent)."""
    if v.raw(field) is None:
        return None
    return v.string_list(field)


def _check_keys(v: Check) -> Any:
    keys = _optional_strings(v, "authorized_keys")
    if isinstance(keys, list):
        for key in keys:
            text = key.strip()
            if "\n" in text or not text.startswith(SSH_KEY_PREFIXES) or len(text.split()) < 2:
                v.fail("authorized_keys", "each entry must be one public SSH key (ssh-ed25519 …)")
                break
    return keys


def _check_users(ctx: Ctx, v: Check) -> Any:
    users = _optional_strings(v, "authorized_users")
    if isinstance(users, list):
        known = ctx.store.table("users")
        unknown = [u for u in users if u not in known]
        if unknown:
            v.fail("authorized_users", f"not users of this account: {', '.join(unknown)}")
    return users


def _usable_image(ctx: Ctx, v: Check, image_id: Any) -> dict[str, Any] | None:
    if not isinstance(image_id, str):
        return None
    image = ctx.store.get(IMAGES, image_id)
    if image is None or not can_see_image(ctx.principal, image):
        v.fail("image", f"image {image_id!r} is not an image you can deploy")
        return None
    if image.get("status") != "available":
        v.fail("image", f"image {image_id} is {image.get('status')}: only available images deploy")
        return None
    return image


def _check_script(ctx: Ctx, v: Check, image_id: Any) -> dict[str, Any] | None:
    """``stackscript_id`` and ``stackscript_data`` against the chosen image."""
    script_id = v.integer("stackscript_id", nullable=True)
    data = v.obj("stackscript_data", nullable=True)
    if script_id is None:
        if data is not None:
            v.fail("stackscript_data", "stackscript_data needs stackscript_id")
        return None
    if not isinstance(script_id, int):
        return None
    script = ctx.store.get(SCRIPTS, script_id)
    if script is None or not can_see_script(ctx.store, ctx.principal, script):
        v.fail("stackscript_id", "stackscript_id is not a deployment script you can use")
        return None
    if v.raw("image") is None:
        v.fail("image", "a deployment script needs an image")
        return script
    allowed = [str(i) for i in script.get("images") or []]
    if isinstance(image_id, str) and ANY_IMAGE not in allowed and image_id not in allowed:
        v.fail(
            "stackscript_id",
            f"the script does not support image {image_id} (it supports: {', '.join(allowed)})",
        )
    answers = data if isinstance(data, dict) else {}
    for udf in script.get("user_defined_fields") or []:
        name = udf.get("name")
        if not name:
            continue
        value = answers.get(name)
        field = f"stackscript_data.{name}"
        if value is None or value == "":
            if "default" not in udf:
                v.fail(field, f"the script needs a value for {name} ({udf.get('label', name)})")
        elif not isinstance(value, str):
            v.fail(field, f"{name} must be a string")
        elif udf.get("oneof") and value not in str(udf["oneof"]).split(","):
            v.fail(field, f"{name} must be one of: {udf['oneof']}")
    return script


def _check_backup(ctx: Ctx, v: Check, kind: dict[str, Any] | None) -> dict[str, Any] | None:
    backup_id = v.integer("backup_id", nullable=True)
    if not isinstance(backup_id, int):
        return None
    backup = ctx.store.get(BACKUPS, backup_id)
    source = backup.get("_compute_id") if backup else None
    if (
        backup is None
        or ctx.store.get(INSTANCES, source) is None
        or not ctx.principal.can_read("compute", source)
    ):
        v.fail("backup_id", "backup_id is not a backup of an instance you can access")
        return None
    if backup.get("status") != "successful" or not backup.get("available"):
        v.fail("backup_id", f"backup {backup_id} is not finished: only finished backups restore")
        return None
    needed = sum(int(d.get("size") or 0) for d in backup.get("disks") or [])
    if kind is not None and needed > int(kind.get("disk") or 0):
        v.fail(
            "type",
            f"type {kind.get('id')} has {kind.get('disk')} MB of disk; the backup needs "
            f"{needed} MB: choose a larger type",
        )
    return backup


def _region_has_vlans(store: Store, region: Any) -> bool:
    record = store.get(REGIONS, region) if isinstance(region, str) else None
    if record is None:
        return not store.table(REGIONS)  # without a catalogue every region is "newer"
    return VLAN_CAPABILITY in (record.get("capabilities") or [])


def _check_interfaces(ctx: Ctx, v: Check, region: Any) -> list[dict[str, Any]] | None:
    raw = v.raw("interfaces")
    if raw is None:
        return None
    if not isinstance(raw, list):
        v.fail("interfaces", "interfaces must be an array of objects")
        return None
    if len(raw) > INTERFACES_MAX:
        v.fail("interfaces", f"interfaces may have at most {INTERFACES_MAX} entries")
        return None
    out: list[dict[str, Any]] = []
    publics = 0
    vlans: set[str] = set()
    for index, entry in enumerate(raw):
        at = f"interfaces[{index}]"
        if not isinstance(entry, dict):
            v.fail(at, "each interface must be an object")
            continue
        for key in entry:
            if key not in ("purpose", "label", "ipam_address"):
                v.fail(f"{at}.{key}", f"{key} is not a recognised field")
        purpose = entry.get("purpose")
        label = entry.get("label")
        ipam = entry.get("ipam_address")
        if purpose == "public":
            publics += 1
            if publics > 1:
                v.fail(f"{at}.purpose", "at most one interface may be public")
            if label not in (None, ""):
                v.fail(f"{at}.label", "a public interface takes no label")
            if ipam not in (None, ""):
                v.fail(f"{at}.ipam_address", "a public interface takes no ipam_address")
            out.append({"purpose": "public", "label": None, "ipam_address": None})
        elif purpose == "vlan":
            if not isinstance(label, str) or not VLAN_LABEL.fullmatch(label):
                v.fail(
                    f"{at}.label",
                    "a VLAN interface needs a label of 1 to 64 letters, digits, - or _",
                )
            elif label in vlans:
                v.fail(f"{at}.label", f"VLAN {label} is joined twice")
            else:
                vlans.add(label)
            if ipam not in (None, ""):
                if not isinstance(ipam, str) or "/" not in ipam:
                    v.fail(f"{at}.ipam_address", "ipam_address needs a prefix length (10.0.0.1/24)")
                else:
                    try:
                        ipaddress.ip_interface(ipam)
                    except ValueError:
                        v.fail(f"{at}.ipam_address", "ipam_address is not an address/prefix")
            if not _region_has_vlans(ctx.store, region):
                v.fail(f"{at}.purpose", f"VLANs are not available in region {region}")
            out.append({"purpose": "vlan", "label": label, "ipam_address": ipam or None})
        else:
            v.fail(f"{at}.purpose", "purpose must be one of: public, vlan")
    return out


def _check_devices(
    ctx: Ctx,
    v: Check,
    instance: dict[str, Any],
    *,
    slots: tuple[str, ...],
    required: bool,
) -> dict[str, Any] | None:
    """A device map: slots of ``slots``, disks of the instance, volumes attached to it."""
    raw = v.raw("devices")
    if raw is None:
        if required:
            v.fail("devices", "devices is required")
        return None
    if not isinstance(raw, dict):
        v.fail("devices", "devices must be an object of slots (sda ...)")
        return None
    out: dict[str, Any] = dict.fromkeys(slots)
    seen: set[tuple[str, int]] = set()
    for slot, entry in raw.items():
        at = f"devices.{slot}"
        if slot not in slots:
            if slot == "sdh":
                v.fail(at, "sdh is reserved for the rescue system and cannot be used")
            else:
                v.fail(at, f"{slot} is not a device slot ({slots[0]} to {slots[-1]})")
            continue
        if entry is None:
            continue
        if not isinstance(entry, dict):
            v.fail(at, "a device is an object with disk_id or volume_id")
            continue
        for key in entry:
            if key not in ("disk_id", "volume_id"):
                v.fail(f"{at}.{key}", f"{key} is not a recognised field")
        disk_id, volume_id = entry.get("disk_id"), entry.get("volume_id")
        bad = False
        for key, value in (("disk_id", disk_id), ("volume_id", volume_id)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                v.fail(f"{at}.{key}", f"{key} must be an integer")
                bad = True
        if bad:
            continue
        if disk_id is not None and volume_id is not None:
            v.fail(at, "a device holds either a disk or a volume, not both")
            continue
        if disk_id is not None:
            disk = ctx.store.get(DISKS, disk_id)
            if disk is None or str(disk.get("_compute_id")) != str(instance["id"]):
                v.fail(f"{at}.disk_id", f"disk {disk_id} is not a disk of this instance")
                continue
            if ("disk", disk_id) in seen:
                v.fail(f"{at}.disk_id", f"disk {disk_id} is already in another slot")
                continue
            seen.add(("disk", disk_id))
        if volume_id is not None:
            volume = ctx.store.get(VOLUMES, volume_id)
            if volume is None or str(volume.get("compute_id")) != str(instance["id"]):
                v.fail(f"{at}.volume_id", f"volume {volume_id} is not attached to this instance")
                continue
            if ("volume", volume_id) in seen:
                v.fail(f"{at}.volume_id", f"volume {volume_id} is already in another slot")
                continue
            seen.add(("volume", volume_id))
        if disk_id is not None or volume_id is not None:
            out[slot] = {"disk_id": disk_id, "volume_id": volume_id}
    return out


def _kernel_exists(store: Store, kernel_id: str) -> bool:
    table = store.table(KERNELS)
    return kernel_id in table if table else kernel_id == DEFAULT_KERNEL


def _check_helpers(v: Check) -> dict[str, bool] | None:
    raw = v.obj("helpers")
    if raw is None:
        return None
    out: dict[str, bool] = {}
    for key, value in raw.items():
        if key not in HELPERS:
            v.fail(f"helpers.{key}", f"{key} is not a helper ({', '.join(HELPERS)})")
        elif not isinstance(value, bool):
            v.fail(f"helpers.{key}", f"helpers.{key} must be a boolean")
        else:
            out[key] = value
    return out


def _check_config_fields(
    ctx: Ctx, v: Check, instance: dict[str, Any], *, create: bool
) -> dict[str, Any]:
    """Every profile field of a create or update body; errors are left in ``v``."""
    memory = _specs(ctx.store, instance)["memory"]
    fields: dict[str, Any] = {
        "label": v.string("label", required=create, min_len=1, max_len=CONFIG_LABEL_MAX),
        "devices": _check_devices(ctx, v, instance, slots=DEVICE_SLOTS, required=create),
        "kernel": v.string("kernel"),
        "comments": v.string("comments", nullable=True),
        "memory_limit": v.integer("memory_limit", lo=0, hi=memory or None),
        "run_level": v.string("run_level", choices=RUN_LEVELS),
        "virt_mode": v.string("virt_mode", choices=VIRT_MODES),
        "root_device": v.string("root_device", pattern=ROOT_DEVICE),
        "helpers": _check_helpers(v),
        "interfaces": _check_interfaces(ctx, v, instance.get("region")),
    }
    kernel = fields["kernel"]
    if isinstance(kernel, str) and not _kernel_exists(ctx.store, kernel):
        v.fail("kernel", f"kernel {kernel!r} does not exist (see the kernels listing)")
    return fields


def _boot_config(
    ctx: Ctx, v: Check, instance: dict[str, Any], config_id: Any
) -> dict[str, Any] | None:
    """The profile to boot: the given one, else the last booted one, else the first."""
    configs = configs_of(ctx.store, instance["id"])
    if isinstance(config_id, int):
        for config in configs:
            if config.get("id") == config_id:
                return config
        v.fail("config_id", f"config_id {config_id} is not a profile of this instance")
        return None
    if not configs:
        v.fail("config_id", "the instance has no configuration profile to boot: create one")
        return None
    last = instance.get("_last_booted_config")
    return next((c for c in configs if c.get("id") == last), configs[0])


def _month_params(ctx: Ctx, year_lo: int, year_hi: int) -> tuple[int, int]:
    """``year`` and ``month`` of the path, range-checked (400 naming the field)."""
    v = Check({})
    values: dict[str, int] = {}
    for name, lo, hi in (("year", year_lo, year_hi), ("month", 1, 12)):
        raw = ctx.params.get(name)
        text = str(raw) if raw is not None else ""
        if not (text.isascii() and text.isdigit()) or not lo <= int(text) <= hi:
            v.fail(name, f"{name} must be an integer between {lo} and {hi}")
        else:
            values[name] = int(text)
    v.done()
    return values["year"], values["month"]


def _utc(now: float) -> datetime:
    return datetime.fromtimestamp(now, UTC)


def _month_start(year: int, month: int) -> float:
    return datetime(year, month, 1, tzinfo=UTC).timestamp()


def _next_month_start(year: int, month: int) -> float:
    return _month_start(year + month // 12, month % 12 + 1)


def _created_at(instance: dict[str, Any], fallback: float) -> float:
    created = instance.get("created")
    if isinstance(created, str):
        try:
            return parse_iso(created)
        except ValueError:
            return fallback
    return fallback


# -- statistics and transfer, derived from the instance id ----------------------------------


def _unit(seed: int, salt: int) -> float:
    """A stable number in [0, 1) for ``seed`` and ``salt`` (no state, no RNG object)."""
    x = (seed * 0x9E3779B1 + salt * 0x85EBCA77) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x2C1B3C6D) & 0xFFFFFFFF
    x ^= x >> 12
    return x / 2**32


def stats_series(
    instance: dict[str, Any], specs: dict[str, int], start: float, end: float, step: int
) -> dict[str, Any]:
    """Statistics of ``[start, end)`` in ``step``-second points, from the instance id alone.

    CPU follows a daily curve (busiest in the afternoon, UTC) with noise; disk I/O has a nightly
    backup burst; traffic follows CPU; IPv6 is a fraction of IPv4. Powered-off instances idle.
    """
    iid = int(instance.get("id") or 0)
    vcpus = max(1, specs.get("vcpus") or 1)
    idle = instance.get("status") in ("offline", "stopped", "provisioning")
    load = 0.05 + 0.55 * _unit(iid, 1)  # share of one vCPU at the daily peak
    net_scale = 2e5 + 4e6 * _unit(iid, 2)  # bits/s at full load
    io_scale = 5 + 120 * _unit(iid, 3)
    v6_share = 0.1 + 0.3 * _unit(iid, 4)
    rng = random.Random(iid * 1_000_003 + int(start) // step)
    series: dict[str, list[list[float]]] = {
        k: [] for k in ("cpu", "io", "swap", "in4", "out4", "pin4", "pout4", "in6", "out6")
    }
    t = start - start % step + step if start % step else start
    while t < end:
        hour = (t % DAY) / HOUR
        curve = 0.55 + 0.45 * math.sin((hour - 8) / 24 * 2 * math.pi)
        noise = rng.uniform(0.8, 1.2)
        busy = 0.02 if idle else curve * noise
        cpu = min(100.0 * vcpus, 100.0 * vcpus * load * busy + rng.uniform(0.1, 1.5))
        backup_burst = 6.0 if 2 <= hour < 3 and not idle else 1.0
        ms = int(t) * 1000
        series["cpu"].append([ms, round(cpu, 2)])
        series["io"].append([ms, round(io_scale * busy * backup_burst + rng.uniform(0, 2), 2)])
        swap = rng.uniform(0, 3) if not idle and rng.random() < 0.04 else 0.0
        series["swap"].append([ms, round(swap, 2)])
        inbound = net_scale * busy * rng.uniform(0.3, 0.5)
        outbound = net_scale * busy * rng.uniform(0.7, 1.0)
        series["in4"].append([ms, round(inbound, 2)])
        series["out4"].append([ms, round(outbound, 2)])
        series["pin4"].append([ms, round(inbound * 0.2, 2)])
        series["pout4"].append([ms, round(outbound * 0.15, 2)])
        series["in6"].append([ms, round(inbound * v6_share, 2)])
        series["out6"].append([ms, round(outbound * v6_share, 2)])
        t += step
    return {
        "cpu": series["cpu"],
        "io": {"io": series["io"], "swap": series["swap"]},
        "netv4": {
            "in": series["in4"],
            "out": series["out4"],
            "private_in": series["pin4"],
            "private_out": series["pout4"],
        },
        "netv6": {
            "in": series["in6"],
            "out": series["out6"],
            "private_in": [[p[0], 0.0] for p in series["in6"]],
            "private_out": [[p[0], 0.0] for p in series["out6"]],
        },
    }


def traffic_rate(instance: dict[str, Any], specs: dict[str, int]) -> float:
    """Average public traffic of an instance in bytes per second (stable per id).

    Most instances use 2% to 70% of their monthly quota; about one in thirteen exceeds it.
    """
    iid = int(instance.get("id") or 0)
    share = 1.15 if iid % 13 == 0 else 0.02 + 0.68 * _unit(iid, 5)
    quota_bytes = max(1, specs.get("transfer") or 1) * GB
    return share * quota_bytes / (30 * DAY)


def _traffic_between(instance: dict[str, Any], specs: dict[str, int], a: float, b: float) -> int:
    begin = max(a, _created_at(instance, a))
    return int(traffic_rate(instance, specs) * max(0.0, b - begin))


# -- transitions ----------------------------------------------------------------------------


@transition("compute.provisioned")
def instance_provisioned(store: Store, now: float, id: int, booted: bool = True) -> None:
    """Deployment finished: disks ready; running (booted) or offline."""
    record = store.get(INSTANCES, id)
    if record is None or record.get("status") != "provisioning":
        return
    for disk in disks_of(store, id):
        if disk.get("status") == "not ready":
            disk.update(status="ready", updated=iso(now))
    configs = configs_of(store, id)
    if booted and configs:
        record["status"] = "running"
        record["_last_booted_config"] = configs[0]["id"]
    else:
        record["status"] = "offline"
    record["updated"] = iso(now)
    store.put(INSTANCES, id, record)


@transition("compute.booted")
def instance_booted(store: Store, now: float, id: int) -> None:
    """A boot, reboot or rescue boot finished."""
    record = store.get(INSTANCES, id)
    if record is None or record.get("status") not in ("booting", "rebooting"):
        return
    record.update(status="running", updated=iso(now))
    store.put(INSTANCES, id, record)


@transition("compute.shut_down")
def instance_shut_down(store: Store, now: float, id: int) -> None:
    """A shutdown finished."""
    record = store.get(INSTANCES, id)
    if record is None or record.get("status") != "shutting_down":
        return
    record.update(status="offline", updated=iso(now))
    store.put(INSTANCES, id, record)


@transition("compute.resized")
def instance_resized(store: Store, now: float, id: int, type: str, auto_disk: bool) -> None:
    """A resize finished: new type and specs, the main disk grown when allowed."""
    record = store.get(INSTANCES, id)
    kind = store.get(TYPES, type)
    if record is None or record.get("status") != "resizing" or kind is None:
        return
    old_disk = int((record.get("specs") or {}).get("disk") or 0)
    specs = type_specs(kind)
    record.update(type=type, specs=specs)
    if auto_disk and specs["disk"] > old_disk:
        disks = disks_of(store, id)
        mains = [d for d in disks if d.get("filesystem") != "swap"]
        if len(mains) == 1 and mains[0].get("filesystem") in ("ext3", "ext4"):
            others = sum(int(d.get("size") or 0) for d in disks if d is not mains[0])
            mains[0].update(size=specs["disk"] - others, updated=iso(now))
    record["status"] = record.pop("_resize_from", None) or "offline"
    record["updated"] = iso(now)
    store.put(INSTANCES, id, record)


@transition("compute.disk_ready")
def disk_ready(store: Store, now: float, disk_id: int) -> None:
    """A new disk is ready."""
    disk = store.get(DISKS, disk_id)
    if disk is not None and disk.get("status") == "not ready":
        disk.update(status="ready", updated=iso(now))
        store.put(DISKS, disk_id, disk)


# -- instances ------------------------------------------------------------------------------


@handles("compute.instances.list")
def instances_list(ctx: Ctx) -> Collection:
    """Every instance the caller may see."""
    records = ctx.store.table(INSTANCES).values()
    p = ctx.principal
    if p.restricted:
        return Collection(PublicRows(r for r in records if p.can_read("compute", r.get("id"))))
    return Collection(PublicRows(records))  # one copy of 10,000 references, not two


@handles("compute.instances.view")
def instances_view(ctx: Ctx) -> dict[str, Any]:
    """One instance."""
    return instance_view(_instance(ctx))


@handles("compute.instances.create")
def instances_create(ctx: Ctx) -> dict[str, Any]:
    """Create an instance from an image, a backup, or empty."""
    p = ctx.principal
    p.require_global("add_computes")
    store = ctx.store
    v = Check(ctx.body)
    v.unknown(CREATE_FIELDS)
    region = check_region(store, v, required=True)
    kind = _check_type(ctx, v, v.string("type", required=True))
    label = _check_label(ctx, v, create=True)
    group = v.string("group", max_len=GROUP_MAX, nullable=True)
    tags = _check_tags(ctx, v, [])
    image_id = v.string("image", nullable=True)
    image = _usable_image(ctx, v, image_id)
    root_pass = v.string("root_pass", min_len=ROOT_PASS_MIN, max_len=ROOT_PASS_MAX, nullable=True)
    _check_keys(v)
    _check_users(ctx, v)
    swap_size = v.integer("swap_size", lo=0, nullable=True)
    script = _check_script(ctx, v, image_id)
    backup = _check_backup(ctx, v, kind)
    backups_enabled = v.boolean("backups_enabled", default=False)
    booted = v.boolean("booted", default=True)
    private_ip = v.boolean("private_ip", default=False)
    interfaces = _check_interfaces(ctx, v, region)
    if image_id is not None and v.raw("backup_id") is not None:
        v.fail("backup_id", "give either image or backup_id, not both")
    if image_id is not None and root_pass is None:
        v.fail("root_pass", "root_pass is required when deploying an image")
    swap = DEFAULT_SWAP if swap_size is None else swap_size
    if image is not None and kind is not None and isinstance(swap, int) and swap >= 0:
        room = int(kind.get("disk") or 0) - int(image.get("size") or 0)
        if swap > room:
            v.fail("swap_size", f"swap_size must leave room for the image: at most {room} MB")
    if interfaces and image_id is None and v.raw("backup_id") is None:
        v.fail(
            "interfaces",
            "interfaces belong to a configuration profile: deploy an image or a backup, or "
            "add them to a profile later",
        )
    v.done()
    assert kind is not None and isinstance(region, str)  # v.done() raised otherwise

    now = ctx.now_iso
    source = store.get(INSTANCES, backup["_compute_id"]) if backup else None
    record = new_instance(
        store,
        label=label if isinstance(label, str) else default_label(store, kind["id"], region),
        region=region,
        kind=kind,
        status="provisioning" if image or backup else "offline",
        now_iso=now,
        image=image_id if image else (source or {}).get("image"),
        tags=tags or [],
        group=group or "",
        private_ip=private_ip,
        backups_enabled=backups_enabled,
    )
    if image is not None:
        deploy_image(
            store,
            record,
            image_label=str(image.get("label") or image_id),
            swap_size=swap,
            now_iso=now,
            disk_status="not ready",
            interfaces=interfaces,
        )
    elif backup is not None:
        _restore_layout(store, record, backup, now, interfaces)
    if record["status"] == "provisioning":
        ctx.schedule(
            "compute.provisioned",
            after=ctx.delay("compute.provision"),
            id=record["id"],
            booted=booted,
        )
    if script is not None:
        script["deployments_total"] = int(script.get("deployments_total") or 0) + 1
        script["deployments_active"] = int(script.get("deployments_active") or 0) + 1
        record["_stackscript_id"] = script["id"]
        # What the script runs with (its UDF answers); never shown by the API.
        answers = v.raw("stackscript_data")
        record["_stackscript_data"] = dict(answers) if isinstance(answers, dict) else {}
    p.add_grant("compute", record["id"], record["label"])
    return instance_view(record)


def _restore_layout(
    store: Store,
    instance: dict[str, Any],
    backup: dict[str, Any],
    now_iso: str,
    interfaces: list[dict[str, Any]] | None,
) -> None:
    """Copy a backup's disks and profiles into a new instance (device ids remapped)."""
    disk_map: dict[str, int] = {}
    captured = backup.get("_disks") or [
        {"id": None, **d} for d in backup.get("disks") or [] if isinstance(d, dict)
    ]
    for disk in captured:
        made = new_disk(
            store,
            instance["id"],
            label=str(disk.get("label") or "Restored Disk"),
            size=int(disk.get("size") or 1),
            filesystem=str(disk.get("filesystem") or "ext4"),
            status="not ready",
            now_iso=now_iso,
        )
        if disk.get("id") is not None:
            disk_map[str(disk["id"])] = made["id"]
    memory = int((instance.get("specs") or {}).get("memory") or 0)
    configs = backup.get("_configs") or [{"label": c} for c in backup.get("configs") or []]
    for config in configs:
        devices: dict[str, Any] = {}
        for slot, device in (config.get("devices") or {}).items():
            if isinstance(device, dict) and str(device.get("disk_id")) in disk_map:
                devices[slot] = {"disk_id": disk_map[str(device["disk_id"])], "volume_id": None}
        new_config(
            store,
            instance["id"],
            label=str(config.get("label") or "Restored Profile"),
            devices=devices,
            memory_limit=memory,
            now_iso=now_iso,
            kernel=str(config.get("kernel") or DEFAULT_KERNEL),
            comments=config.get("comments"),
            run_level=str(config.get("run_level") or "default"),
            virt_mode=str(config.get("virt_mode") or "paravirt"),
            root_device=str(config.get("root_device") or "/dev/sda"),
            helpers=config.get("helpers") or None,
            interfaces=interfaces if interfaces is not None else config.get("interfaces"),
        )


@handles("compute.instances.update")
def instances_update(ctx: Ctx) -> dict[str, Any]:
    """Change label, tags, group, watchdog, alerts and the backup schedule."""
    record = _instance(ctx, write=True)
    v = ctx.check()
    v.unknown(UPDATE_FIELDS, nullable=("group",))
    label = _check_label(ctx, v, create=False, own_id=record["id"])
    tags = _check_tags(ctx, v, list(record.get("tags") or []))
    group = v.string("group", max_len=GROUP_MAX, nullable=True)
    watchdog = v.boolean("watchdog_enabled")
    alerts = _check_alerts(ctx, v, record)
    schedule = _check_schedule(v)
    v.done()
    if label is not None:
        record["label"] = label
    if tags is not None:
        record["tags"] = list(tags)
    if v.has("group"):
        record["group"] = group or ""
    if watchdog is not None:
        record["watchdog_enabled"] = watchdog
    if alerts:
        record["alerts"] = {**(record.get("alerts") or {}), **alerts}
    if schedule:
        backups = dict(record.get("backups") or {})
        backups["schedule"] = {**(backups.get("schedule") or {}), **schedule}
        record["backups"] = backups
    record["updated"] = ctx.now_iso
    ctx.store.put(INSTANCES, record["id"], record)
    return instance_view(record)


def _check_alerts(ctx: Ctx, v: Check, instance: dict[str, Any]) -> dict[str, int]:
    raw = v.obj("alerts")
    out: dict[str, int] = {}
    if raw is None:
        return out
    vcpus = max(1, _specs(ctx.store, instance)["vcpus"])
    limits = {"cpu": 100 * vcpus, "transfer_quota": 100}
    for key, value in raw.items():
        at = f"alerts.{key}"
        if key not in ALERTS:
            v.fail(at, f"{key} is not an alert ({', '.join(ALERTS)})")
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            v.fail(at, f"{at} must be a non-negative integer")
        elif key in limits and value > limits[key]:
            v.fail(at, f"{at} must be at most {limits[key]}")
        else:
            out[key] = value
    return out


def _check_schedule(v: Check) -> dict[str, str]:
    raw = v.obj("backups")
    out: dict[str, str] = {}
    if raw is None:
        return out
    schedule = raw.get("schedule")
    if schedule is None:
        return out
    if not isinstance(schedule, dict):
        v.fail("backups.schedule", "backups.schedule must be an object with day and window")
        return out
    for key, value in schedule.items():
        at = f"backups.schedule.{key}"
        choices = {"day": BACKUP_DAYS, "window": BACKUP_WINDOWS}.get(key)
        if choices is None:
            v.fail(at, f"{key} is not a recognised field (day, window)")
        elif value not in choices:
            v.fail(at, f"{at} must be one of: {', '.join(choices)}")
        else:
            out[key] = value
    return out


@handles("compute.instances.delete")
def instances_delete(ctx: Ctx) -> None:
    """Delete an instance with its disks, profiles and backups (irreversible)."""
    record = _instance(ctx, write=True)
    status = record.get("status")
    if status in ("cloning", "restoring"):
        raise conflict(f"The instance is {status}: it can be deleted once that finishes")
    store = ctx.store
    iid = record["id"]
    for disk in disks_of(store, iid):
        store.delete(DISKS, disk["id"])
        store.cancel_events("compute.disk_ready", disk_id=disk["id"])
    for table in (CONFIGS, BACKUPS):
        for row in _owned(store, table, iid):
            store.delete(table, row["id"])
    for volume in store.table(VOLUMES).values():
        if str(volume.get("compute_id")) == str(iid):
            volume.update(
                compute_id=None,
                compute_label=None,
                _config_id=None,
                _persist=True,
                updated=ctx.now_iso,
            )
    for name in TRANSITIONS:
        store.cancel_events(name, id=iid)
    script = store.get(SCRIPTS, record.get("_stackscript_id"))
    if script is not None:
        script["deployments_active"] = max(0, int(script.get("deployments_active") or 0) - 1)
    store.delete(INSTANCES, iid)
    drop_grants(store, "compute", iid)


@handles("compute.instances.boot")
def instances_boot(ctx: Ctx) -> None:
    """Power on an offline or stopped instance with a profile."""
    record = _instance(ctx, write=True)
    v = Check(ctx.body)
    v.unknown(("config_id",))
    config = _boot_config(ctx, v, record, v.integer("config_id", nullable=True))
    v.done()
    _require_idle(record, "boot")
    if record.get("status") not in ("offline", "stopped"):
        raise conflict(f"The instance is {record.get('status')}: only offline instances boot")
    assert config is not None
    _start_boot(ctx, record, "booting", "compute.boot", config["id"])


@handles("compute.instances.reboot")
def instances_reboot(ctx: Ctx) -> None:
    """Reboot a running instance, optionally into another profile."""
    record = _instance(ctx, write=True)
    v = Check(ctx.body)
    v.unknown(("config_id",))
    config = _boot_config(ctx, v, record, v.integer("config_id", nullable=True))
    v.done()
    _require_idle(record, "reboot")
    if record.get("status") != "running":
        raise conflict(f"The instance is {record.get('status')}: only running instances reboot")
    assert config is not None
    _start_boot(ctx, record, "rebooting", "compute.reboot", config["id"])


def _start_boot(
    ctx: Ctx, record: dict[str, Any], status: str, timing: str, config_id: int | None
) -> None:
    record.pop("_rescue_devices", None)
    if config_id is not None:
        record["_last_booted_config"] = config_id
    record.update(status=status, updated=ctx.now_iso)
    ctx.store.put(INSTANCES, record["id"], record)
    ctx.schedule("compute.booted", after=ctx.delay(timing), id=record["id"])


@handles("compute.instances.shutdown")
def instances_shutdown(ctx: Ctx) -> None:
    """Power off a running instance."""
    record = _instance(ctx, write=True)
    _require_idle(record, "shut down")
    if record.get("status") != "running":
        raise conflict(f"The instance is {record.get('status')}: only running instances shut down")
    record.update(status="shutting_down", updated=ctx.now_iso)
    ctx.store.put(INSTANCES, record["id"], record)
    ctx.schedule("compute.shut_down", after=ctx.delay("compute.shutdown"), id=record["id"])


@handles("compute.instances.resize")
def instances_resize(ctx: Ctx) -> None:
    """Move to another type: ``resizing``, then the new specs."""
    record = _instance(ctx, write=True)
    store = ctx.store
    v = Check(ctx.body)
    v.unknown(("type", "allow_auto_disk_resize"))
    type_id = v.string("type", required=True)
    kind = _check_type(ctx, v, type_id)
    auto_disk = v.boolean("allow_auto_disk_resize", default=True)
    if kind is not None and type_id == record.get("type"):
        v.fail("type", f"the instance already has type {type_id}")
    elif kind is not None:
        used = sum(int(d.get("size") or 0) for d in disks_of(store, record["id"]))
        if used > int(kind.get("disk") or 0):
            v.fail(
                "type",
                f"the disks use {used} MB but type {type_id} has {kind.get('disk')} MB: "
                "delete or shrink a disk first",
            )
    v.done()
    _require_idle(record, "resize")
    if record.get("_pending_migration"):
        raise conflict("The instance has a pending migration: resize it once the migration is done")
    balance = int(store.meta.get(BALANCE_META) or 0)
    if balance > 0:
        raise conflict(
            f"The account has an outstanding balance of {balance / 100:.2f} USD: pay it first"
        )
    record["_resize_from"] = record.get("status") if record.get("status") == "running" else None
    record.update(status="resizing", updated=ctx.now_iso)
    store.put(INSTANCES, record["id"], record)
    ctx.schedule(
        "compute.resized",
        after=ctx.delay("compute.resize"),
        id=record["id"],
        type=type_id,
        auto_disk=auto_disk,
    )


@handles("compute.instances.rescue")
def instances_rescue(ctx: Ctx) -> None:
    """Boot the rescue system with a device map."""
    record = _instance(ctx, write=True)
    v = Check(ctx.body)
    v.unknown(("devices",))
    devices = _check_devices(ctx, v, record, slots=RESCUE_SLOTS, required=False)
    v.done()
    _require_idle(record, "enter rescue mode")
    if devices is None:
        disks = disks_of(ctx.store, record["id"])[: len(RESCUE_SLOTS)]
        devices = dict.fromkeys(RESCUE_SLOTS)
        for slot, disk in zip(RESCUE_SLOTS, disks, strict=False):
            devices[slot] = {"disk_id": disk["id"], "volume_id": None}
    running = record.get("status") == "running"
    record["_rescue_devices"] = devices
    record.update(status="rebooting" if running else "booting", updated=ctx.now_iso)
    ctx.store.put(INSTANCES, record["id"], record)
    timing = "compute.reboot" if running else "compute.boot"
    ctx.schedule("compute.booted", after=ctx.delay(timing), id=record["id"])


# -- backups --------------------------------------------------------------------------------


@handles("compute.backups.list")
def backups_list(ctx: Ctx) -> dict[str, Any]:
    """``{automatic: [...], snapshot: {current, in_progress}}``."""
    record = _instance(ctx)
    rows = sorted(
        backups_of(ctx.store, record["id"]), key=lambda b: (str(b.get("created")), b["id"])
    )
    snapshot: dict[str, Any] = {"current": None, "in_progress": None}
    automatic = []
    for row in rows:
        slot = row.get("_slot") or ("automatic" if row.get("type") == "automatic" else "current")
        if slot == "automatic":
            automatic.append(public(row))
        elif slot in snapshot:
            snapshot[slot] = public(row)
    return {"automatic": automatic, "snapshot": snapshot}


# -- configuration profiles -----------------------------------------------------------------


def _config(ctx: Ctx, instance: dict[str, Any]) -> dict[str, Any]:
    config = ctx.store.get(CONFIGS, ctx.param_int("configId"))
    if config is None or str(config.get("_compute_id")) != str(instance["id"]):
        raise not_found("Configuration profile not found")
    return config


@handles("compute.configs.list")
def configs_list(ctx: Ctx) -> Collection:
    """Profiles of an instance."""
    record = _instance(ctx)
    return Collection([public(c) for c in configs_of(ctx.store, record["id"])])


@handles("compute.configs.create")
def configs_create(ctx: Ctx) -> dict[str, Any]:
    """Add a profile."""
    instance = _instance(ctx, write=True)
    v = Check(ctx.body)
    v.unknown(CONFIG_FIELDS)
    f = _check_config_fields(ctx, v, instance, create=True)
    v.done()
    memory = _specs(ctx.store, instance)["memory"]
    config = new_config(
        ctx.store,
        instance["id"],
        label=f["label"],
        devices=f["devices"] or {},
        memory_limit=f["memory_limit"] if f["memory_limit"] is not None else memory,
        now_iso=ctx.now_iso,
        kernel=f["kernel"] or DEFAULT_KERNEL,
        comments=f["comments"],
        run_level=f["run_level"] or "default",
        virt_mode=f["virt_mode"] or "paravirt",
        root_device=f["root_device"] or "/dev/sda",
        helpers={**default_helpers(), **(f["helpers"] or {})},
        interfaces=f["interfaces"],
    )
    return public(config)


@handles("compute.configs.view")
def configs_view(ctx: Ctx) -> dict[str, Any]:
    """One profile."""
    return public(_config(ctx, _instance(ctx)))


@handles("compute.configs.update")
def configs_update(ctx: Ctx) -> dict[str, Any]:
    """Change a profile; ``devices`` and ``interfaces`` replace the whole map or list."""
    instance = _instance(ctx, write=True)
    config = _config(ctx, instance)
    v = ctx.check()
    v.unknown(CONFIG_FIELDS, nullable=("comments",))
    f = _check_config_fields(ctx, v, instance, create=False)
    v.done()
    for key in ("label", "kernel", "memory_limit", "run_level", "virt_mode", "root_device"):
        if f[key] is not None:
            config[key] = f[key]
    if v.has("comments"):
        config["comments"] = f["comments"]
    if f["devices"] is not None:
        config["devices"] = {**empty_devices(), **f["devices"]}
    if f["helpers"]:
        config["helpers"] = {**(config.get("helpers") or default_helpers()), **f["helpers"]}
    if f["interfaces"] is not None:
        config["interfaces"] = f["interfaces"]
    config["updated"] = ctx.now_iso
    ctx.store.put(CONFIGS, config["id"], config)
    return public(config)


@handles("compute.configs.delete")
def configs_delete(ctx: Ctx) -> None:
    """Delete a profile (volumes that joined it keep their attachment)."""
    instance = _instance(ctx, write=True)
    config = _config(ctx, instance)
    ctx.store.delete(CONFIGS, config["id"])
    if instance.get("_last_booted_config") == config["id"]:
        instance["_last_booted_config"] = None
    for volume in ctx.store.table(VOLUMES).values():
        if volume.get("_config_id") == config["id"]:
            volume["_config_id"] = None


# -- disks ----------------------------------------------------------------------------------


@handles("compute.disks.list")
def disks_list(ctx: Ctx) -> Collection:
    """Disks of an instance."""
    record = _instance(ctx)
    return Collection([public(d) for d in disks_of(ctx.store, record["id"])])


@handles("compute.disks.create")
def disks_create(ctx: Ctx) -> dict[str, Any]:
    """Add an empty disk, or deploy an image onto a new one."""
    instance = _instance(ctx, write=True)
    store = ctx.store
    v = Check(ctx.body)
    v.unknown(DISK_FIELDS)
    size = v.integer("size", required=True, lo=1)
    label = v.string("label", min_len=1, max_len=DISK_LABEL_MAX, nullable=True)
    filesystem = v.string("filesystem", choices=FILESYSTEMS, nullable=True)
    image_id = v.string("image", nullable=True)
    image = _usable_image(ctx, v, image_id)
    root_pass = v.string("root_pass", min_len=ROOT_PASS_MIN, max_len=ROOT_PASS_MAX, nullable=True)
    _check_keys(v)
    _check_users(ctx, v)
    _check_script(ctx, v, image_id)
    if v.raw("image") is None and v.raw("label") is None:
        v.fail("label", "an empty disk needs a label")
        v.fail("image", "image is required when no label is given")
    if image_id is not None and root_pass is None:
        v.fail("root_pass", "root_pass is required when deploying an image")
    if isinstance(size, int) and size >= 1:
        total = _specs(store, instance)["disk"]
        used = sum(int(d.get("size") or 0) for d in disks_of(store, instance["id"]))
        if total and size > total - used:
            v.fail("size", f"only {max(0, total - used)} MB of the type's {total} MB are free")
        elif image is not None and size < int(image.get("size") or 0):
            v.fail("size", f"the image needs at least {image.get('size')} MB")
    v.done()
    assert isinstance(size, int)
    disk = new_disk(
        store,
        instance["id"],
        label=label if isinstance(label, str) else f"{(image or {}).get('label', image_id)} Disk",
        size=size,
        filesystem=filesystem or str((image or {}).get("filesystem") or "ext4"),
        status="not ready",
        now_iso=ctx.now_iso,
    )
    ctx.schedule("compute.disk_ready", after=ctx.delay("compute.disk"), disk_id=disk["id"])
    return public(disk)


# -- statistics and transfer ----------------------------------------------------------------


def _title(instance: dict[str, Any], span: str) -> str:
    return f"{instance.get('label')} (instance {instance.get('id')}) - {span}"


@handles("compute.stats.view")
def stats_view(ctx: Ctx) -> dict[str, Any]:
    """The last 24 hours in 5-minute points."""
    record = _instance(ctx)
    step = 5 * MINUTE
    end = ctx.now - ctx.now % step
    start = max(end - DAY, _created_at(record, end - DAY))
    out = stats_series(record, _specs(ctx.store, record), start, end, step)
    out["title"] = _title(record, "day (5 min avg)")
    return out


@handles("compute.stats.month")
def stats_month(ctx: Ctx) -> dict[str, Any]:
    """One month in 1-hour points; the current month covers the past 30 days."""
    record = _instance(ctx)
    today = _utc(ctx.now)
    year, month = _month_params(ctx, 2000, today.year)
    if (year, month) > (today.year, today.month):
        raise SimError(400, f"{year}-{month:02d} is in the future", "month")
    end_cap = ctx.now - ctx.now % HOUR
    if (year, month) == (today.year, today.month):
        start, end = end_cap - 30 * DAY, end_cap
    else:
        start, end = _month_start(year, month), min(_next_month_start(year, month), end_cap)
    start = max(start, _created_at(record, start))
    out = stats_series(record, _specs(ctx.store, record), start, end, HOUR)
    out["title"] = _title(record, f"{year}-{month:02d} (1 hour avg)")
    return out


@handles("compute.transfer.view")
def transfer_view(ctx: Ctx) -> dict[str, Any]:
    """This month's public traffic, quota and billable overage."""
    record = _instance(ctx)
    specs = _specs(ctx.store, record)
    today = _utc(ctx.now)
    used = _traffic_between(record, specs, _month_start(today.year, today.month), ctx.now)
    quota = specs["transfer"]
    return {"used": used, "quota": quota, "billable": max(0, math.ceil(used / GB) - quota)}


@handles("compute.transfer.month")
def transfer_month(ctx: Ctx) -> dict[str, Any]:
    """Public traffic of one month in bytes."""
    record = _instance(ctx)
    year, month = _month_params(ctx, 2000, 2037)
    specs = _specs(ctx.store, record)
    end = min(_next_month_start(year, month), ctx.now)
    total = _traffic_between(record, specs, _month_start(year, month), end)
    bytes_in = int(total * (0.25 + 0.2 * _unit(int(record.get("id") or 0), 6)))
    return {"bytes_in": bytes_in, "bytes_out": total - bytes_in, "bytes_total": total}


# -- attached volumes -----------------------------------------------------------------------


@handles("compute.volumes.list")
def instance_volumes_list(ctx: Ctx) -> Collection:
    """Volumes attached to the instance that the caller may read."""
    record = _instance(ctx)
    key = str(record["id"])
    p = ctx.principal
    return Collection(
        [
            volume_view(ctx.store, r)
            for r in ctx.store.rows(VOLUMES)
            if str(r.get("compute_id")) == key and p.can_read("volume", r.get("id"))
        ]
    )


# -- kernels, regions, types ----------------------------------------------------------------


@handles("compute.kernels.list")
def kernels_list(ctx: Ctx) -> Collection:
    """Every kernel (no token needed)."""
    return Collection([public(k) for k in ctx.store.rows(KERNELS)])


@handles("compute.kernels.view")
def kernels_view(ctx: Ctx) -> dict[str, Any]:
    """One kernel by id (``compute/latest-64bit``)."""
    kernel = ctx.store.get(KERNELS, str(ctx.params.get("kernelId", "")))
    if kernel is None:
        raise not_found("Kernel not found")
    return public(kernel)


@handles("compute.regions.list")
def regions_list(ctx: Ctx) -> Collection:
    """Every region (no token needed)."""
    return Collection([public(r) for r in ctx.store.rows(REGIONS)])


@handles("compute.types.list")
def types_list(ctx: Ctx) -> Collection:
    """Every instance type (no token needed)."""
    return Collection([public(t) for t in ctx.store.rows(TYPES)])
