"""A searchable table of choices with their facts: type to filter, arrows, enter picks.

Opened by a chooser field of a form (:class:`widgets.chooser_field.ChooserSelect`) with a
:class:`~tui.resources.choosers.ChooserTable`; it dismisses with the chosen row's value, or with
None on escape. The filter and table are :class:`widgets.chooser_panel.ChooserPanel`.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| (letters) | (input) | Filter: rows containing every typed word |
| up, down, pageup, pagedown | chooser.move | Move the highlight |
| enter | (input) | Choose the highlighted row |
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
from textual.widgets import Static

from tui.resources.choosers import ChooserRow, ChooserTable
from tui.untrusted import Shown
from widgets.chooser_panel import ChooserPanel


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
    ]

    DEFAULT_CSS = """
    ChooserModal { align: center middle; }
    ChooserModal > #chooser-dialog {
        width: 100; max-width: 100%; height: 90%; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    ChooserModal #chooser-title { text-style: bold; height: 1; }
    """

    accepts_typeahead = True
    """Letters typed while the chooser opened go into its filter (see key_gate)."""

    def __init__(
        self, title: Shown, table: ChooserTable, *, current: Any = None, query: str = ""
    ) -> None:
        super().__init__()
        self.title_text = title
        self.table = table
        self.current = current
        self.query_text = query

    def compose(self) -> ComposeResult:
        with Vertical(id="chooser-dialog"):
            yield Static(Text(f"Choose {self.title_text.lower()}"), id="chooser-title")
            yield ChooserPanel(self.table, current=self.current, query=self.query_text)

    @property
    def panel(self) -> ChooserPanel:
        """The filter and the table."""
        return self.query_one(ChooserPanel)

    @property
    def shown(self) -> list[ChooserRow]:
        """The rows the filter lets through."""
        return self.panel.shown

    def on_mount(self) -> None:
        # After the first refresh: the panel's own filter line may not be composed yet.
        self.call_after_refresh(self.panel.focus_filter)

    @on(ChooserPanel.Picked)
    def _picked(self, event: ChooserPanel.Picked) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)
