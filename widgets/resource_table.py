"""A virtual table for resource lists: renders only the visible rows, so 10,000+ rows stay fast.

Textual's ``DataTable`` measures every cell before its first frame (about 2 s for 10,000 rows x 8
columns here) and repaints the whole viewport on each cell update. This table uses the Line API:
``render_line`` builds just the rows on screen, column widths come from fixed widths or a sample
of rows, and updates are applied as a diff keyed by row key so the cursor, the marked rows and
the scroll position never jump.

Cells are plain strings rendered as literal text (never parsed as markup): an API label such as
``[/x]`` shows exactly as typed.

Bindings:

| Key(s) | Id | Description |
| :- | :- | :- |
| up, k | table.up | Cursor up |
| down, j | table.down | Cursor down |
| pageup / pagedown | table.page_up / table.page_down | Page up / down |
| home, g / end, G | table.top / table.bottom | First / last row |
| enter | table.select | Open the row under the cursor |
| space | table.mark | Mark or unmark the row |
| * | table.mark_all | Mark every shown row (after the filter) |
| o | table.sort | Sort by the next column |
| O | table.sort_reverse | Reverse the sort direction |
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.resources.format import TONES
from tui.resources.rows import RowView, TableColumn, TableRow
from widgets import table_messages
from widgets.column_hint import columns_beyond, hint_header
from widgets.table_layout import (
    GUTTER,
    column_at,
    column_widths,
    fit,
    header_text,
    split_matches,
    total_width,
)
from widgets.toast_place import place_toasts

SAMPLE_ROWS = 200
"""Rows measured for columns without a fixed width (the rest are truncated with an ellipsis)."""
STRIP_CACHE_LIMIT = 600
"""Rendered rows kept (about 15 screens). Each strip carries several small caches of its own,
so a larger cache mostly adds work for the garbage collector's full passes."""


class ResourceTable(ScrollView, can_focus=True):
    """A cursor-driven, sortable, filterable virtual table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1)", "Up", show=False, id="table.up"),
        Binding("down,j", "cursor(1)", "Down", show=False, id="table.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="table.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="table.page_down"),
        Binding("home,g", "edge(-1)", "Top", show=False, id="table.top"),
        Binding("end,G", "edge(1)", "Bottom", show=False, id="table.bottom"),
        Binding("enter", "select", "Open", id="table.select"),
        Binding("space", "mark", "Mark", show=False, id="table.mark"),
        Binding("asterisk", "mark_all", "Mark all shown", show=False, id="table.mark_all"),
        Binding("o", "sort", "Sort", id="table.sort"),
        Binding("O", "sort_reverse", "Reverse sort", show=False, id="table.sort_reverse"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "resource-table--header",
        "resource-table--cursor",
        "resource-table--marked",
        "resource-table--match",
        *(f"resource-table--tone-{tone}" for tone in TONES),
    }

    DEFAULT_CSS = """
    ResourceTable {
        background: $surface;
        color: $foreground;
        height: 1fr;
        scrollbar-gutter: stable;
    }
    ResourceTable > .resource-table--header {
        background: $panel;
        color: $text-primary;
        text-style: bold;
    }
    ResourceTable > .resource-table--cursor {
        background: $primary 30%;
        text-style: bold;
    }
    ResourceTable:focus > .resource-table--cursor {
        background: $primary 60%;
    }
    ResourceTable > .resource-table--marked { color: $text-accent; }
    ResourceTable > .resource-table--match { text-style: bold underline; }
    ResourceTable > .resource-table--tone-ok { color: $text-success; }
    ResourceTable > .resource-table--tone-busy { color: $text-warning; text-style: italic; }
    ResourceTable > .resource-table--tone-warn { color: $text-warning; }
    ResourceTable > .resource-table--tone-error { color: $text-error; text-style: bold; }
    ResourceTable > .resource-table--tone-muted { color: $text-muted; }
    """

    cursor_row: reactive[int] = reactive(0, always_update=False, repaint=False)
    """Index of the cursor in the visible (filtered, sorted) rows."""

    CursorMoved = table_messages.CursorMoved
    Selected = table_messages.Selected
    SortChanged = table_messages.SortChanged
    MarksChanged = table_messages.MarksChanged

    def __init__(
        self,
        columns: Sequence[TableColumn] = (),
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._columns: tuple[TableColumn, ...] = tuple(columns)
        self._data = RowView()
        self._widths: list[int] = []
        self._sampled = 0
        self._strip_cache: dict[tuple[Any, ...], Strip] = {}
        self._header_cache: Strip | None = None
        self._style_cache: dict[str, Style] = {}
        self._highlights: tuple[tuple[str, ...], ...] = ()
        """Lower-cased words highlighted per column (the filter's matches)."""
        self._compute_widths()

    # -- public API -------------------------------------------------------------------------

    @property
    def columns(self) -> tuple[TableColumn, ...]:
        """The columns."""
        return self._columns

    @property
    def row_count(self) -> int:
        """Rows shown (after the filter)."""
        return len(self._data.view)

    @property
    def total_count(self) -> int:
        """Rows held (before the filter)."""
        return len(self._data.order)

    @property
    def keys(self) -> list[Hashable]:
        """Keys of the shown rows, in display order."""
        return list(self._data.view)

    def visible_keys(self) -> list[Hashable]:
        """Keys of the rows on screen now."""
        top = round(self.scroll_y)
        return self._data.view[top : top + max(0, self.scrollable_content_region.height - 1)]

    @property
    def cursor_key(self) -> Hashable | None:
        """Key of the row under the cursor."""
        return self.cursor_key_of(self.cursor_row)

    @property
    def sort_state(self) -> tuple[int | None, bool]:
        """``(column index or None, reverse)``."""
        return self._data.sort_column, self._data.sort_reverse

    @property
    def filter_text(self) -> str:
        """The active filter."""
        return self._data.filter

    def set_highlights(self, per_column: Sequence[Sequence[str]]) -> None:
        """Words to highlight in each column's cells (lower-case; empty: none)."""
        value = tuple(tuple(w for w in words if w) for words in per_column)
        if value != self._highlights:
            self._highlights = value
            self._invalidate()

    def row(self, key: Hashable) -> TableRow | None:
        """The row with that key."""
        return self._data.rows.get(key)

    def cells_at(self, index: int) -> tuple[str, ...]:
        """Display cells of the shown row at ``index``."""
        return self._data.rows[self._data.view[index]].cells

    def set_columns(self, columns: Sequence[TableColumn]) -> None:
        """Replace the columns (rows must match the new column count)."""
        self._columns = tuple(columns)
        self._sampled = 0
        self._compute_widths()
        self._invalidate()

    def clear(self) -> None:
        """Remove every row."""
        self._data.clear()
        self._sampled = 0
        self._compute_widths()
        self._set_cursor(0, announce=True)
        self._invalidate()

    def append_rows(self, rows: Iterable[TableRow]) -> None:
        """Add rows at the end (pages streaming in); an existing key is updated in place."""
        previous_key = self.cursor_key
        self._data.append(rows)
        if self._sampled < SAMPLE_ROWS:
            self._compute_widths()
        self._after_view_change(previous_key, keep_offset=True)
        self._invalidate(rows_only=True)

    def update_rows(self, order: Sequence[Hashable], upserts: Iterable[TableRow] = ()) -> None:
        """Apply a refresh: the full key order plus the rows that were added or changed.

        Rows whose key is not in ``order`` are removed. The cursor stays on its row (or at the
        same index if that row went away) and the row stays at the same height on screen.

        Args:
            order: Every key, in server order.
            upserts: New and changed rows.
        """
        previous_key = self.cursor_key
        if not self._data.update(order, upserts):
            return
        if self._sampled < SAMPLE_ROWS:
            self._compute_widths()
        self._view_changed(previous_key)

    def set_filter(self, text: str) -> None:
        """Show only rows containing ``text`` (case-insensitive, any column)."""
        previous_key = self.cursor_key
        if self._data.set_filter(text):
            self._view_changed(previous_key)

    def set_predicate(self, predicate: Callable[[TableRow], bool] | None) -> None:
        """An extra row filter (quick filters such as the kernel architecture)."""
        previous_key = self.cursor_key
        self._data.set_predicate(predicate)
        self._view_changed(previous_key)

    def sort_by(self, column: int | None, reverse: bool = False) -> None:
        """Sort by a column index (None: server order)."""
        if column is not None and not 0 <= column < len(self._columns):
            raise IndexError(column)
        previous_key = self.cursor_key
        self._data.set_sort(column, reverse)
        self._after_view_change(previous_key, keep_offset=True)
        self._invalidate()
        self.post_message(self.SortChanged(self, column, reverse))

    def move_cursor(self, key: Hashable) -> bool:
        """Put the cursor on the row with ``key``; False when it is not shown."""
        try:
            index = self._data.view.index(key)
        except ValueError:
            return False
        self._set_cursor(index, announce=True)
        return True

    # -- view maintenance -------------------------------------------------------------------

    def _view_changed(self, previous_key: Hashable | None) -> None:
        self._after_view_change(previous_key, keep_offset=True)
        self._invalidate(rows_only=True)

    def _after_view_change(self, previous_key: Hashable | None, *, keep_offset: bool) -> None:
        old_index = self.cursor_row
        screen_offset = old_index - round(self.scroll_y)
        self._resize_virtual(Size(self._total_width(), len(self._data.view) + 1))
        index = old_index
        if previous_key is not None and (
            index >= len(self._data.view) or self._data.view[index] != previous_key
        ):
            try:
                index = self._data.view.index(previous_key)
            except ValueError:
                index = old_index  # the row went away: stay at the same height
        index = max(0, min(index, len(self._data.view) - 1)) if self._data.view else 0
        if keep_offset and index != old_index and self.is_mounted:
            # Keep the cursor row at the same height on screen.
            self.scroll_to(y=max(0, index - screen_offset), animate=False, immediate=True)
        self._set_cursor(index, announce=self.cursor_key_of(index) != previous_key)

    def _resize_virtual(self, size: Size) -> None:
        """Set the scrollable size, without a screen layout when only the row count changed.

        Assigning ``virtual_size`` makes Textual lay out the whole screen (about 20 ms here, on
        every streamed page and filter keystroke). While the vertical scrollbar stays shown
        and the width is unchanged, nothing outside this widget moves: updating the
        scrollbar and repainting is enough.
        """
        old = self.virtual_size
        if size == old:
            return
        height = self.size.height
        if self.is_mounted and size.width == old.width and min(old.height, size.height) > height:
            self.set_reactive(ResourceTable.virtual_size, size)
            bar = self.vertical_scrollbar
            bar.window_virtual_size = size.height
            bar.refresh()
            if self.scroll_y > self.max_scroll_y:
                self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
            self.refresh()
        else:
            self.virtual_size = size

    @property
    def cursor_screen_y(self) -> int | None:
        """The screen row of the cursor (None when it is scrolled out of view or no row)."""
        if not self._data.view:
            return None
        content = self.scrollable_content_region
        line = 1 + self.cursor_row - round(self.scroll_y)  # line 0 is the header
        return content.y + line if 1 <= line < content.height else None

    def cursor_key_of(self, index: int) -> Hashable | None:
        """Key of the shown row at ``index``, if any."""
        return self._data.view[index] if 0 <= index < len(self._data.view) else None

    def _set_cursor(self, index: int, *, announce: bool) -> None:
        old = self.cursor_row
        self.set_reactive(ResourceTable.cursor_row, index)
        if self.is_mounted:
            top = self.scroll_offset.y
            self._scroll_cursor_into_view()
            if old != index:
                if self.scroll_offset.y != top:
                    self.refresh()
                else:
                    # Only the two rows whose cursor bar changed are painted again (line 0 is
                    # the header, so row i is virtual line i + 1).
                    self.refresh_line(old + 1)
                    self.refresh_line(index + 1)
            place_toasts(self.screen)  # toasts leave the cursor row uncovered
        if announce:
            self.post_message(self.CursorMoved(self, self.cursor_key))

    def _scroll_cursor_into_view(self) -> None:
        visible = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + visible:
            self.scroll_to(y=self.cursor_row - visible + 1, animate=False, immediate=True)

    # -- widths and rendering ---------------------------------------------------------------

    def _compute_widths(self) -> None:
        sample = [self._data.rows[k] for k in self._data.order[:SAMPLE_ROWS]]
        self._sampled = len(sample)
        widths = column_widths(self._columns, sample)
        if widths != self._widths:
            self._widths = widths
            self._strip_cache.clear()
            self._header_cache = None
            self.virtual_size = Size(self._total_width(), len(self._data.view) + 1)

    def _total_width(self) -> int:
        return total_width(self._widths)

    def _invalidate(self, *, rows_only: bool = False) -> None:
        if len(self._strip_cache) > STRIP_CACHE_LIMIT or not rows_only:
            self._strip_cache.clear()
        if not rows_only:
            self._header_cache = None
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strip_cache.clear()
        self._style_cache.clear()
        self._header_cache = None

    def _style(self, component: str = "") -> Style:
        """The widget's style plus a component's (cached: ``rich_style`` walks every ancestor).

        The cache is dropped with the strips whenever Textual reports a style change (theme,
        focus, CSS), so it never outlives the styles it was computed from.
        """
        style = self._style_cache.get(component)
        if style is None:
            base = self.rich_style
            style = base + self.get_component_rich_style(component) if component else base
            self._style_cache[component] = style
        return style

    def _component(self, name: str) -> Style:
        """A component's own style, without the widget's (cached like :meth:`_style`)."""
        key = f"={name}"
        style = self._style_cache.get(key)
        if style is None:
            # Partial: the component's own colour and text style, no background, so a status
            # cell on the cursor row keeps the cursor's background.
            style = self._style_cache[key] = self.get_component_rich_style(name, partial=True)
        return style

    def _header_strip(self) -> Strip:
        if self._header_cache is None:
            style = self._style("resource-table--header")
            text = header_text(self._columns, self._widths, self.sort_state)
            self._header_cache = Strip([Segment(text, style)])
        return self._header_cache

    def _row_strip(self, key: Hashable, cursor: bool) -> Strip:
        row = self._data.rows[key]
        marked = key in self._data.marked
        cache_key = (key, row, cursor, marked)
        strip = self._strip_cache.get(cache_key)
        if strip is not None:
            return strip
        base = self._style("resource-table--cursor" if cursor else "")
        gutter = ("▶" if cursor else " ") + ("✓" if marked else " ")
        gutter_style = base
        if marked:
            gutter_style = base + self._component("resource-table--marked")
        segments = [Segment(gutter, gutter_style)]
        tone_style: Style | None = None
        highlights = self._highlights
        for index, (column, width) in enumerate(zip(self._columns, self._widths, strict=True)):
            text = row.cells[index] if index < len(row.cells) else ""
            style = base
            if column.status and row.tone:
                if tone_style is None:
                    tone_style = self._component(f"resource-table--tone-{row.tone}")
                style = base + tone_style
            cell = fit(text, width, column.numeric)
            words = highlights[index] if index < len(highlights) else ()
            if words:
                match = style + self._component("resource-table--match")
                parts = split_matches(cell, words)
                segments.extend(Segment(t, match if hit else style) for t, hit in parts)
            else:
                segments.append(Segment(cell, style))
            segments.append(Segment(" ", base))
        strip = Strip(segments)
        self._strip_cache[cache_key] = strip
        return strip

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self._style()
        if y == 0:
            # Columns a narrow terminal cuts off are announced at the header's ends.
            left, right = columns_beyond(self._widths, GUTTER, scroll_x, scroll_x + width)
            header = self._header_strip().crop_extend(scroll_x, scroll_x + width, base)
            return hint_header(header, left, right, self._style("resource-table--header"))
        index = scroll_y + y - 1
        if index >= len(self._data.view):
            return Strip.blank(width, base)
        strip = self._row_strip(self._data.view[index], index == self.cursor_row)
        if index == self.cursor_row:
            # The cursor bar spans the whole width, so it is easy to follow across columns.
            strip = strip.extend_cell_length(
                scroll_x + width, self._style("resource-table--cursor")
            )
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    # -- actions and events -----------------------------------------------------------------

    def action_cursor(self, delta: int) -> None:
        """Move the cursor by ``delta`` rows."""
        if self._data.view:
            self._set_cursor(
                max(0, min(len(self._data.view) - 1, self.cursor_row + delta)), announce=True
            )

    def action_page(self, direction: int) -> None:
        """Move the cursor by one screenful."""
        self.action_cursor(direction * max(1, self.scrollable_content_region.height - 2))

    def action_edge(self, direction: int) -> None:
        """Jump to the first or last row."""
        if self._data.view:
            self._set_cursor(0 if direction < 0 else len(self._data.view) - 1, announce=True)

    def action_select(self) -> None:
        """Open the row under the cursor (none shown: say so, the key is not lost)."""
        key = self.cursor_key
        if key is None:
            self.app.notify("Nothing to open: no row is shown.", title="Open", markup=False)
            return
        self.post_message(self.Selected(self, key))

    # -- marks --------------------------------------------------------------------------------

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
        key = self.cursor_key
        if key is None:
            return
        self._data.toggle_mark(key)
        self._marks_changed()
        self.action_cursor(1)

    def action_mark_all(self) -> None:
        """Mark every shown row (rows the filter hides stay as they were)."""
        self._data.mark_shown()
        self._marks_changed()

    def action_clear_marks(self) -> None:
        """Unmark every row."""
        self._data.set_marks(())
        self._marks_changed()

    def _marks_changed(self) -> None:
        # The list says "3 marked" and offers its bulk actions.
        self.refresh()
        self.post_message(table_messages.MarksChanged(self, len(self._data.marked)))

    # -- sorting and clicks -------------------------------------------------------------------

    def action_sort(self) -> None:
        """Sort by the next column (after the last one: back to server order)."""
        if not self._columns:
            return
        column = self._data.sort_column
        last = len(self._columns) - 1
        self.sort_by(0 if column is None else (None if column >= last else column + 1), False)

    def action_sort_reverse(self) -> None:
        """Flip the sort direction (sorting by the first column when unsorted)."""
        column = self._data.sort_column
        if self._columns:
            self.sort_by(column or 0, not self._data.sort_reverse if column is not None else True)

    async def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        if offset.y == 0:  # the header: sort by the column clicked (again: the other way)
            column = column_at(self._widths, offset.x + round(self.scroll_x))
            if column is not None:
                reverse = column == self._data.sort_column and not self._data.sort_reverse
                self.sort_by(column, reverse)
            return
        index = round(self.scroll_y) + offset.y - 1
        if 0 <= index < len(self._data.view):
            already = index == self.cursor_row
            self._set_cursor(index, announce=not already)
            if already or event.chain >= 2:
                self.action_select()
