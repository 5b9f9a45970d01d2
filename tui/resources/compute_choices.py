"""The choices of the instance resize and rescue dialogs, without a terminal.

Resize shows each type with its specs and price, and marks the types too small for the disks
the instance has (the resize choice source's fits, :data:`~tui.resources.choice_fits.
RESIZE_FITS`); rescue maps the instance's disks and volumes to ``sda`` .. ``sdg`` (``sdh`` is
reserved for the rescue system, per the reference).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tui.resources.choice_fits import DISKS_USED, fit_note
from tui.resources.choosers import ChooserRow, ChooserTable, chooser_rows, mark_row
from tui.resources.format import human_size
from tui.resources.forms import CHOICE_SOURCES
from tui.untrusted import Shown, shown

RESCUE_DEVICES = ("sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg")
RESERVED_DEVICE = "sdh"


def type_line(kind: Mapping[str, Any], *, with_id: bool = True, compact: bool = False) -> Shown:
    """One instance type in a line: id, vCPUs, memory, disk, transfer, monthly price, name.

    Memory and disk are in MB in the API; shown in GB. ``compact`` (narrow terminals) leaves out
    the transfer quota and the type's name, which repeats its specs, so a line and a
    "(current)" mark fit in the 70 columns an 80-column dialog's list has.
    """
    parts: list[str] = []
    if with_id:
        parts.append(f"{kind.get('id', '')!s:<{10 if compact else 14}}")
    vcpus = kind.get("vcpus")
    memory = kind.get("memory")
    disk = kind.get("disk")
    transfer = kind.get("transfer")
    if isinstance(vcpus, int):
        parts.append(f"{vcpus:>2} vCPU")
    width = 6 if compact else 8  # columns of the RAM figure ("512 GB", "1.5 TB")
    if isinstance(memory, int | float):
        parts.append(f"{human_size(memory, 'mb'):>{width}} RAM")
    if isinstance(disk, int | float):
        parts.append(f"{human_size(disk, 'mb'):>{7 if compact else 8}} disk")
    if isinstance(transfer, int | float) and not compact:
        parts.append(f"{human_size(transfer, 'gb')} transfer")
    price = kind.get("price")
    if isinstance(price, Mapping) and isinstance(price.get("monthly"), int | float):
        parts.append(f"${price['monthly']:,.2f}/{'mo' if compact else 'month'}")
    label = kind.get("label")
    if with_id and label and not compact:
        parts.append(f"— {label}")
    return shown("  ".join(parts))


RESIZE_SOURCE = "resize_type"
"""The choice source of a resize's ``type`` (``ResizeRequest.choices_from``)."""


def disks_used(disks: Sequence[Mapping[str, Any]]) -> int:
    """Megabytes the instance's disks take (what a type it is resized to must hold)."""
    return sum(
        int(size)
        for d in disks
        if isinstance(size := d.get("size"), int | float) and not isinstance(size, bool)
    )


def resize_table(
    types: Sequence[Mapping[str, Any]],
    disks: Sequence[Mapping[str, Any]],
    current: str,
) -> ChooserTable:
    """The resize chooser: every type with its facts, those too small for ``disks`` marked
    and refused (:attr:`~tui.resources.choosers.ChooserRow.refused`), ``current`` marked ``*``.

    Args:
        types: The types listing.
        disks: The instance's disks listing.
        current: The instance's type.
    """
    source = CHOICE_SOURCES[RESIZE_SOURCE]
    used = disks_used(disks)

    def lookup(name: str) -> tuple[Any, Mapping[str, Any] | None]:
        return (used, None) if name == DISKS_USED else (None, None)

    table = chooser_rows(
        source.facts, types, source.option, lambda kind: fit_note(source.fits, kind, lookup)
    )
    return mark_row(table, current)


def resize_refusal(row: ChooserRow | None, current: str) -> Shown:
    """Why resizing to ``row``'s type is refused before it is sent ('' when it is not)."""
    if row is None:
        return shown("Choose a type first.")
    if row.value == current:
        return shown(f"The instance already is a {current}; choose another type.")
    if row.refused:
        return shown(f"{row.value}: {row.refused}")
    return shown("")


@dataclass(frozen=True)
class DeviceChoice:
    """A disk or volume that can be mapped to a device.

    Attributes:
        value: ``disk:<id>`` or ``volume:<id>``.
        text: What the list shows.
    """

    value: str
    text: Shown


def device_choices(
    disks: Sequence[Mapping[str, Any]], volumes: Sequence[Mapping[str, Any]]
) -> list[DeviceChoice]:
    """Every disk, then every volume, of the instance as device choices."""
    out = [
        DeviceChoice(f"disk:{d.get('id')}", shown(f"disk {d.get('label', '')} (#{d.get('id')})"))
        for d in disks
        if d.get("id") is not None
    ]
    out += [
        DeviceChoice(
            f"volume:{v.get('id')}", shown(f"volume {v.get('label', '')} (#{v.get('id')})")
        )
        for v in volumes
        if v.get("id") is not None
    ]
    return out


def default_rescue_map(choices: Sequence[DeviceChoice]) -> dict[str, str]:
    """The disks in order on ``sda``, ``sdb`` ... (volumes left for the user to add)."""
    disks = [c.value for c in choices if c.value.startswith("disk:")]
    return dict(zip(RESCUE_DEVICES, disks, strict=False))


def rescue_body(chosen: Mapping[str, str | None]) -> tuple[dict[str, Any] | None, str]:
    """The rescue request for a device -> choice map.

    Returns:
        ``(body, "")``, or ``(None, problem)`` when a disk is mapped twice or nothing is mapped.
    """
    devices: dict[str, dict[str, int]] = {}
    seen: dict[str, str] = {}
    for device, value in chosen.items():
        if device == RESERVED_DEVICE:
            return None, f"{RESERVED_DEVICE} is reserved for the rescue system"
        if not value:
            continue
        if value in seen:
            return None, f"{device} and {seen[value]} name the same {value.split(':')[0]}"
        seen[value] = device
        kind, _, raw_id = value.partition(":")
        devices[device] = {f"{kind}_id": int(raw_id)}
    if not devices:
        return None, "Map at least one disk to a device."
    return {"devices": devices}, ""
