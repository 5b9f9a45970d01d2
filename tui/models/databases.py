"""Managed databases: engines, database instances, backups, credentials and certificates.

Response models (:class:`Database`, :class:`DatabaseBackup`, ...) are tolerant; request models
(:class:`DatabaseCreate`, :class:`DatabaseUpdate`, :class:`SnapshotCreate`) carry the reference's
limits and cross-field rules so bad input is refused before it is sent.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from tui.models.base import ApiModel, Label3to32, RequestModel
from tui.models.rules import When, suggested

DatabaseEngine = Literal["mysql", "mongodb"]
"""Engine segment of the per-engine database paths."""

ReplicationType = Literal["none", "asynch", "semi_synch"]

SNAPSHOT_LABEL = re.compile(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*")
"""Letters, digits and single ``-``, ``_`` or ``.`` between them: begins and ends with a letter or
digit, never two separators in a row."""


def check_allow_list(entries: list[str]) -> list[str]:
    """Refuse entries that are neither an IP address nor a CIDR range.

    Args:
        entries: Allow-list entries such as ``203.0.113.7`` or ``198.51.100.0/24``.

    Returns:
        The entries unchanged.

    Raises:
        ValueError: An entry is not an IP address or CIDR range.
    """
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or CIDR range") from None
    return entries


# -- responses ------------------------------------------------------------------------------


class Engine(ApiModel):
    """A database engine and version that new databases can use."""

    id: str | None = None
    """Engine id, the path parameter of the engine view (for example ``mysql_8.0.30``)."""
    engine: str | None = None
    """Engine name: ``mysql`` or ``mongodb``."""
    version: str | None = None
    """Engine version, for example ``8.0.30``."""

    @property
    def create_value(self) -> str | None:
        """The ``engine/version`` text that database creation expects (``mysql/8.0.30``)."""
        if not self.engine or not self.version:
            return None
        return f"{self.engine}/{self.version}"


class DatabaseHosts(ApiModel):
    """Host names a database answers on."""

    primary: str | None = None
    """Host name of the primary node."""
    secondary: str | None = None
    """Host name of the replicas (high-availability clusters only)."""


class MaintenanceWindow(ApiModel):
    """When maintenance may happen, as the API reports it."""

    day_of_week: int | None = None
    """1 (Monday) .. 7 (Sunday)."""
    duration: int | None = None
    """Length in hours, 1..3."""
    frequency: str | None = None
    """``weekly`` or ``monthly``."""
    hour_of_day: int | None = None
    """Start hour, 0..23 UTC."""
    week_of_month: int | None = None
    """1..4 for a monthly window; null for a weekly one."""


class Database(ApiModel):
    """A managed database instance (MySQL or MongoDB)."""

    id: int | None = None
    """Database id."""
    label: str | None = None
    """User-defined, unique label."""
    engine: str | None = None
    """``mysql`` or ``mongodb``."""
    version: str | None = None
    """Engine version."""
    region: str | None = None
    """Region id."""
    type: str | None = None
    """Instance type of the nodes."""
    status: str | None = None
    """``provisioning``, ``active``, ``failed``, ``degraded``, ... (open set)."""
    cluster_size: int | None = None
    """1, or 3 for a high-availability cluster."""
    replication_type: str | None = None
    """``none``, ``asynch`` or ``semi_synch``."""
    allow_list: list[str] = Field(default_factory=list)
    """IP addresses and CIDR ranges allowed to connect; empty blocks every connection."""
    encrypted: bool | None = None
    """True when the data is encrypted at rest."""
    ssl_connection: bool | None = None
    """True when connections require SSL."""
    hosts: DatabaseHosts | None = None
    """Host names of the primary and the replicas."""
    port: int | None = None
    """TCP port (3306 for MySQL, 27017 for MongoDB)."""
    updates: MaintenanceWindow | None = None
    """Maintenance window."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""
    instance_uri: str | None = None
    """Path of the detail view (entries of the list across engines)."""


class DatabaseBackup(ApiModel):
    """An automatic backup or a user snapshot of a database."""

    id: int | None = None
    """Backup id."""
    label: str | None = None
    """Backup label."""
    type: str | None = None
    """``auto`` (daily at 00:00 UTC, kept 7 days) or ``snapshot``."""
    target: str | None = None
    """``primary`` or ``secondary``: the node the backup was taken from."""
    created: str | None = None
    """When the backup was taken (UTC)."""


class DatabaseCredentials(ApiModel):
    """Root credentials of a database. The password is kept out of ``repr`` and logs."""

    username: str | None = None
    """Root user name."""
    password: str | None = Field(default=None, repr=False)
    """Root password (shown only on explicit request)."""


class DatabaseSsl(ApiModel):
    """The CA certificate that signs a database's server certificate."""

    ca_certificate: str | None = None
    """PEM-encoded CA certificate."""


# -- requests -------------------------------------------------------------------------------


class MaintenanceWindowRequest(RequestModel):
    """A maintenance window to set (replaces the current one)."""

    required_when: ClassVar[Mapping[str, str]] = {
        "week_of_month": "required for a monthly window",
    }
    # Spec, updates: week_of_month "required for monthly, null for weekly".
    shown_when: ClassVar[Mapping[str, When]] = {
        "week_of_month": When("frequency", ("monthly",), required=True, unset="weekly"),
    }

    day_of_week: int = Field(ge=1, le=7)
    """Day of the week, 1 (Monday) to 7 (Sunday)."""
    duration: int = Field(ge=1, le=3)
    """Length of the window in hours, 1 to 3."""
    frequency: Literal["weekly", "monthly"] = "weekly"
    """Weekly, or monthly (then also choose the week of the month)."""
    hour_of_day: int = Field(ge=0, le=23)
    """Start hour in UTC, 0 to 23."""
    week_of_month: int | None = Field(default=None, ge=1, le=4)
    """Week of the month, 1 to 4; required for monthly windows, empty for weekly ones."""

    @model_validator(mode="after")
    def _week_matches_frequency(self) -> MaintenanceWindowRequest:
        if self.frequency == "monthly" and self.week_of_month is None:
            raise ValueError("week_of_month is required for a monthly window")
        if self.frequency == "weekly" and self.week_of_month is not None:
            raise ValueError("week_of_month must be empty for a weekly window")
        return self


class DatabaseCreate(RequestModel):
    """A new MySQL database (MongoDB databases can no longer be created)."""

    # Spec, replication_type: "must be none for one node; asynch or semi_synch for three".
    shown_when: ClassVar[Mapping[str, When]] = {
        "replication_type": When("cluster_size", (3,), unset=1),
    }
    warn_when_empty: ClassVar[Mapping[str, str]] = {
        "allow_list": "The allow list is empty: the database will refuse every connection "
        "until addresses are added (e: Edit).",
    }

    engine: Annotated[str, StringConstraints(pattern=r"^mysql/[0-9][0-9A-Za-z.]*$")]
    """Engine and version as ``engine/version``, for example ``mysql/8.0.30``."""
    label: Label3to32
    """Unique label, 3 to 32 characters."""
    region: str
    """Region the database runs in, for example ``us-east``."""
    type: str
    """Instance type of the nodes, for example ``std-2``."""
    allow_list: list[str] | None = Field(None, json_schema_extra=suggested("public_address"))
    """IP addresses or CIDR ranges allowed to connect; empty blocks all connections."""
    cluster_size: Literal[1, 3] = 1
    """1 node, or 3 for high availability (one primary, two replicas)."""
    encrypted: bool = False
    """Encrypt the data at rest."""
    replication_type: ReplicationType | None = None
    """``none`` for one node; ``asynch`` or ``semi_synch`` for three (default ``semi_synch``)."""
    ssl_connection: bool = True
    """Require SSL to connect."""

    @field_validator("allow_list")
    @classmethod
    def _allow_list_entries(cls, value: list[str] | None) -> list[str] | None:
        return check_allow_list(value) if value is not None else None

    @model_validator(mode="after")
    def _replication_matches_size(self) -> DatabaseCreate:
        if self.replication_type is None:
            return self
        if self.cluster_size == 1 and self.replication_type != "none":
            raise ValueError("replication_type must be none for a single-node cluster")
        if self.cluster_size == 3 and self.replication_type == "none":
            raise ValueError("replication_type must be asynch or semi_synch for three nodes")
        return self


class DatabaseUpdate(RequestModel):
    """Changes to a database (it must be active)."""

    allow_list: list[str] | None = Field(None, json_schema_extra=suggested("public_address"))
    """IP addresses or CIDR ranges allowed to connect; replaces the whole list."""
    label: Label3to32 | None = None
    """New unique label, 3 to 32 characters."""
    updates: MaintenanceWindowRequest | None = None
    """New maintenance window."""

    @field_validator("allow_list")
    @classmethod
    def _allow_list_entries(cls, value: list[str] | None) -> list[str] | None:
        return check_allow_list(value) if value is not None else None


class SnapshotCreate(RequestModel):
    """A manual snapshot of a database (it must be active)."""

    label: Annotated[str, StringConstraints(min_length=3, max_length=64)]
    """3 to 64 letters, digits, ``_``, ``-``, ``.``; starts and ends with a letter or digit;
    no two of ``-``, ``_``, ``.`` in a row."""
    target: Literal["primary", "secondary"] = "primary"
    """Node to snapshot; ``secondary`` only for a three-node cluster."""

    @field_validator("label")
    @classmethod
    def _label_characters(cls, value: str) -> str:
        if not SNAPSHOT_LABEL.fullmatch(value):
            raise ValueError(
                "use letters, digits, _ - . only; start and end with a letter or digit; "
                "no two of _ - . in a row"
            )
        return value
