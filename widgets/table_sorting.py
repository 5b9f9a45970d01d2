"""Sorting the resource table by key or by clicking its header, and clicking rows.

A mixin of :class:`~widgets.resource_table.ResourceTable` (its keys are bound there).
"""

from __future__ import annotations

from typing import Any

from textual import events

from widgets.table_layout import column_at


class TableSorting:
    """Sort keys and mouse clicks of the resource table."""

    def action_sort(self) -> None:
        """Sort by the next column (after the last one: back to server order)."""
        table: Any = self
        if not table._columns:
            return
        column = table._data.sort_column
        column = (
            0 if column is None else (None if column + 1 >= len(table._columns) else column + 1)
        )
        table.sort_by(column, False)

    def action_sort_reverse(self) -> None:
        """Flip the sort direction (sorting by the first column when unsorted)."""
        table: Any = self
        column = 0 if table._data.sort_column is None else table._data.sort_column
        if table._columns:
            table.sort_by(
                column,
                not table._data.sort_reverse if table._data.sort_column is not None else True,
            )

    async def _on_click(self, event: events.Click) -> None:
        table: Any = self
        offset = event.get_content_offset(table)
        if offset is None:
            return
        if offset.y == 0:
            column = column_at(table._widths, offset.x + round(table.scroll_x))
            if column is not None:
                reverse = column == table._data.sort_column and not table._data.sort_reverse
                table.sort_by(column, reverse)
            return
        index = round(table.scroll_y) + offset.y - 1
        if 0 <= index < len(table._data.view):
            already = index == table.cursor_row
            table._set_cursor(index, announce=not already)
            if already or event.chain >= 2:
                table.action_select()
