"""A searchable table of choices with their facts: type to filter, arrows, enter picks.

Opened by a chooser field of a form (:class:`widgets.chooser_field.ChooserSelect`) with a
:class:`~tui.resources.choosers.ChooserTable`; it dismisses with the chosen row's value, or with
None on escape. Every cell is literal text (labels from the API are never markup).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| (letters) | (input) | Filter: rows containing every typed word |
| up, down, pageup, pagedown | chooser.move | Move the highlight |
| enter | chooser.pick | Choose the highlighted row |
| escape | chooser.cancel | Close without choosing |
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from tui.resources.choosers import ChooserRow, ChooserTable, filter_rows, shown_cells


class ChooserModal(ModalScreen[Any]):
    """Choose one row of ``table``.

    Args:
        title: What is being chosen ("Type").
        table: Headings and rows.
        current: The value chosen so far (highlighted when shown).
        query: Text to start the filter with (the key that opened the chooser).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="chooser.cancel"),
        Binding("down", "move(1)", "Down", show=False, id="chooser.move"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("pagedown", "move(10)", "Page down", show=False),
        Binding("pageup", "move(-10)", "Page up", show=False),
    ]

    DEFAULT_CSS = """
    ChooserModal { align: center middle; }
    ChooserModal > #chooser-dialog {
        width: 100; max-width: 100%; height: 90%; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    ChooserModal #chooser-title { text-style: bold; height: 1; }
    ChooserModal #chooser-filter { height: 1; background: $boost; margin-bottom: 1; }
    ChooserModal DataTable { height: 1fr; }
    ChooserModal #chooser-hint { color: $text-muted; height: 1; }
    """

    accepts_typeahead = True
    """Letters typed while the chooser opened go into its filter (see key_gate)."""

    def __init__(
        self, title: str, table: ChooserTable, *, current: Any = None, query: str = ""
    ) -> None:
        super().__init__()
        self.title_text = title
        self.table = table
        self.current = current
        self.query_text = query
        self.shown: list[ChooserRow] = list(table.rows)

    def compose(self) -> ComposeResult:
        with Vertical(id="chooser-dialog"):
            yield Static(Text(f"Choose {self.title_text.lower()}"), id="chooser-title")
            yield Input(
                self.query_text,
                placeholder="type to filter (all words must match)",
                id="chooser-filter",
                compact=True,
                select_on_focus=False,
            )
            grid: DataTable[Text] = DataTable(
                id="chooser-table", cursor_type="row", zebra_stripes=False
            )
            grid.can_focus = False  # typing always filters; the arrows move the highlight
            yield grid
            yield Static("", id="chooser-hint")

    def on_mount(self) -> None:
        grid = self.grid
        for title, right in zip(self.table.titles, self.table.right, strict=True):
            grid.add_column(Text(title, justify="right" if right else "left"))
        self._fill()
        filter_input = self.query_one("#chooser-filter", Input)
        filter_input.focus()
        filter_input.cursor_position = len(filter_input.value)

    @property
    def grid(self) -> DataTable[Text]:
        """The table of rows."""
        return self.query_one("#chooser-table", DataTable)

    def _fill(self) -> None:
        grid = self.grid
        query = self.query_one("#chooser-filter", Input).value
        self.shown = filter_rows(self.table.rows, query)
        grid.clear()
        grouped = bool(self.table.titles) and self.table.titles[0] == ""
        for index, cells in enumerate(shown_cells(self.shown, grouped)):
            grid.add_row(
                *(
                    Text(
                        cell,
                        justify="right" if right else "left",
                        style="bold" if grouped and column == 0 else "",
                        no_wrap=True,
                    )
                    for column, (cell, right) in enumerate(
                        zip(cells, self.table.right, strict=True)
                    )
                ),
                key=str(index),
            )
        current = next((i for i, r in enumerate(self.shown) if r.value == self.current), None)
        if current is not None and not query:
            grid.move_cursor(row=current, animate=False)
        count = f"{len(self.shown)} of {len(self.table.rows)}"
        if not self.shown:
            count = f"nothing matches ({len(self.table.rows)} in all)"
        hint = f"{count} · type to filter · ↑↓ move · enter choose · esc cancel"
        self.query_one("#chooser-hint", Static).update(Text(hint))

    @on(Input.Changed, "#chooser-filter")
    def _filter_changed(self) -> None:
        self._fill()

    @on(Input.Submitted, "#chooser-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_pick()

    @on(DataTable.RowSelected)
    def _row_clicked(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_pick()

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

    def action_pick(self) -> None:
        """Choose the highlighted row (nothing shown: a bell, the chooser stays)."""
        row = self.highlighted
        if row is None:
            self.app.bell()
            return
        self.dismiss(row.value)

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)
