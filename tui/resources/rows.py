"""Table rows of a resource list, and the filtered, sorted view over them (headless).

A list pane turns API items into :class:`TableRow` values here, and the virtual table widget
keeps them in a :class:`RowView`: the rows by key, their server order, the marked keys and the
shown (filtered, sorted) keys. Everything here is plain Python, so the costly parts of a 10,000
row refresh are testable and measurable without a screen.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tui.resources.format import column_cells, column_sort_keys, search_text, status_tone
from tui.resources.spec import ResourceSpec
from tui.untrusted import Shown


@dataclass(frozen=True)
class TableColumn:
    """One column.

    Attributes:
        title: Header text.
        width: Fixed width, or None to size from a sample of rows.
        status: Cells are status badges, coloured by the row's tone.
        numeric: Right-align the cells.
    """

    title: Shown
    width: int | None = None
    status: bool = False
    numeric: bool = False


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row, already formatted.

    Attributes:
        key: Unique key (the resource id).
        cells: Display text per column.
        sort_keys: Sort key per column.
        tone: Tone of the status badge (``ok``, ``busy``, ``warn``, ``error``, ``muted``).
        haystack: Lower-cased text the filter matches.
    """

    key: Hashable
    cells: tuple[Shown, ...]
    sort_keys: tuple[Any, ...] = ()
    tone: str | None = None
    haystack: str = ""


def table_columns(spec: ResourceSpec) -> list[TableColumn]:
    """Table columns of a spec."""
    return [
        TableColumn(
            c.title,
            c.width,
            status=c.kind == "status",
            numeric=c.kind in ("int", "bytes", "mb", "gb"),
        )
        for c in spec.columns
    ]


def item_key_of(spec: ResourceSpec) -> Callable[[Mapping[str, Any]], Hashable]:
    """``spec.item_key`` as a fast function for plain (undotted) id and label fields.

    A refresh keys every item of the list (10,000 calls); the generic path through ``dig``
    costs about 2.5 µs a call, this one well under 1. Same result for every dict item.
    """
    id_field, label_field = spec.id_field, spec.label_field
    if "." in id_field or "." in label_field:
        return spec.item_key

    def key(item: Mapping[str, Any]) -> Hashable:
        if type(item) is not dict:
            return spec.item_key(item)
        value = item.get(id_field)
        return str(item.get(label_field) if value is None else value)

    return key


def table_row(spec: ResourceSpec, item: Mapping[str, Any]) -> TableRow:
    """One formatted table row of ``item``."""
    cells = column_cells(spec, item)
    status = spec.status_of(item)
    return TableRow(
        spec.item_key(item),
        cells,
        column_sort_keys(spec, item),
        status_tone(status, spec.transitional) if status is not None else None,
        search_text(cells),
    )


class RowView:
    """Rows by key in server order, the marked keys, and the shown (filtered, sorted) keys.

    Every method that changes what is shown returns True when it did, so the widget repaints
    only then.
    """

    def __init__(self) -> None:
        self.rows: dict[Hashable, TableRow] = {}
        self.order: list[Hashable] = []
        """Every key, in server order."""
        self.view: list[Hashable] = []
        """Keys of the shown rows, in display order."""
        self.marked: set[Hashable] = set()
        self.filter = ""
        self.predicate: Callable[[TableRow], bool] | None = None
        self.sort_column: int | None = None
        self.sort_reverse = False

    def clear(self) -> None:
        """Forget every row."""
        self.rows.clear()
        self.order.clear()
        self.view.clear()
        self.marked.clear()

    def append(self, rows: Iterable[TableRow]) -> None:
        """Add rows at the end (pages streaming in); an existing key is updated in place."""
        new: list[Hashable] = []
        for row in rows:
            if row.key not in self.rows:
                self.order.append(row.key)
                new.append(row.key)
            self.rows[row.key] = row
        if self.sort_column is None and len(new) == len(self.order) - len(self.view):
            # Unsorted and nothing hidden before: extend the view without rebuilding it.
            self.view.extend(k for k in new if self.matches(self.rows[k]))
        else:
            self.rebuild()

    def update(self, order: Sequence[Hashable], upserts: Iterable[TableRow] = ()) -> bool:
        """Apply a refresh: the full key order plus the rows that were added or changed.

        Rows whose key is not in ``order`` are removed (and unmarked).

        Returns:
            False when nothing changed (the view is then left as it was).
        """
        changed = False
        for row in upserts:
            if self.rows.get(row.key) != row:
                self.rows[row.key] = row
                changed = True
        order = list(order)
        if order != self.order:
            keep = set(order)
            for key in [k for k in self.rows if k not in keep]:
                del self.rows[key]
            self.marked &= keep
            self.order = order
            changed = True
        if changed:
            self.rebuild()
        return changed

    def set_filter(self, text: str) -> bool:
        """Show only rows containing ``text`` (case-insensitive, any column)."""
        text = text.lower()
        if text == self.filter:
            return False
        self.filter = text
        self.rebuild()
        return True

    def set_predicate(self, predicate: Callable[[TableRow], bool] | None) -> None:
        """An extra row filter (quick filters such as the kernel architecture)."""
        self.predicate = predicate
        self.rebuild()

    def set_sort(self, column: int | None, reverse: bool) -> None:
        """Sort by a column index (None: server order)."""
        self.sort_column = column
        self.sort_reverse = reverse
        self.rebuild()

    def toggle_mark(self, key: Hashable) -> None:
        """Mark the row with ``key``, or unmark it."""
        self.marked.symmetric_difference_update({key})

    def mark_shown(self) -> int:
        """Mark every shown row (after the filter); returns how many were newly marked."""
        before = len(self.marked)
        self.marked.update(self.view)
        return len(self.marked) - before

    def set_marks(self, keys: Iterable[Hashable]) -> None:
        """Mark exactly ``keys`` (those still held; the others are ignored)."""
        self.marked = {k for k in keys if k in self.rows}

    def matches(self, row: TableRow) -> bool:
        """True when the filter and the predicate let ``row`` through."""
        if self.predicate is not None and not self.predicate(row):
            return False
        return not self.filter or self.filter in row.haystack

    def rebuild(self) -> None:
        """Recompute the shown keys from the rows, the filters and the sort."""
        rows = self.rows
        text = self.filter
        if self.predicate is None and text:
            # The common case inlined (no call per row): about 2 ms for 10,000 rows, not 12.
            view = [k for k in self.order if text in rows[k].haystack]
        elif self.filter or self.predicate is not None:
            view = [k for k in self.order if self.matches(rows[k])]
        else:
            view = list(self.order)
        column = self.sort_column
        if column is not None:
            view.sort(key=lambda k: rows[k].sort_keys[column], reverse=self.sort_reverse)
        self.view = view
