"""Choices that do not suit what another input holds, marked in the chooser (headless).

A :class:`~tui.resources.forms.ChoiceSource` lists its :class:`Fit` rules: each names another
input of the same form and says, for one candidate item, why it does not suit that input's
value (and the item chosen there, when the input is a chooser). The chooser shows the reason
in the row's notes; the form shows it under the input once such a choice is made. Nothing is
hidden: the user sees every choice and why some will be refused.

Declared here: an instance type too small for the chosen backup or image, or (resizing) for the
disks the instance has; a deployment script that does not support the chosen image (the reason
names the images it runs on); an image the chosen script does not support.

Every reason is display text (:func:`~tui.untrusted.shown`): it quotes image ids from the API.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.resources.choosers import backup_size
from tui.resources.format import human_size
from tui.untrusted import Shown, shown

ANY_IMAGE = "any/all"
"""A deployment script's image entry that means every image."""

IMAGES_NAMED = 3
"""Images a script's reason names before "and N more" (the notes column stays one line)."""

Check = Callable[[Mapping[str, Any], Any, Mapping[str, Any] | None], str]
"""``(candidate item, the other input's value, the item chosen there or None) -> reason``
('' when the candidate suits it)."""

Lookup = Callable[[str], tuple[Any, Mapping[str, Any] | None]]
"""Input name -> its value (None when empty) and the item chosen there (None: not known)."""


@dataclass(frozen=True)
class Fit:
    """A rule marking choices that do not suit another input.

    Attributes:
        field: The other input (``backup_id``).
        check: Why a candidate does not suit it ('' when it does).
    """

    field: str
    check: Check


def fit_note(fits: Iterable[Fit], item: Mapping[str, Any], lookup: Lookup) -> str:
    """Every reason ``item`` does not suit the form as filled in ('' when it suits)."""
    reasons = []
    for fit in fits:
        value, chosen = lookup(fit.field)
        if value in (None, ""):
            continue
        reason = fit.check(item, value, chosen)
        if reason:
            reasons.append(reason)
    return "; ".join(reasons)


def _disk_of(kind: Mapping[str, Any]) -> int | None:
    disk = kind.get("disk")
    return disk if isinstance(disk, int) and not isinstance(disk, bool) else None


def room_for_backup(kind: Mapping[str, Any], _value: Any, backup: Mapping[str, Any] | None) -> str:
    """A type whose disk cannot hold the chosen backup's disks."""
    disk = _disk_of(kind)
    needed = backup_size(backup) if backup is not None else 0
    if disk is None or not needed or disk >= needed:
        return ""
    return f"too small: backup needs {human_size(needed, 'mb')}"


def room_for_image(kind: Mapping[str, Any], _value: Any, image: Mapping[str, Any] | None) -> str:
    """A type whose disk is smaller than the chosen image's minimum."""
    disk = _disk_of(kind)
    size = image.get("size") if image is not None else None
    if disk is None or not isinstance(size, int) or disk >= size:
        return ""
    return f"too small: image needs {human_size(size, 'mb')}"


def _supports(script: Mapping[str, Any], image: Any) -> bool:
    images = script.get("images")
    if not isinstance(images, list):
        return True  # not said: the server decides
    return ANY_IMAGE in images or image in images


def room_for_disks(kind: Mapping[str, Any], used: Any, _chosen: Any) -> str:
    """A type whose disk is smaller than the megabytes the instance's disks take (``used``).

    The reference refuses such a resize whether or not disks may be resized automatically:
    "the instance must not have more disk allocated than the new type allows (delete or
    shrink the disk first)".
    """
    disk = _disk_of(kind)
    if disk is None or not isinstance(used, int) or isinstance(used, bool) or disk >= used:
        return ""
    return f"too small: the disks use {human_size(used, 'mb')} (shrink or delete one first)"


def _image_list(images: list[Any]) -> str:
    named = ", ".join(str(i) for i in images[:IMAGES_NAMED])
    more = len(images) - IMAGES_NAMED
    return f"{named} and {more} more" if more > 0 else named


def script_takes_image(script: Mapping[str, Any], image: Any, _chosen: Any) -> Shown:
    """A deployment script that does not list the chosen image: the reason names the ones it
    does (``not for compute/debian12: runs on compute/alpine3``)."""
    if _supports(script, image):
        return shown("")
    images = script.get("images")
    listed = _image_list(images) if isinstance(images, list) and images else "no image"
    return shown(f"not for {image}: runs on {listed}")


def image_in_script(image: Mapping[str, Any], _value: Any, script: Mapping[str, Any] | None) -> str:
    """An image the chosen deployment script does not list."""
    if script is None or _supports(script, image.get("id")):
        return ""
    return "not in the chosen script"


TYPE_FITS = (Fit("backup_id", room_for_backup), Fit("image", room_for_image))
"""An instance type must hold the backup restored into it or the image deployed on it."""

SCRIPT_FITS = (Fit("image", script_takes_image),)
"""A deployment script runs only on the images it lists."""

IMAGE_FITS = (Fit("stackscript_id", image_in_script),)
"""With a deployment script chosen first, the images it does not list are marked."""

DISKS_USED = "disks_used"
"""What :data:`RESIZE_FITS` compare a type with: megabytes the instance's disks take (not an
input of a form: the resize dialog knows it from the instance's disks listing)."""

RESIZE_FITS = (Fit(DISKS_USED, room_for_disks),)
"""A type an instance is resized to must hold the disks it has."""
