"""Messages the resource table posts (``ResourceTable.CursorMoved`` and the others).

They live here so the table module holds only the widget; the ``resource_table`` namespace
keeps their handler names (``on_resource_table_cursor_moved`` ...) as if they were nested.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.message import Message
from textual.widget import Widget


class TableMessage(Message):
    """A message about one table (its ``control``, for ``@on`` selectors)."""

    def __init__(self, table: Widget) -> None:
        self.table = table
        super().__init__()

    @property
    def control(self) -> Widget:
        """The table."""
        return self.table


class CursorMoved(TableMessage, namespace="resource_table"):
    """The cursor moved to another row (bursts coalesce)."""

    def __init__(self, table: Widget, key: Hashable | None) -> None:
        self.key = key
        super().__init__(table)

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, CursorMoved) and message.table is self.table


class Selected(TableMessage, namespace="resource_table"):
    """The user opened a row (enter or double click)."""

    def __init__(self, table: Widget, key: Hashable) -> None:
        self.key = key
        super().__init__(table)


class SortChanged(TableMessage, namespace="resource_table"):
    """The sort column or direction changed."""

    def __init__(self, table: Widget, column: int | None, reverse: bool) -> None:
        self.column = column
        self.reverse = reverse
        super().__init__(table)


class MarksChanged(TableMessage, namespace="resource_table"):
    """Rows were marked or unmarked (bursts coalesce)."""

    def __init__(self, table: Widget, count: int) -> None:
        self.count = count
        super().__init__(table)

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, MarksChanged) and message.table is self.table
