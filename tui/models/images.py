"""Images: public ones (``compute/...``) and the account's private ones (``private/...``).

:class:`Image` is the tolerant response; :class:`ImageCreate` (from a disk), :class:`ImageUpload`
(start an upload) and :class:`ImageUpdate` carry the reference's limits.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import StringConstraints

from tui.models.base import ApiModel, RequestModel

IMAGE_LABEL_MAX = 128
"""Longest image label the simulator and the forms accept (the reference gives no bound)."""
DESCRIPTION_MAX = 65000
UPLOAD_MAX_BYTES = 5 * 1024**3
"""Largest compressed upload the reference allows (5 GB)."""
UPLOAD_WINDOW_HOURS = 24
"""An upload not finished within this time is cancelled and its image deleted."""

ImageLabel = Annotated[str, StringConstraints(min_length=1, max_length=IMAGE_LABEL_MAX)]
ImageDescription = Annotated[str, StringConstraints(min_length=1, max_length=DESCRIPTION_MAX)]


# -- responses ------------------------------------------------------------------------------


class Image(ApiModel):
    """An image instances can be deployed from (only ``available`` ones deploy)."""

    id: str | None = None
    """``compute/...`` for public images, ``private/<n>`` for the account's own."""
    label: str | None = None
    """Label."""
    description: str | None = None
    """Description, 1..65000 characters."""
    status: str | None = None
    """``creating``, ``pending_upload`` or ``available`` (open set)."""
    type: str | None = None
    """``manual`` or ``automatic`` (made when an instance is deleted; these expire)."""
    is_public: bool | None = None
    """True for the provider's images."""
    deprecated: bool | None = None
    """True when a newer image replaces this one."""
    created_by: str | None = None
    """User who made it, or ``compute`` for public images."""
    vendor: str | None = None
    """Distribution vendor (public images)."""
    size: int | None = None
    """Minimum disk size to deploy it, MB."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""
    expiry: str | None = None
    """When an ``automatic`` image is deleted (UTC); None for manual images."""
    eol: str | None = None
    """End of life of the distribution (UTC)."""


class ImageUploadStarted(ApiModel):
    """Answer to an upload request: the new image and where to send its data."""

    image: Image | None = None
    """The new image, ``pending_upload`` until the data arrives and is processed."""
    upload_to: str | None = None
    """URL to PUT the gzip-compressed raw disk image to (within 24 hours)."""


# -- requests -------------------------------------------------------------------------------


class ImageCreate(RequestModel):
    """A private image captured from a disk of one of your instances."""

    disk_id: int
    """Disk to capture (it must belong to an instance you can read)."""
    label: ImageLabel | None = None
    """Label, up to 128 characters (default: the disk's label)."""
    description: ImageDescription | None = None
    """Description, 1 to 65000 characters."""


class ImageUpload(RequestModel):
    """Start uploading a private image (a gzip-compressed raw disk, at most 5 GB)."""

    label: ImageLabel
    """Label, up to 128 characters."""
    region: str
    """Region that receives the upload, for example ``us-east`` (the image then works in
    every region)."""
    description: ImageDescription | None = None
    """Description, 1 to 65000 characters."""


class ImageUpdate(RequestModel):
    """Changes to a private image."""

    label: ImageLabel | None = None
    """Label, up to 128 characters."""
    description: ImageDescription | None = None
    """Description, 1 to 65000 characters; set it empty (null) to remove it."""
