"""Block volumes.

The response model :class:`Volume` is tolerant; the request models (:class:`VolumeCreate`,
:class:`VolumeUpdate`, :class:`VolumeAttach`, :class:`VolumeClone`, :class:`VolumeResize`) carry
the reference's limits and cross-field rules.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints, model_validator

from tui.models.base import ApiModel, RequestModel

VOLUME_LABEL_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
"""1 to 32 ASCII letters, digits, dashes or underscores (the label is part of the device path)."""


def _volume_label_shape(value: str) -> str:
    """The reference's further rules: a letter first, no ``--`` or ``__``."""
    if not value[:1].isalpha():
        raise ValueError("must begin with a letter")
    if "--" in value or "__" in value:
        raise ValueError("may not hold two dashes or two underscores in a row")
    return value


VolumeLabel = Annotated[
    str,
    StringConstraints(min_length=1, max_length=32, pattern=VOLUME_LABEL_PATTERN),
    AfterValidator(_volume_label_shape),
]

SIZE_MIN_GB = 10
SIZE_MAX_GB = 10240
DEFAULT_SIZE_GB = 20

VolumeSize = Annotated[int, Field(ge=SIZE_MIN_GB, le=SIZE_MAX_GB)]


# -- responses ------------------------------------------------------------------------------


class Volume(ApiModel):
    """A block storage volume."""

    id: int | None = None
    """Volume id."""
    label: str | None = None
    """Label, 1..32 characters; also part of ``filesystem_path``."""
    status: str | None = None
    """``creating``, ``active``, ``resizing``, ``migrating`` ... (open set)."""
    size: int | None = None
    """Size in GB."""
    region: str | None = None
    """Region id; a volume attaches only to instances of its region."""
    compute_id: int | None = None
    """Instance the volume is attached to, or None when free."""
    compute_label: str | None = None
    """Label of that instance."""
    hardware_type: str | None = None
    """Storage hardware, for example ``nvme``."""
    filesystem_path: str | None = None
    """Device path inside the instance, for example ``/dev/disk/by-id/scsi-0Volume_data``."""
    tags: list[str] = Field(default_factory=list)
    """Tags."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


# -- requests -------------------------------------------------------------------------------


class VolumeCreate(RequestModel):
    """A new volume: in a region, or attached at once to an instance (charges apply)."""

    label: VolumeLabel
    """1 to 32 letters, digits, dashes or underscores, beginning with a letter; used in the
    device path."""
    size: VolumeSize | None = None
    """Size in GB, 10 to 10240 (default 20)."""
    region: str | None = None
    """Region id, for example ``us-east``; required unless an instance is given."""
    compute_id: int | None = None
    """Instance to attach to at once; the volume takes its region."""
    config_id: int | None = None
    """Configuration profile of that instance to join (default: its only or last used one)."""
    tags: list[str] | None = None
    """Tags (only unrestricted users may set them)."""

    @model_validator(mode="after")
    def _placement(self) -> VolumeCreate:
        if self.region is None and self.compute_id is None:
            raise ValueError("region is required when compute_id is not given")
        if self.config_id is not None and self.compute_id is None:
            raise ValueError("config_id needs compute_id")
        return self


class VolumeUpdate(RequestModel):
    """Changes to a volume."""

    label: VolumeLabel | None = None
    """New label: 1 to 32 letters, digits, dashes or underscores, beginning with a letter."""
    tags: list[str] | None = None
    """Tags; replaces the whole list (only unrestricted users may change them)."""


class VolumeAttach(RequestModel):
    """Attach a volume to an instance of the same region."""

    compute_id: int
    """Instance to attach to (you need read_write access to it)."""
    config_id: int | None = None
    """Configuration profile to join (default: the last booted one); not with
    persist_across_boots off."""
    persist_across_boots: bool = True
    """Keep the volume in the profile across reboots (default on). Off: the instance must be
    running and the attachment lasts until the next boot."""

    @model_validator(mode="after")
    def _config_needs_persistence(self) -> VolumeAttach:
        if self.persist_across_boots is False and self.config_id is not None:
            raise ValueError("config_id must not be given when persist_across_boots is false")
        return self


class VolumeClone(RequestModel):
    """Copy an active volume into a new one of the same size and data."""

    label: VolumeLabel
    """Label of the copy: 1 to 32 letters, digits, dashes or underscores, beginning with a
    letter."""


class VolumeResize(RequestModel):
    """Grow an active volume (volumes cannot shrink)."""

    size: VolumeSize
    """New size in GB, larger than the current one, up to 10240. The filesystem on it keeps
    its size: grow it on the instance afterwards (the commands are shown once sent)."""
