"""Marking rows of the resource table: one row, every shown row, none, or a given set.

A mixin of :class:`~widgets.resource_table.ResourceTable` (its keys are bound there); every
change posts ``MarksChanged`` so the list can say "3 marked" and offer its bulk actions.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from widgets.table_messages import MarksChanged

if TYPE_CHECKING:
    from tui.resources.rows import RowView


class TableMarks:
    """Mark handling of the resource table (needs its ``_data`` row view and cursor)."""

    _data: RowView

    @property
    def marked(self) -> frozenset[Hashable]:
        """Keys of the marked rows."""
        return frozenset(self._data.marked)

    def set_marks(self, keys: Iterable[Hashable]) -> None:
        """Mark exactly ``keys`` (a bulk action leaves its failed items marked)."""
        self._data.set_marks(keys)
        self._marks_changed()

    def action_mark(self) -> None:
        """Mark or unmark the row under the cursor and move down."""
        table: Any = self
        key = table.cursor_key
        if key is None:
            return
        self._data.toggle_mark(key)
        self._marks_changed()
        table.action_cursor(1)

    def action_mark_all(self) -> None:
        """Mark every shown row (rows the filter hides stay as they were)."""
        self._data.mark_shown()
        self._marks_changed()

    def action_clear_marks(self) -> None:
        """Unmark every row."""
        self._data.set_marks(())
        self._marks_changed()

    def _marks_changed(self) -> None:
        table: Any = self
        table.refresh()
        table.post_message(MarksChanged(table, len(self._data.marked)))
