"""The commands that make a volume usable on its instance, and grow it after a resize."""

from __future__ import annotations

from tui.resources.derived import derived
from tui.resources.format import display
from tui.resources.volume_use import fstab_line, grow_commands, mount_point, use_commands

VOLUME = {
    "id": 5,
    "label": "media-1",
    "filesystem_path": "/dev/disk/by-id/scsi-0Volume_media-1",
    "compute_id": 9,
}


def test_a_new_volume_gets_a_filesystem_a_mount_and_an_fstab_line() -> None:
    lines = use_commands(VOLUME, new=True).splitlines()
    assert lines == [
        "mkfs.ext4 /dev/disk/by-id/scsi-0Volume_media-1",
        "mkdir -p /mnt/media-1",
        "mount /dev/disk/by-id/scsi-0Volume_media-1 /mnt/media-1",
        "echo '/dev/disk/by-id/scsi-0Volume_media-1 /mnt/media-1 ext4 defaults,noatime,nofail"
        " 0 2' >> /etc/fstab",
    ]


def test_an_existing_volume_says_mkfs_is_only_for_an_empty_one() -> None:
    text = use_commands(VOLUME)
    assert text.startswith("# only if the volume is new and empty (this erases it):\nmkfs.ext4")


def test_the_fstab_line_uses_the_stable_device_path_and_nofail() -> None:
    assert fstab_line(VOLUME).startswith("/dev/disk/by-id/scsi-0Volume_media-1 /mnt/media-1 ")
    assert "nofail" in fstab_line(VOLUME)
    assert mount_point({"label": "../etc"}) == "/mnt/etc"  # never outside /mnt


def test_growing_names_resize2fs_on_the_device() -> None:
    assert "resize2fs /dev/disk/by-id/scsi-0Volume_media-1" in grow_commands(VOLUME)


def test_derived_values_are_shown_like_fields() -> None:
    assert derived(VOLUME, "@volume_use") == use_commands(VOLUME)
    assert "once it is attached" in (
        derived({**VOLUME, "compute_id": None}, "@volume_use_new") or ""
    )
    assert display(VOLUME, "@volume_use", "block").endswith(">> /etc/fstab")
    assert derived({}, "@volume_use") is None and derived(VOLUME, "@nothing") is None
