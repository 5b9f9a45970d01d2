"""The facts a chooser shows beside each choice, declared as data, without a terminal.

A :class:`~tui.resources.forms.ChoiceSource` with ``facts`` is offered as a searchable table
(type to filter) instead of a bare list: one row per item, the columns declared here, rows
grouped and ordered as declared, and marks (deprecated, end of life) in the row. The one chooser
widget reads :func:`chooser_rows` and :func:`filter_rows`; nothing here knows about a screen.

Declared here: instance types (class, vCPUs, memory, disk, transfer, network out, price per
month and per hour; grouped by class), regions (id, label, country, capabilities; only those
offering what is being created, see :func:`capability_for`), images (label, vendor, size,
deprecated/EOL marked, private first), kernels, deployment scripts, backups of every
instance, and the account's instances, volumes, disks and configuration profiles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

from tui.resources.format import human_size
from tui.resources.pricing import hourly, money, price_of_instance
from tui.untrusted import Shown, shown

Cell = Callable[[Mapping[str, Any]], str]


def _path(item: Mapping[str, Any], key: str) -> Any:
    node: Any = item
    for part in key.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    return node


def text(key: str) -> Cell:
    """The item's field ``key`` (dotted) as text."""

    def cell(item: Mapping[str, Any]) -> str:
        value = _path(item, key)
        if value is None:
            return ""
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return str(value)

    return cell


def size(key: str, unit: Literal["mb", "gb", "bytes"]) -> Cell:
    """A size field in ``unit`` shown human-readable (``4 GB``)."""

    def cell(item: Mapping[str, Any]) -> str:
        value = _path(item, key)
        return human_size(value, unit) if isinstance(value, int | float) else ""

    return cell


def _monthly(item: Mapping[str, Any]) -> str:
    price = price_of_instance(item)
    return money(price.monthly) if price else "n/a"


def _hourly(item: Mapping[str, Any]) -> str:
    price = price_of_instance(item)
    return hourly(price.hourly) if price else "n/a"


def _network_out(item: Mapping[str, Any]) -> str:
    value = item.get("network_out")
    if not isinstance(value, int | float):
        return ""
    return f"{value / 1000:g} Gbps" if value >= 1000 else f"{value:g} Mbps"


def _capabilities(item: Mapping[str, Any]) -> str:
    # Every region offers compute: the column says what differs.
    shown = {
        "Block Storage": "Vol",
        "Object Storage": "Obj",
        "Kubernetes": "K8s",
        "Managed Databases": "DB",
        "Backups": "Bak",
        "Vlans": "VLAN",
    }
    caps = item.get("capabilities") or []
    return " ".join(short for name, short in shown.items() if name in caps)


def _image_marks(item: Mapping[str, Any]) -> str:
    # Only what should stop a user: deprecated, or past its end of life.
    marks = []
    if item.get("deprecated"):
        marks.append("deprecated")
    eol = item.get("eol")
    if isinstance(eol, str) and eol:
        try:
            ended = datetime.fromisoformat(eol.replace("Z", "+00:00"))
        except ValueError:
            ended = None
        if ended is not None:
            if ended.tzinfo is None:
                ended = ended.replace(tzinfo=UTC)
            if ended <= datetime.now(UTC):
                marks.append(f"EOL {eol[:7]}")
    return ", ".join(marks)


def _private(item: Mapping[str, Any]) -> str:
    return "private" if str(item.get("id", "")).startswith("private/") else "public"


UNAVAILABLE = "_unavailable"
"""Field of a choice that cannot be chosen, holding why (an instance without a private
address, offered as a balancer backend): set by the choice source, read by the facts."""


def _unavailable(item: Mapping[str, Any]) -> str:
    return str(item.get(UNAVAILABLE) or "")


def _ipv4_private(item: Mapping[str, Any]) -> str:
    addresses = item.get("ipv4") or []
    return ", ".join(str(a) for a in addresses if str(a).startswith(("192.168.", "10.")))


@dataclass(frozen=True)
class FactColumn:
    """One column of a chooser.

    Attributes:
        title: Heading.
        cell: The item's cell text.
        width: Widest cell; longer ones are cut with an ellipsis (None: no limit).
        right: Right-aligned (numbers, prices).
    """

    title: str
    cell: Cell
    width: int | None = None
    right: bool = False


@dataclass(frozen=True)
class Facts:
    """How a chooser shows a choice source's items.

    Attributes:
        columns: The columns; one no item has a value for is left out.
        group: The group an item belongs to (shown once, on the group's first row).
        order: Sort key of the items; it keeps each group's items together.
        marks: Warnings shown in the last column ("deprecated").
        offers: Item field listing what a region offers (filtered by :func:`capability_for`).
        refuse: Why an item cannot be chosen whatever the rest of the form holds ('' when it
            can): an instance without a private address is no balancer backend.
    """

    columns: tuple[FactColumn, ...]
    group: Cell | None = None
    order: Callable[[Mapping[str, Any]], Any] | None = None
    marks: Cell | None = None
    offers: str = ""
    refuse: Cell | None = None


@dataclass(frozen=True)
class ChooserRow:
    """One row of a chooser.

    Attributes:
        value: What choosing it sets.
        text: The option's one-line text (shown in the field once chosen).
        cells: Column texts.
        group: Its group ('' when ungrouped).
        search: Lower-case text the filter matches against (every column, group and text).
        refused: Why the API would refuse this choice ('' when it would not): a type too small
            for the instance's disks. The row carries :data:`REFUSED_MARK` in its first fact
            and the reason in its notes.
    """

    value: Any
    text: str
    cells: tuple[str, ...]
    group: str = ""
    search: str = field(default="", repr=False)
    refused: Shown = field(default=shown(""))


def plain_rows(options: Iterable[tuple[str, Any]]) -> tuple[ChooserRow, ...]:
    """One-column rows of ``(text, value)`` options: a chooser without facts."""
    return tuple(ChooserRow(value, text, (text,), "", text.lower()) for text, value in options)


@dataclass(frozen=True)
class ChooserTable:
    """What a chooser shows: headings and rows.

    Attributes:
        titles: Column headings (the group and mark columns included when used).
        right: Per column, whether it is right-aligned.
        rows: The rows, grouped and ordered.
        empty: What the chooser says when there are no rows: why (``no instances in
            ap-northeast``), or ``loading…`` while they are being fetched.
    """

    titles: tuple[str, ...]
    right: tuple[bool, ...]
    rows: tuple[ChooserRow, ...]
    empty: str = "nothing to choose"


REFUSED_MARK = "✗"
"""Leads the first fact of a row the API would refuse: in the columns every width shows (the
notes column, which says why, is the first one a narrow terminal hides)."""

UNREFUSED_PAD = " " * (len(REFUSED_MARK) + 1)
"""What leads the first fact of the other rows of a table with refused ones (kept aligned)."""


def chooser_rows(
    facts: Facts | None,
    items: Iterable[Mapping[str, Any]],
    option: Callable[[Mapping[str, Any]], tuple[str, Any]],
    notes: Cell | None = None,
) -> ChooserTable:
    """The table of ``items`` as ``facts`` declare it.

    A row the API would refuse (the facts' :attr:`Facts.refuse`, or a ``notes`` reason) gets
    :attr:`ChooserRow.refused`, :data:`REFUSED_MARK` before its first fact and its reason in the
    notes column.

    Args:
        facts: Columns, grouping, order and marks (None: one column with the option text).
        items: The accepted items of the choice source.
        option: ``(text, value)`` of an item (the source's own).
        notes: Why an item does not suit the rest of the form (a type too small for the chosen
            backup): refusals, shown after the facts' own marks.
    """
    items = list(items)
    if facts is None and notes is not None:
        facts = Facts(columns=(FactColumn("Choice", lambda item: option(item)[0]),))
    if facts is None:
        return ChooserTable(("Choice",), (False,), plain_rows(option(item) for item in items))
    if facts.order is not None:
        items.sort(key=facts.order)
    # Every cell once (a column no item fills is then left out): one pass over the items.
    every = [[c.cell(item) for c in facts.columns] for item in items]
    refusals = [facts.refuse] if facts.refuse is not None else []
    refusals += [notes] if notes is not None else []
    refused_of = [_joined(item, refusals) for item in items]
    marks_of = [_joined(item, [facts.marks] if facts.marks is not None else []) for item in items]
    notes_of = [", ".join(n for n in pair if n) for pair in zip(marks_of, refused_of, strict=True)]
    any_refused = any(refused_of)
    kept = [k for k in range(len(facts.columns)) if any(cells[k] for cells in every)]
    kept = kept or list(range(len(facts.columns)))
    columns = [facts.columns[k] for k in kept]
    with_marks = any(notes_of)
    grouped = facts.group is not None
    titles = [""] * grouped + [c.title for c in columns] + ["Notes"] * with_marks
    right = [False] * grouped + [c.right for c in columns] + [False] * with_marks
    rows = []
    for index, item in enumerate(items):
        label, value = option(item)
        full = [every[index][k] for k in kept]
        group = facts.group(item) if facts.group is not None else ""
        note = notes_of[index] if with_marks else ""
        refused = refused_of[index]
        facts_cells = [_fit(cell, c.width) for cell, c in zip(full, columns, strict=True)]
        if any_refused and facts_cells:
            lead = f"{REFUSED_MARK} " if refused else UNREFUSED_PAD
            facts_cells[0] = lead + facts_cells[0]
        cells = [group] * grouped + facts_cells + [note] * with_marks
        search = " ".join([label, group, *full, note]).lower()
        rows.append(ChooserRow(value, label, tuple(cells), group, search, refused))
    return ChooserTable(tuple(titles), tuple(right), tuple(rows))


def _joined(item: Mapping[str, Any], cells: Sequence[Cell]) -> Shown:
    """The texts the ``cells`` give ``item``, comma-separated, as display text."""
    return shown(", ".join(text for text in (cell(item) for cell in cells) if text))


def mark_row(table: ChooserTable, value: Any, suffix: str = " *") -> ChooserTable:
    """``table`` with ``suffix`` after the first fact of the row of ``value`` (the current one)."""
    column = 1 if table.titles[:1] == ("",) else 0
    rows = tuple(
        replace(
            row, cells=(*row.cells[:column], row.cells[column] + suffix, *row.cells[column + 1 :])
        )
        if row.value == value and len(row.cells) > column
        else row
        for row in table.rows
    )
    return replace(table, rows=rows)


def _fit(cell: str, width: int | None) -> str:
    """``cell`` cut to ``width`` columns with an ellipsis (the filter still sees all of it)."""
    if width is None or len(cell) <= width:
        return cell
    return cell[: max(width - 1, 0)] + "…"


def filter_rows(rows: Sequence[ChooserRow], query: str) -> list[ChooserRow]:
    """The rows matching every word of ``query`` (case-insensitive, anywhere in the row)."""
    words = query.lower().split()
    if not words:
        return list(rows)
    return [row for row in rows if all(word in row.search for word in words)]


def shown_cells(rows: Sequence[ChooserRow], grouped: bool) -> list[tuple[Shown, ...]]:
    """Cells to draw: a group's name only on its first row among ``rows`` (after filtering);
    display text (cells quote labels and other values of the API)."""
    out: list[tuple[Shown, ...]] = []
    previous: str | None = None
    for row in rows:
        cells = row.cells
        if grouped:
            cells = (row.group if row.group != previous else "", *cells[1:])
            previous = row.group
        out.append(tuple(shown(cell) for cell in cells))
    return out


CLASS_ORDER = ("nanode", "standard", "dedicated", "highmem", "premium", "gpu")


def _class_key(item: Mapping[str, Any]) -> str:
    name = str(item.get("class") or "")
    index = CLASS_ORDER.index(name) if name in CLASS_ORDER else len(CLASS_ORDER)
    return f"{index:02d} {name}"


def _class_name(item: Mapping[str, Any]) -> str:
    return str(item.get("class") or "other")


def _price_key(item: Mapping[str, Any]) -> tuple[float, str]:
    price = price_of_instance(item)
    return (price.monthly if price else float("inf"), str(item.get("id")))


TYPE_FACTS = Facts(
    columns=(
        FactColumn("Type", text("id")),
        FactColumn("vCPU", text("vcpus"), right=True),
        FactColumn("RAM", size("memory", "mb"), right=True),
        FactColumn("Disk", size("disk", "mb"), right=True),
        FactColumn("Transfer", size("transfer", "gb"), right=True),
        FactColumn("Net out", _network_out, right=True),
        FactColumn("$/month", _monthly, right=True),
        FactColumn("$/hour", _hourly, right=True),
    ),
    group=_class_name,
    order=lambda i: (_class_key(i), _price_key(i)),
)
"""Instance types, grouped by class (smallest class first), cheapest first in a class."""

REGION_FACTS = Facts(
    columns=(
        FactColumn("Region", text("id")),
        FactColumn("Label", text("label")),
        FactColumn("Country", lambda i: str(i.get("country") or "").upper()),
        FactColumn("Offers", _capabilities),
    ),
    order=lambda i: (str(i.get("country") or ""), str(i.get("id") or "")),
    marks=lambda i: "outage" if i.get("status") == "outage" else "",
    offers="capabilities",
)

IMAGE_FACTS = Facts(
    columns=(
        FactColumn("Image", text("label")),
        FactColumn("Vendor", text("vendor")),
        FactColumn("Size", size("size", "mb"), right=True),
        FactColumn("Id", text("id")),
    ),
    group=_private,
    order=lambda i: (
        _private(i) != "private",
        bool(i.get("deprecated")),
        str(i.get("vendor") or ""),
        str(i.get("label") or ""),
    ),
    marks=_image_marks,
)
"""Images: the account's private ones first, deprecated ones last in each group."""

KERNEL_FACTS = Facts(
    columns=(
        FactColumn("Kernel", text("id")),
        FactColumn("Version", text("version")),
        FactColumn("Arch", text("architecture")),
        FactColumn("Built", lambda i: str(i.get("built") or "")[:10]),
    ),
    order=lambda i: (bool(i.get("deprecated")), str(i.get("id") or "")),
    marks=lambda i: "deprecated" if i.get("deprecated") else "",
)

SCRIPT_FACTS = Facts(
    columns=(
        FactColumn("Script", text("label")),
        FactColumn("Images", text("images"), width=30),
        FactColumn("Owner", text("username")),
        FactColumn("Id", text("id"), right=True),
    ),
    group=lambda i: "public" if i.get("is_public") else "mine",
    order=lambda i: (bool(i.get("is_public")), str(i.get("label") or "").lower()),
)

INSTANCE_FACTS = Facts(
    columns=(
        FactColumn("Instance", text("label")),
        FactColumn("Status", text("status")),
        FactColumn("Region", text("region")),
        FactColumn("Type", text("type")),
        FactColumn("Private IPv4", _ipv4_private),
        FactColumn("Id", text("id"), right=True),
    ),
    order=lambda i: str(i.get("label") or "").lower(),
)

PRIVATE_ADDRESS_FACTS = Facts(
    columns=(
        FactColumn("Address", text("each")),
        FactColumn("Instance", text("label")),
        FactColumn("Region", text("region")),
        FactColumn("Status", text("status")),
        FactColumn("Id", text("id"), right=True),
    ),
    order=lambda i: (bool(i.get(UNAVAILABLE)), str(i.get("label") or "").lower()),
    refuse=_unavailable,
)
"""A balancer backend: one row per private address of an instance; instances without one
come last, refused, saying why."""

VOLUME_FACTS = Facts(
    columns=(
        FactColumn("Volume", text("label")),
        FactColumn("Size", size("size", "gb"), right=True),
        FactColumn("Region", text("region")),
        FactColumn("Status", text("status")),
        FactColumn("Id", text("id"), right=True),
    ),
)

DISK_FACTS = Facts(
    columns=(
        FactColumn("Disk", text("label")),
        FactColumn("Size", size("size", "mb"), right=True),
        FactColumn("Filesystem", text("filesystem")),
        FactColumn("Status", text("status")),
        FactColumn("Id", text("id"), right=True),
    ),
)

CONFIG_FACTS = Facts(
    columns=(
        FactColumn("Profile", text("label")),
        FactColumn("Kernel", text("kernel")),
        FactColumn("Run level", text("run_level")),
        FactColumn("Id", text("id"), right=True),
    ),
)


def backup_size(item: Mapping[str, Any]) -> int:
    """Megabytes of disk a backup's disks need (what a new instance from it must hold)."""
    disks = item.get("disks")
    return (
        sum(int(d.get("size") or 0) for d in disks or [] if isinstance(d, Mapping))
        if isinstance(disks, list)
        else 0
    )


def _backup_size(item: Mapping[str, Any]) -> str:
    needed = backup_size(item)
    return human_size(needed, "mb") if needed else ""


def _backup_date(item: Mapping[str, Any]) -> str:
    when = str(item.get("finished") or item.get("created") or "")
    return when[:16].replace("T", " ")


BACKUP_FACTS = Facts(
    columns=(
        FactColumn("Instance", text("instance"), width=20),
        FactColumn("Label", text("label"), width=24),
        FactColumn("Kind", text("type")),
        FactColumn("Date (UTC)", _backup_date),
        FactColumn("Size", _backup_size, right=True),
        FactColumn("Status", text("status")),
        FactColumn("Id", text("id"), right=True),
    ),
    order=lambda i: (str(i.get("instance") or "").lower(), _backup_date(i)),
    marks=lambda i: "" if i.get("available") else "not restorable yet",
)
"""Backups of every instance (the source instance's label is kept as ``instance``)."""


@dataclass(frozen=True)
class Across:
    """Choices gathered from each item of another listing: the backups of every instance.

    Attributes:
        endpoint: The listing of the parents (``compute.instances.list``).
        params: Path parameter of the choices' listing -> parent field (``computeId: id``).
        where: ``(field, value)`` a parent must match to be asked (backups enabled).
        keep: Name in each choice -> parent field copied into it (``instance: label``).
        limit: Most parents asked (one request each).
    """

    endpoint: str
    params: Mapping[str, str]
    where: tuple[str, Any] | None = None
    keep: Mapping[str, str] = field(default_factory=dict)
    limit: int = 200


CAPABILITY_BY_AREA: Mapping[str, str] = {
    "compute.instances.create": "Compute",
    "volumes.": "Block Storage",
    "k8s.clusters.create": "Kubernetes",
    "databases.": "Managed Databases",
    "object_storage.": "Object Storage",
}
"""Operation (or name prefix ending in a dot) -> the region capability it needs."""


def capability_for(endpoint: str) -> str | None:
    """The capability a region must offer for the operation ``endpoint`` (None: any region)."""
    for prefix, capability in CAPABILITY_BY_AREA.items():
        if endpoint == prefix or (prefix.endswith(".") and endpoint.startswith(prefix)):
            return capability
    return None


def offers(facts: Facts | None, item: Mapping[str, Any], capability: str | None) -> bool:
    """True when ``item`` offers ``capability`` (or the facts do not list offers)."""
    if facts is None or not facts.offers or capability is None:
        return True
    listed = item.get(facts.offers)
    return not isinstance(listed, list) or capability in listed
