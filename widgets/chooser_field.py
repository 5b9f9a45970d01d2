"""A form's choice input that opens a searchable table of choices with their facts.

It is a :class:`~textual.widgets.Select` (same value, options, prompt and ``Changed`` message,
so forms treat it like any choice list) whose list is a :class:`screens.chooser.ChooserModal`
instead of a drop-down: enter, space or the arrows open it, and a letter opens it with that
letter already in the filter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from textual import events
from textual.widgets import Select

from tui.resources.choosers import ChooserRow, ChooserTable, Facts, chooser_rows


class ChooserSelect(Select[Any]):
    """A choice input whose choices come with facts.

    Args:
        options: ``(text, value)`` options (as for a Select).
        title: What is being chosen (the chooser's heading).
        facts: Columns to show (None: the option texts alone).
        **kwargs: The Select's own arguments.
    """

    def __init__(
        self,
        options: Iterable[tuple[Any, Any]],
        *,
        title: str,
        facts: Facts | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(options, type_to_search=False, **kwargs)
        self.title_text = title
        self.facts = facts
        self.table: ChooserTable | None = None
        self.empty = "loading…"
        """What the chooser says while it has no rows: loading, or why there are none."""

    def set_items(
        self,
        items: Iterable[Mapping[str, Any]],
        option: Callable[[Mapping[str, Any]], tuple[str, Any]],
    ) -> None:
        """The items behind the options: the chooser shows their facts."""
        self.table = chooser_rows(self.facts, items, option)

    def _table(self) -> ChooserTable:
        if self.table is not None:
            return replace(self.table, empty=self.empty)
        rows = tuple(
            ChooserRow(value, str(text), (str(text),), "", str(text).lower())
            for text, value in self._options
            if value is not Select.NULL
        )
        return ChooserTable(("Choice",), (False,), rows, empty=self.empty)

    def open_chooser(self, query: str = "") -> None:
        """Show the chooser; the row chosen becomes the value."""
        from screens.chooser import ChooserModal

        def chosen(value: Any) -> None:
            if value is not None:
                self.value = value
            self.focus()

        current = None if self.value is Select.NULL else self.value
        modal = ChooserModal(self.title_text, self._table(), current=current, query=query)
        self.app.push_screen(modal, chosen)

    def action_show_overlay(self) -> None:
        """Enter, space, up or down: the chooser, not the drop-down."""
        self.open_chooser()

    def _watch_expanded(self, expanded: bool) -> None:
        if expanded:  # a click on the current value: the chooser instead
            self.expanded = False
            self.open_chooser()

    def on_key(self, event: events.Key) -> None:
        # A letter typed on the field starts filtering the chooser with it.
        if event.is_printable and event.character and event.character != " ":
            event.stop()
            event.prevent_default()
            self.open_chooser(event.character)
