"""Compute instances with their configuration profiles, disks, backups, statistics and transfer;
kernels, regions and instance types.

Response models (:class:`Instance`, :class:`InstanceConfig`, :class:`Disk`, ...) are tolerant of
new fields and statuses. Request models (:class:`InstanceCreate`, :class:`ConfigCreate`,
:class:`DiskCreate`, :class:`RescueRequest`, ...) carry the reference's limits and cross-field
rules, so bad input is refused before it is sent; their attribute docstrings are form help.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, StringConstraints, ValidationInfo, field_validator, model_validator

from tui.models.base import ApiModel, Label3to64, Password, RequestModel
from tui.models.rules import GIVEN, When, offered

INSTANCE_LABEL_MIN, INSTANCE_LABEL_MAX = 3, 64
CONFIG_LABEL_MAX = 48
DISK_LABEL_MAX = 48
ROOT_PASS_MIN, ROOT_PASS_MAX = 7, 128
INTERFACES_MAX = 3
DEFAULT_SWAP_MB = 512
DEFAULT_KERNEL = "compute/latest-64bit"
GROUP_MAX = 50
VLAN_LABEL = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""VLAN names: 1 to 64 letters, digits, dashes or underscores."""
SSH_KEY_PREFIXES = ("ssh-", "ecdsa-", "sk-")
"""Public SSH keys start with their algorithm: ``ssh-ed25519``, ``ssh-rsa``, ``ecdsa-sha2-...``."""

InterfacePurpose = Literal["public", "vlan"]
RunLevel = Literal["default", "single", "binbash"]
VirtMode = Literal["paravirt", "fullvirt"]
Filesystem = Literal["raw", "swap", "ext3", "ext4", "initrd"]
BackupDay = Literal[
    "Scheduling", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"
]
"""``Scheduling`` lets the service pick the day."""
BackupWindow = Literal[
    "Scheduling", "W0", "W2", "W4", "W6", "W8", "W10", "W12", "W14", "W16", "W18", "W20", "W22"
]
"""Two-hour windows in UTC: ``W0`` is 00:00-02:00, ``W22`` 22:00-24:00; ``Scheduling`` lets the
service pick one."""

RootPassword = Annotated[Password, Field(min_length=ROOT_PASS_MIN, max_length=ROOT_PASS_MAX)]
ConfigLabel = Annotated[str, StringConstraints(min_length=1, max_length=CONFIG_LABEL_MAX)]
DiskLabel = Annotated[str, StringConstraints(min_length=1, max_length=DISK_LABEL_MAX)]
GroupText = Annotated[str, StringConstraints(max_length=GROUP_MAX)]
RootDevice = Annotated[str, StringConstraints(pattern=r"^/dev/\S+$", max_length=64)]
ROOT_DEVICES = tuple(f"/dev/sd{letter}" for letter in "abcdefgh")
"""The devices a configuration profile maps (the reference's ``devices`` keys ``sda`` to
``sdh``): what a form offers as the root device. The reference does not bound
``root_device`` itself, so the model still takes any ``/dev/...`` path."""
Series = list[list[float]]
"""A statistics series: ``[timestamp in milliseconds, value]`` points, oldest first."""


def check_ssh_keys(keys: list[str] | None) -> list[str] | None:
    """Refuse entries that do not look like one public SSH key each.

    Args:
        keys: Public keys such as ``ssh-ed25519 AAAA... me@laptop``.

    Returns:
        The keys unchanged.

    Raises:
        ValueError: An entry is not a single-line public key.
    """
    for key in keys or []:
        text = key.strip()
        if "\n" in text or not text.startswith(SSH_KEY_PREFIXES) or len(text.split()) < 2:
            raise ValueError(
                "each entry must be one public SSH key (for example ssh-ed25519 AAAA…)"
            )
    return keys


def check_interfaces(interfaces: list[InterfaceRequest] | None) -> list[InterfaceRequest] | None:
    """Cross-entry rules of an interface list: one public interface, distinct VLANs.

    Returns:
        The interfaces unchanged.

    Raises:
        ValueError: Two public interfaces, or the same VLAN twice.
    """
    if not interfaces:
        return interfaces
    if sum(1 for i in interfaces if i.purpose == "public") > 1:
        raise ValueError("at most one interface may be public")
    vlans = [i.label for i in interfaces if i.purpose == "vlan"]
    if len(vlans) != len(set(vlans)):
        raise ValueError("each VLAN may be joined only once")
    return interfaces


def _given(info: ValidationInfo, name: str) -> bool:
    """True when the earlier field ``name`` validated and holds a value.

    Cross-field rules are field validators on the later field, so their errors name that field
    (and a form shows them next to it); a field that failed its own check is left out of
    ``info.data`` and does not trigger a second, misleading error.
    """
    return info.data.get(name) is not None


def _validated_none(info: ValidationInfo, name: str) -> bool:
    """True when the earlier field ``name`` validated and is empty."""
    return name in info.data and info.data[name] is None


# -- responses ------------------------------------------------------------------------------


class InstanceSpecs(ApiModel):
    """Resources of an instance (from its type)."""

    disk: int | None = None
    """Disk space in MB."""
    memory: int | None = None
    """Memory in MB."""
    vcpus: int | None = None
    """Virtual CPUs."""
    transfer: int | None = None
    """Monthly network transfer quota in GB."""


class InstanceAlerts(ApiModel):
    """Thresholds above which the account is notified."""

    cpu: int | None = None
    """Average CPU usage in percent (100 per vCPU)."""
    io: int | None = None
    """Disk I/O operations per second."""
    network_in: int | None = None
    """Incoming traffic in Mbit/s."""
    network_out: int | None = None
    """Outgoing traffic in Mbit/s."""
    transfer_quota: int | None = None
    """Share of the monthly transfer quota used, in percent."""


class BackupSchedule(ApiModel):
    """When automatic backups run."""

    day: str | None = None
    """Day of the week, or ``Scheduling`` while the service picks one."""
    window: str | None = None
    """Two-hour window (``W0`` = 00:00-02:00 UTC ... ``W22``), or ``Scheduling``."""


class InstanceBackups(ApiModel):
    """Backup settings of an instance."""

    available: bool | None = None
    """True when backups exist that can be restored."""
    enabled: bool | None = None
    """True when the backup service is enabled (charges apply)."""
    last_successful: str | None = None
    """Finish time of the last successful backup (UTC)."""
    schedule: BackupSchedule | None = None
    """When automatic backups run."""


class Instance(ApiModel):
    """A compute instance."""

    id: int | None = None
    """Instance id."""
    label: str | None = None
    """Display label, 3..64 characters."""
    status: str | None = None
    """``running``, ``offline``, ``provisioning``, ``booting`` ... (open set)."""
    region: str | None = None
    """Region id."""
    type: str | None = None
    """Instance type id (changes only through resize)."""
    image: str | None = None
    """Image the instance was deployed from, if any."""
    ipv4: list[str] = Field(default_factory=list)
    """IPv4 addresses: one public, optionally one private."""
    ipv6: str | None = None
    """SLAAC IPv6 address with its ``/128`` prefix, or None."""
    specs: InstanceSpecs | None = None
    """Disk, memory, vCPUs and transfer quota."""
    alerts: InstanceAlerts | None = None
    """Notification thresholds."""
    backups: InstanceBackups | None = None
    """Backup settings."""
    tags: list[str] = Field(default_factory=list)
    """Tags."""
    group: str | None = None
    """Deprecated group label."""
    hypervisor: str | None = None
    """Hypervisor, ``kvm``."""
    host_uuid: str | None = None
    """Host machine."""
    watchdog_enabled: bool | None = None
    """True when the shutdown watchdog reboots the instance after an unexpected power-off."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


class BackupDisk(ApiModel):
    """A disk captured in a backup."""

    filesystem: str | None = None
    """Filesystem of the disk."""
    label: str | None = None
    """Disk label."""
    size: int | None = None
    """Size in MB."""


class Backup(ApiModel):
    """One backup of an instance."""

    id: int | None = None
    """Backup id (use it as ``backup_id`` to create an instance from it)."""
    label: str | None = None
    """Label (snapshots are named by their creator)."""
    type: str | None = None
    """``automatic`` or ``snapshot``."""
    status: str | None = None
    """``successful``, ``running`` ... (open set)."""
    available: bool | None = None
    """True when the backup can be restored."""
    configs: list[str] = Field(default_factory=list)
    """Labels of the configuration profiles captured."""
    disks: list[BackupDisk] = Field(default_factory=list)
    """Disks captured."""
    created: str | None = None
    """Start time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""
    finished: str | None = None
    """Finish time (UTC), None while running."""


class BackupSnapshots(ApiModel):
    """The two snapshot slots of an instance."""

    current: Backup | None = None
    """The latest finished snapshot."""
    in_progress: Backup | None = None
    """A snapshot being taken now."""


class BackupsListing(ApiModel):
    """Every backup of an instance."""

    automatic: list[Backup] = Field(default_factory=list)
    """Automatic backups, oldest first."""
    snapshot: BackupSnapshots | None = None
    """Manual snapshots."""


class ConfigDevice(ApiModel):
    """What one device slot of a configuration profile holds."""

    disk_id: int | None = None
    """A disk of the instance."""
    volume_id: int | None = None
    """A volume attached to the instance."""


class ConfigHelpers(ApiModel):
    """Boot helpers of a configuration profile."""

    devtmpfs_automount: bool | None = None
    """Mount devtmpfs at boot."""
    distro: bool | None = None
    """Fix distribution settings at boot."""
    modules_dep: bool | None = None
    """Build the module dependency file at boot."""
    network: bool | None = None
    """Configure networking at boot."""
    updatedb_disabled: bool | None = None
    """Disable the updatedb cron job."""


class ConfigInterface(ApiModel):
    """A network interface of a configuration profile."""

    purpose: str | None = None
    """``public`` or ``vlan``."""
    label: str | None = None
    """VLAN name (empty for the public interface)."""
    ipam_address: str | None = None
    """Address with prefix length on the VLAN, for example ``10.0.0.1/24``."""


class InstanceConfig(ApiModel):
    """A configuration profile: how an instance boots."""

    id: int | None = None
    """Profile id."""
    label: str | None = None
    """Label, 1..48 characters."""
    comments: str | None = None
    """Free-form notes."""
    kernel: str | None = None
    """Kernel id, for example ``compute/latest-64bit``."""
    devices: dict[str, ConfigDevice | None] = Field(default_factory=dict)
    """Device slots ``sda`` to ``sdh``."""
    root_device: str | None = None
    """Device the root filesystem is on, for example ``/dev/sda``."""
    run_level: str | None = None
    """``default``, ``single`` or ``binbash``."""
    virt_mode: str | None = None
    """``paravirt`` or ``fullvirt``."""
    memory_limit: int | None = None
    """Memory available to the instance in MB (0 means all of it)."""
    helpers: ConfigHelpers | None = None
    """Boot helpers."""
    interfaces: list[ConfigInterface] = Field(default_factory=list)
    """Network interfaces, up to three."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


class Disk(ApiModel):
    """A disk of an instance."""

    id: int | None = None
    """Disk id."""
    label: str | None = None
    """Label."""
    status: str | None = None
    """``ready``, ``not ready`` ... (open set)."""
    size: int | None = None
    """Size in MB."""
    filesystem: str | None = None
    """``ext4``, ``ext3``, ``swap``, ``raw`` or ``initrd``."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


class StatsIo(ApiModel):
    """Disk activity series."""

    io: Series = Field(default_factory=list)
    """Block operations per second."""
    swap: Series = Field(default_factory=list)
    """Swap operations per second."""


class StatsNet(ApiModel):
    """Network traffic series, in bits per second."""

    in_: Series = Field(default_factory=list, alias="in")
    """Public traffic in."""
    out: Series = Field(default_factory=list)
    """Public traffic out."""
    private_in: Series = Field(default_factory=list)
    """Private traffic in."""
    private_out: Series = Field(default_factory=list)
    """Private traffic out."""

    def raw(self) -> dict[str, Any]:
        """The series as JSON-ready data, with the API's key ``in``."""
        return self.model_dump(mode="json", by_alias=True)


class Stats(ApiModel):
    """Statistics of an instance: the last 24 hours, or one month."""

    cpu: Series = Field(default_factory=list)
    """CPU usage in percent (100 per vCPU)."""
    io: StatsIo | None = None
    """Disk activity."""
    netv4: StatsNet | None = None
    """IPv4 traffic."""
    netv6: StatsNet | None = None
    """IPv6 traffic."""
    title: str | None = None
    """Title of the graphs."""

    def raw(self) -> dict[str, Any]:
        """The statistics as JSON-ready data, with the API's key ``in``."""
        return self.model_dump(mode="json", by_alias=True)


class Transfer(ApiModel):
    """Network transfer of an instance this month."""

    used: int | None = None
    """Bytes of public traffic this month."""
    quota: int | None = None
    """GB this instance adds to the account's pool."""
    billable: int | None = None
    """GB used beyond the quota (billed)."""


class TransferMonth(ApiModel):
    """Public network transfer of an instance in one month, in bytes."""

    bytes_in: int | None = None
    """Bytes received."""
    bytes_out: int | None = None
    """Bytes sent."""
    bytes_total: int | None = None
    """Bytes received and sent."""


class Kernel(ApiModel):
    """A kernel a configuration profile can boot."""

    id: str | None = None
    """Kernel id; contains a slash, for example ``compute/latest-64bit``."""
    label: str | None = None
    """Display name."""
    version: str | None = None
    """Kernel version."""
    architecture: str | None = None
    """``x86_64`` or ``i386``."""
    built: str | None = None
    """Build time (UTC)."""
    deprecated: bool | None = None
    """True when the kernel should no longer be used."""
    kvm: bool | None = None
    """Works on KVM."""
    xen: bool | None = None
    """Works on Xen."""
    pvops: bool | None = None
    """Supports paravirtualised operations."""


class Region(ApiModel):
    """A data center region."""

    id: str | None = None
    """Region id, for example ``us-east``."""
    label: str | None = None
    """City and area."""
    country: str | None = None
    """Two-letter country code."""
    status: str | None = None
    """``ok`` or ``outage``."""
    capabilities: list[str] = Field(default_factory=list)
    """Services offered, for example ``Vlans`` or ``Block Storage``."""


class TypePrice(ApiModel):
    """A price in US dollars."""

    hourly: float | None = None
    """Per hour."""
    monthly: float | None = None
    """Per month (the cap)."""


class InstanceType(ApiModel):
    """An instance type (plan)."""

    id: str | None = None
    """Type id, for example ``std-2``."""
    label: str | None = None
    """Display name."""
    class_: str | None = Field(default=None, alias="class")
    """``nanode``, ``standard``, ``dedicated`` or ``highmem``."""
    vcpus: int | None = None
    """Virtual CPUs."""
    memory: int | None = None
    """Memory in MB."""
    disk: int | None = None
    """Disk space in MB."""
    transfer: int | None = None
    """Monthly network transfer quota in GB."""
    price: TypePrice | None = None
    """Price of the instance."""
    addons: dict[str, Any] = Field(default_factory=dict)
    """Add-on prices, for example ``{"backups": {"price": {...}}}``."""

    def raw(self) -> dict[str, Any]:
        """The type as JSON-ready data, with the API's key ``class``."""
        return self.model_dump(mode="json", by_alias=True)


# -- requests -------------------------------------------------------------------------------


class InterfaceRequest(RequestModel):
    """A network interface: the public internet, or a private VLAN."""

    required_when: ClassVar[Mapping[str, str]] = {"label": "required for a VLAN"}

    purpose: InterfacePurpose
    """``public`` for the internet (at most one), ``vlan`` for a private VLAN (only in regions
    with the Vlans capability)."""
    label: str | None = Field(default=None, max_length=64)
    """VLAN name, 1 to 64 letters, digits, dashes or underscores; leave empty for public."""
    ipam_address: str | None = None
    """This instance's address on the VLAN with prefix length, for example ``10.0.0.1/24``;
    leave empty for public."""

    @model_validator(mode="after")
    def _purpose_rules(self) -> InterfaceRequest:
        if self.purpose == "public":
            if self.label or self.ipam_address:
                raise ValueError("a public interface takes no label and no ipam_address")
            return self
        if not self.label or not VLAN_LABEL.fullmatch(self.label):
            raise ValueError(
                "a VLAN interface needs a label of 1 to 64 letters, digits, dashes or underscores"
            )
        if self.ipam_address:
            if "/" not in self.ipam_address:
                raise ValueError("ipam_address needs a prefix length, for example 10.0.0.1/24")
            try:
                ipaddress.ip_interface(self.ipam_address)
            except ValueError:
                raise ValueError("ipam_address must be an address with prefix length") from None
        return self


class _DeploysImage(RequestModel):
    """Rules of a request that may deploy an image with a deployment script (an instance or a
    disk): checked by field, in each subclass's field order."""

    # Keys are ticked among the profile's and this machine's (~/.ssh/*.pub), users among the
    # users the app knows: nothing to paste or type.
    choices_from: ClassVar[Mapping[str, str]] = {
        "authorized_keys": "ssh_public_keys",
        "authorized_users": "profile_users",
    }

    @field_validator("authorized_keys", check_fields=False)
    @classmethod
    def _keys(cls, value: list[str] | None) -> list[str] | None:
        return check_ssh_keys(value)

    @field_validator("root_pass", check_fields=False)
    @classmethod
    def _root_pass_with_image(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None and _given(info, "image"):
            raise ValueError("root_pass is required when deploying an image")
        return value

    @field_validator("stackscript_id", check_fields=False)
    @classmethod
    def _script_needs_image(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and _validated_none(info, "image"):
            raise ValueError("a deployment script needs an image")
        return value

    @field_validator("stackscript_data", check_fields=False)
    @classmethod
    def _data_needs_script(cls, value: Any, info: ValidationInfo) -> Any:
        if value is not None and _validated_none(info, "stackscript_id"):
            raise ValueError("stackscript_data needs stackscript_id")
        return value


_WITH_IMAGE = When("image", (GIVEN,))

DEPLOY_RULES: Mapping[str, When] = {
    # An instance is deployed from an image, restored from a backup, or left empty: the
    # image's companions (password, keys, script, swap) only with an image (root_pass then
    # required), a backup only without one ("give either image or backup_id, not both").
    "root_pass": When("image", (GIVEN,), required=True),
    "authorized_keys": _WITH_IMAGE,
    "authorized_users": _WITH_IMAGE,
    "stackscript_id": _WITH_IMAGE,
    "stackscript_data": When("stackscript_id", (GIVEN,)),
    "swap_size": _WITH_IMAGE,
    "backup_id": When("image", (None,)),
}
"""Which fields of a new instance follow the choice of image, backup or nothing."""


class InstanceCreate(_DeploysImage):
    """A new compute instance (charges apply)."""

    shown_when: ClassVar[Mapping[str, When]] = DEPLOY_RULES

    region: str
    """Region to create it in, for example ``us-east``."""
    type: str
    """Instance type (plan), for example ``std-2``; sets CPUs, memory, disk and price."""
    label: Label3to64 | None = None
    """3 to 64 characters, unique among your instances; a label is made up when empty."""
    image: str | None = None
    """Image to deploy, for example ``compute/debian12``; empty creates an empty instance that
    stays offline until you add disks and a configuration profile."""
    root_pass: RootPassword | None = Field(default=None, validate_default=True)
    """Root password, 7 to 128 characters; required when deploying an image."""
    authorized_keys: list[str] | None = None
    """Public SSH keys added to root's authorized_keys (image deployments)."""
    authorized_users: list[str] | None = None
    """Users of this account whose profile SSH keys are added to root (image deployments)."""
    stackscript_id: int | None = None
    """Deployment script to run on first boot; needs an image the script supports."""
    stackscript_data: dict[str, Any] | None = None
    """Answers to the script's user-defined fields as a JSON object, for example
    ``{"site_name": "shop"}``; needed when the script asks for input without a default."""
    backup_id: int | None = None
    """Backup of another instance to restore into this one (instead of an image); the type
    must have room for the backup's disks."""
    swap_size: int | None = Field(default=None, ge=0)
    """Swap disk size in MB when deploying an image (default 512; 0 for no swap disk)."""
    booted: bool = True
    """Boot once deployed; off leaves it offline after deployment."""
    private_ip: bool = False
    """Also assign a private IPv4 address (private networking in the region)."""
    backups_enabled: bool = False
    """Enable the backup service (priced per type; see the types listing)."""
    interfaces: list[InterfaceRequest] | None = Field(default=None, max_length=INTERFACES_MAX)
    """Up to 3 network interfaces; empty gives only the default public interface."""
    tags: list[str] | None = None
    """Tags (only unrestricted users may set them)."""
    group: GroupText | None = None
    """Deprecated group label, up to 50 characters; prefer tags."""

    @field_validator("backup_id")
    @classmethod
    def _backup_or_image(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and _given(info, "image"):
            raise ValueError("give either image or backup_id, not both")
        return value

    @field_validator("interfaces")
    @classmethod
    def _interfaces(cls, value: list[InterfaceRequest] | None) -> list[InterfaceRequest] | None:
        return check_interfaces(value)


class AlertsRequest(RequestModel):
    """Alert thresholds to change (the others stay as they are)."""

    cpu: int | None = Field(default=None, ge=0)
    """Average CPU usage in percent, 0 to 100 per vCPU (0 turns the alert off)."""
    io: int | None = Field(default=None, ge=0)
    """Disk I/O operations per second (0 turns the alert off)."""
    network_in: int | None = Field(default=None, ge=0)
    """Incoming traffic in Mbit/s (0 turns the alert off)."""
    network_out: int | None = Field(default=None, ge=0)
    """Outgoing traffic in Mbit/s (0 turns the alert off)."""
    transfer_quota: int | None = Field(default=None, ge=0, le=100)
    """Share of the monthly transfer quota in percent, 0 to 100 (0 turns the alert off)."""


class BackupScheduleRequest(RequestModel):
    """When automatic backups run."""

    day: BackupDay | None = None
    """Day of the week, or ``Scheduling`` to let the service choose."""
    window: BackupWindow | None = None
    """Two-hour window in UTC (``W0`` = 00:00-02:00 ... ``W22``), or ``Scheduling``."""


class BackupsUpdate(RequestModel):
    """Backup settings to change."""

    schedule: BackupScheduleRequest | None = None
    """When automatic backups run."""


class InstanceUpdate(RequestModel):
    """Changes to an instance."""

    label: Label3to64 | None = None
    """New label, 3 to 64 characters, unique among your instances."""
    tags: list[str] | None = None
    """Tags; replaces the whole list (only unrestricted users may change them)."""
    group: GroupText | None = None
    """Deprecated group label, up to 50 characters."""
    watchdog_enabled: bool | None = None
    """Reboot the instance when it powers off unexpectedly (gives up after more than 5 boots
    in 15 minutes)."""
    alerts: AlertsRequest | None = None
    """Notification thresholds."""
    backups: BackupsUpdate | None = None
    """Backup schedule."""


class DeviceRequest(RequestModel):
    """What one device slot holds: a disk of the instance or a volume attached to it."""

    disk_id: int | None = None
    """Disk id (a disk of this instance)."""
    volume_id: int | None = None
    """Volume id (a volume attached to this instance)."""

    @model_validator(mode="after")
    def _one_source(self) -> DeviceRequest:
        if self.disk_id is not None and self.volume_id is not None:
            raise ValueError("a device holds either a disk or a volume, not both")
        return self


class ConfigDevices(RequestModel):
    """Device slots ``sda`` to ``sdh`` of a configuration profile."""

    sda: DeviceRequest | None = None
    """First device, usually the root disk."""
    sdb: DeviceRequest | None = None
    """Second device, usually swap."""
    sdc: DeviceRequest | None = None
    """Third device."""
    sdd: DeviceRequest | None = None
    """Fourth device."""
    sde: DeviceRequest | None = None
    """Fifth device."""
    sdf: DeviceRequest | None = None
    """Sixth device."""
    sdg: DeviceRequest | None = None
    """Seventh device."""
    sdh: DeviceRequest | None = None
    """Eighth device."""


class RescueDevices(RequestModel):
    """Device slots for rescue mode: ``sda`` to ``sdg`` (``sdh`` is reserved)."""

    sda: DeviceRequest | None = None
    """First device."""
    sdb: DeviceRequest | None = None
    """Second device."""
    sdc: DeviceRequest | None = None
    """Third device."""
    sdd: DeviceRequest | None = None
    """Fourth device."""
    sde: DeviceRequest | None = None
    """Fifth device."""
    sdf: DeviceRequest | None = None
    """Sixth device."""
    sdg: DeviceRequest | None = None
    """Seventh device."""

    @model_validator(mode="before")
    @classmethod
    def _sdh_reserved(cls, data: Any) -> Any:
        if isinstance(data, dict) and "sdh" in data:
            raise ValueError("sdh is reserved for the rescue system and cannot be used")
        return data


class HelpersRequest(RequestModel):
    """Boot helpers to turn on or off."""

    devtmpfs_automount: bool | None = None
    """Mount devtmpfs at boot."""
    distro: bool | None = None
    """Fix distribution settings at boot."""
    modules_dep: bool | None = None
    """Build the module dependency file at boot."""
    network: bool | None = None
    """Configure networking at boot."""
    updatedb_disabled: bool | None = None
    """Disable the updatedb cron job."""


class ConfigCreate(RequestModel):
    """A new configuration profile."""

    label: ConfigLabel
    """1 to 48 characters."""
    devices: ConfigDevices
    """Disks and volumes in slots ``sda`` to ``sdh``."""
    kernel: str | None = None
    """Kernel id (default ``compute/latest-64bit``)."""
    comments: str | None = None
    """Free-form notes."""
    memory_limit: int | None = Field(default=None, ge=0)
    """Memory available in MB, at most the instance's memory (default: all of it)."""
    run_level: RunLevel | None = None
    """``default``, ``single`` (single user) or ``binbash`` (a shell) (default ``default``)."""
    virt_mode: VirtMode | None = None
    """``paravirt`` or ``fullvirt`` (default ``paravirt``)."""
    root_device: RootDevice | None = Field(
        None, json_schema_extra=offered((device, device) for device in ROOT_DEVICES)
    )
    """Device holding the root filesystem, for example ``/dev/sda`` (default ``/dev/sda``)."""
    helpers: HelpersRequest | None = None
    """Boot helpers (default: all on, updatedb disabled)."""
    interfaces: list[InterfaceRequest] | None = Field(default=None, max_length=INTERFACES_MAX)
    """Up to 3 network interfaces; empty gives only the default public interface."""

    @field_validator("interfaces")
    @classmethod
    def _interfaces(cls, value: list[InterfaceRequest] | None) -> list[InterfaceRequest] | None:
        return check_interfaces(value)


class ConfigUpdate(RequestModel):
    """Changes to a configuration profile."""

    label: ConfigLabel | None = None
    """1 to 48 characters."""
    devices: ConfigDevices | None = None
    """Disks and volumes in slots ``sda`` to ``sdh``; replaces the whole map."""
    kernel: str | None = None
    """Kernel id, for example ``compute/latest-64bit``."""
    comments: str | None = None
    """Free-form notes."""
    memory_limit: int | None = Field(default=None, ge=0)
    """Memory available in MB, at most the instance's memory."""
    run_level: RunLevel | None = None
    """``default``, ``single`` (single user) or ``binbash`` (a shell)."""
    virt_mode: VirtMode | None = None
    """``paravirt`` or ``fullvirt``."""
    root_device: RootDevice | None = Field(
        None, json_schema_extra=offered((device, device) for device in ROOT_DEVICES)
    )
    """Device holding the root filesystem, for example ``/dev/sda``."""
    helpers: HelpersRequest | None = None
    """Boot helpers to change."""
    interfaces: list[InterfaceRequest] | None = Field(default=None, max_length=INTERFACES_MAX)
    """Up to 3 network interfaces; replaces the whole list."""

    @field_validator("interfaces")
    @classmethod
    def _interfaces(cls, value: list[InterfaceRequest] | None) -> list[InterfaceRequest] | None:
        return check_interfaces(value)


class DiskCreate(_DeploysImage):
    """A new disk: empty, or deployed from an image."""

    size: int = Field(ge=1)
    """Size in MB; must fit in the instance type's free disk space."""
    label: DiskLabel | None = None
    """1 to 48 characters; required for an empty disk (default from the image's name)."""
    filesystem: Filesystem | None = None
    """``ext4`` (default), ``ext3``, ``swap``, ``raw`` or ``initrd``; an image's own filesystem
    is used unless you choose one."""
    image: str | None = Field(default=None, validate_default=True)
    """Image to deploy onto the disk; required when no label is given."""
    root_pass: RootPassword | None = Field(default=None, validate_default=True)
    """Root password, 7 to 128 characters; required with an image."""
    authorized_keys: list[str] | None = None
    """Public SSH keys added to root's authorized_keys."""
    authorized_users: list[str] | None = None
    """Users of this account whose profile SSH keys are added to root."""
    stackscript_id: int | None = None
    """Deployment script to run; needs an image the script supports."""
    stackscript_data: dict[str, Any] | None = None
    """Answers to the script's user-defined fields as a JSON object."""

    @field_validator("image")
    @classmethod
    def _label_or_image(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and _validated_none(info, "label"):
            raise ValueError("give an image, or a label for an empty disk")
        return value


class RescueRequest(RequestModel):
    """Boot into rescue mode with disks and volumes in slots ``sda`` to ``sdg``."""

    devices: RescueDevices | None = None
    """Device map (default: the instance's disks in order); ``sdh`` is reserved."""


class ResizeRequest(RequestModel):
    """Move an instance to another type (queued actions must finish first)."""

    # Types too small for the instance's disks are marked and refused in the chooser.
    choices_from: ClassVar[Mapping[str, str]] = {"type": "resize_type"}

    type: Annotated[str, StringConstraints(min_length=1)]
    """New instance type, for example ``std-4``; your disks must fit in its disk space."""
    allow_auto_disk_resize: bool = True
    """Grow the main disk into the new type's extra space (when there is one main disk)."""


class BootRequest(RequestModel):
    """Boot or reboot with a configuration profile."""

    several_only: ClassVar[frozenset[str]] = frozenset({"config_id"})

    config_id: int | None = None
    """Profile to boot (default: the last booted one, else the first)."""
