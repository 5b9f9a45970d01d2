"""The chooser itself: a filter line over a table of choices with their facts.

Typing filters (every word must appear in the row), the arrows move the highlight, enter posts
:class:`ChooserPanel.Picked` with the highlighted row's value. Used by the chooser dialog of
form fields (:mod:`widgets.chooser_modal`) and by the resize dialog's type list. Every cell is
literal text (labels from the API are never markup).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| (letters) | (input) | Filter: rows containing every typed word |
| up, down, pageup, pagedown | chooser.move | Move the highlight |
| left, right | (input) | Scroll the columns that do not fit (else move in the filter) |
| enter | (input) | Choose the highlighted row (a row marked refused says why instead) |
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input, Static

from tui.resources.choosers import ChooserRow, ChooserTable, filter_rows, shown_cells
from tui.untrusted import Shown, shown
from widgets.chooser_grid import ChooserGrid


class ChooserFilter(Input):
    """The filter line, whose ←/→ scroll the table while it hides columns that way.

    The filter keeps the focus (typing always filters), so the arrows would otherwise only move
    in its text and the columns cut off by a narrow terminal could never be seen. Once the table
    shows its last columns (or its first), the arrows move in the text again.
    """

    def _grid(self) -> ChooserGrid | None:
        panel = next((n for n in self.ancestors if isinstance(n, ChooserPanel)), None)
        return panel.grid if panel is not None else None

    def action_cursor_right(self, select: bool = False) -> None:
        grid = self._grid()
        at_end = self.cursor_position >= len(self.value)
        if select or not at_end or grid is None or not grid.scroll_columns(1):
            super().action_cursor_right(select)

    def action_cursor_left(self, select: bool = False) -> None:
        grid = self._grid()
        if select or grid is None or not grid.scroll_columns(-1):
            super().action_cursor_left(select)


class ChooserPanel(Vertical):
    """Filter and table of one chooser.

    Args:
        table: Headings and rows (None: loaded later with :meth:`set_table`).
        current: The value chosen so far (highlighted when shown).
        query: Text the filter starts with.
        id: Widget id.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "move(1)", "Down", show=False, id="chooser.move"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("pagedown", "move(10)", "Page down", show=False),
        Binding("pageup", "move(-10)", "Page up", show=False),
    ]

    DEFAULT_CSS = """
    ChooserPanel { height: 1fr; }
    ChooserPanel #chooser-filter { height: 1; background: $boost; }
    ChooserPanel DataTable { height: 1fr; }
    ChooserPanel #chooser-hint { color: $text-muted; height: 1; }
    /* The table never has the focus (typing filters), yet its highlight is what enter picks:
       drawn as a focused cursor (reverse video under NO_COLOR: see app.tcss). */
    ChooserPanel DataTable > .datatable--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: bold;
    }
    """

    class Picked(Message):
        """Enter on a row (or a click).

        Attributes:
            value: The row's value.
        """

        def __init__(self, value: Any) -> None:
            super().__init__()
            self.value = value

    def __init__(
        self,
        table: ChooserTable | None = None,
        *,
        current: Any = None,
        query: str = "",
        keys_hint: Shown = "enter choose · esc cancel",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.table = table
        self.current = current
        self.query_text = query
        self.keys_hint = keys_hint
        self.shown: list[ChooserRow] = []
        self._hint = ""

    def compose(self) -> ComposeResult:
        yield ChooserFilter(
            self.query_text,
            placeholder="type to filter (all words must match)",
            id="chooser-filter",
            compact=True,
            select_on_focus=False,
        )
        grid = ChooserGrid(id="chooser-table", cursor_type="row")
        grid.can_focus = False  # typing always filters; the arrows move the highlight
        yield grid
        yield Static("", id="chooser-hint")

    def on_mount(self) -> None:
        if self.table is not None:
            self.set_table(self.table, self.current)

    @property
    def filter_input(self) -> Input:
        """The filter line (focus it to type)."""
        return self.query_one("#chooser-filter", Input)

    @property
    def grid(self) -> ChooserGrid:
        """The table of rows."""
        return self.query_one("#chooser-table", ChooserGrid)

    def focus_filter(self) -> None:
        """Focus the filter, the cursor after what it holds."""
        self.filter_input.focus()
        self.filter_input.cursor_position = len(self.filter_input.value)

    def set_table(self, table: ChooserTable, current: Any = None) -> None:
        """Show ``table`` with ``current`` highlighted."""
        self.table = table
        self.current = current
        grid = self.grid
        grid.clear(columns=True)
        for title, right in zip(table.titles, table.right, strict=True):
            grid.add_column(Text(shown(title), justify="right" if right else "left"))
        self._fill()

    def _fill(self) -> None:
        grid = self.grid
        table = self.table or ChooserTable((), (), (), empty="loading…")
        query = self.filter_input.value
        self.shown = filter_rows(table.rows, query)
        grid.clear()
        grouped = bool(table.titles) and table.titles[0] == ""
        for index, cells in enumerate(shown_cells(self.shown, grouped)):
            texts = [
                Text(
                    cell,
                    justify="right" if right else "left",
                    style="bold" if grouped and column == 0 else "",
                    no_wrap=True,
                )
                for column, (cell, right) in enumerate(zip(cells, table.right, strict=True))
            ]
            grid.add_row(*texts, key=str(index))
        current = next((i for i, r in enumerate(self.shown) if r.value == self.current), None)
        if current is not None:
            grid.move_cursor(row=current, animate=False)
        count = f"{len(self.shown)} of {len(table.rows)}"
        if not self.shown:
            count = (
                f"nothing matches ({len(table.rows)} in all)" if table.rows else shown(table.empty)
            )
        self._hint = f"{count} · type to filter · ↑↓ move · {self.keys_hint}"
        self._show_hint()
        self.call_after_refresh(self._show_hint)  # the columns' widths are known once laid out

    def _show_hint(self) -> None:
        """The count and keys, with ←→ named while columns are cut off."""
        hint = self._hint
        left, right = self.grid.hidden_columns()
        if left or right:
            hint = f"{hint} · ←→ columns"
        self.query_one("#chooser-hint", Static).update(Text(hint))

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_hint)

    @on(Input.Changed, "#chooser-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._fill()

    @on(Input.Submitted, "#chooser-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.pick()

    @on(DataTable.RowSelected)
    def _row_clicked(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.pick()

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()  # the dialog hears only about picks

    def action_move(self, step: int) -> None:
        """Move the highlight ``step`` rows (clamped)."""
        grid = self.grid
        if grid.row_count:
            row = max(0, min(grid.row_count - 1, grid.cursor_row + step))
            grid.move_cursor(row=row)

    @property
    def highlighted(self) -> ChooserRow | None:
        """The row enter would choose."""
        grid = self.grid
        if not self.shown or grid.cursor_row < 0 or grid.cursor_row >= len(self.shown):
            return None
        return self.shown[grid.cursor_row]

    def pick(self) -> None:
        """Post the highlighted row's value (nothing shown: a bell; a refused row: why)."""
        row = self.highlighted
        if row is None:
            self.app.bell()
            return
        if row.refused:
            # The API would refuse it: choosing it would only move the refusal to the send.
            self.app.bell()
            label = row.text.strip(" —")  # a refused row may lack its value (no address)
            self.app.notify(
                shown(f"{label}: {row.refused}" if label else row.refused),
                title="Not available",
                severity="warning",
                markup=False,
            )
            return
        self.post_message(self.Picked(row.value))
