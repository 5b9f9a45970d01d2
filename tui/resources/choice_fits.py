"""Choices that do not suit what another input holds, marked in the chooser (headless).

A :class:`~tui.resources.forms.ChoiceSource` lists its :class:`Fit` rules: each names another
input of the same form and says, for one candidate item, why it does not suit that input's
value (and the item chosen there, when the input is a chooser). The chooser shows the reason
in the row's notes; the form shows it under the input once such a choice is made. Nothing is
hidden: the user sees every choice and why some will be refused.

Declared here: an instance type too small for the chosen backup or image; a deployment script
that does not support the chosen image; an image the chosen script does not support.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tui.resources.choosers import backup_size
from tui.resources.format import human_size

ANY_IMAGE = "any/all"
"""A deployment script's image entry that means every image."""

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


def script_takes_image(script: Mapping[str, Any], image: Any, _chosen: Any) -> str:
    """A deployment script that does not list the chosen image."""
    return "" if _supports(script, image) else f"not for {image}"


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
