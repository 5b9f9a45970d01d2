"""The commands that make a volume usable on its instance, and grow it after a resize (headless).

A volume shows up on its instance as a block device at ``filesystem_path``
(``/dev/disk/by-id/scsi-0Volume_<label>``, which follows renames). To use it the user makes a
filesystem on it once (only when it is new: this erases it), mounts it, and adds an fstab line
so it is mounted again at boot (``nofail``: the instance still boots without it). After a resize
the block device is larger but the filesystem is not: it must be grown on the instance.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any

FILESYSTEM = "ext4"
"""The filesystem the commands make (the common choice; ``resize2fs`` grows it online)."""

PATH_PREFIX = "/dev/disk/by-id/scsi-0Volume_"
"""Where a volume appears on its instance when the API leaves ``filesystem_path`` out."""


def device_path(volume: Mapping[str, Any]) -> str:
    """The volume's block device on its instance."""
    path = volume.get("filesystem_path")
    return str(path) if path else f"{PATH_PREFIX}{volume.get('label') or ''}"


def mount_point(volume: Mapping[str, Any]) -> str:
    """Where the commands mount it: ``/mnt/<label>`` (only path-safe characters kept)."""
    label = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(volume.get("label") or "")).strip(".-")
    return f"/mnt/{label or 'volume'}"


def fstab_line(volume: Mapping[str, Any]) -> str:
    """The ``/etc/fstab`` line that mounts it at boot, by its stable device path."""
    return f"{device_path(volume)} {mount_point(volume)} {FILESYSTEM} defaults,noatime,nofail 0 2"


def use_commands(volume: Mapping[str, Any], *, new: bool = False) -> str:
    """Shell commands (run as root on the instance) that make the volume usable.

    Args:
        volume: The volume record.
        new: The volume was just created, so it has no filesystem yet; otherwise the
            ``mkfs`` line says it is only for an empty volume.
    """
    device = shlex.quote(device_path(volume))
    where = shlex.quote(mount_point(volume))
    mkfs = f"mkfs.{FILESYSTEM} {device}"
    lines = [
        mkfs if new else f"# only if the volume is new and empty (this erases it):\n{mkfs}",
        f"mkdir -p {where}",
        f"mount {device} {where}",
        f"echo {shlex.quote(fstab_line(volume))} >> /etc/fstab",
    ]
    return "\n".join(lines)


def new_volume_commands(volume: Mapping[str, Any]) -> str:
    """The commands for a volume just created (a filesystem made first)."""
    commands = use_commands(volume, new=True)
    if volume.get("compute_id") in (None, ""):
        return f"# once it is attached to an instance (a), run there as root:\n{commands}"
    return commands


def grow_commands(volume: Mapping[str, Any]) -> str:
    """What to run once a resize has finished: the filesystem is not grown with the volume."""
    return (
        "# The volume is larger once the resize finishes; its filesystem is not.\n"
        "# Grow it on the instance, as root (ext4: online, while mounted):\n"
        f"resize2fs {shlex.quote(device_path(volume))}\n"
        f"# xfs instead: xfs_growfs {shlex.quote(mount_point(volume))}"
    )
