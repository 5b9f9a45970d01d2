"""A form's choice input that opens a searchable table of choices with their facts.

It is a :class:`~textual.widgets.Select` (same value, options, prompt and ``Changed`` message,
so forms treat it like any choice list) whose list is a :class:`widgets.chooser_modal.ChooserModal`
instead of a drop-down: enter, space or the arrows open it, and a letter opens it with that
letter already in the filter. Choices that do not suit another input of the form (a type too
small for the chosen backup) carry the reason in their notes (:mod:`tui.resources.choice_fits`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import events
from textual.widgets import Select

from tui.resources.choice_fits import Fit, Lookup, fit_note
from tui.resources.choosers import ChooserTable, Facts, chooser_rows, plain_rows
from tui.untrusted import Shown
from widgets.textual_private import SelectWithoutDropDown, select_options

if TYPE_CHECKING:
    from widgets.chooser_modal import ChooserModal

Option = Callable[[Mapping[str, Any]], tuple[str, Any]]


class ChooserSelect(SelectWithoutDropDown):
    """A choice input whose choices come with facts.

    Args:
        options: ``(text, value)`` options (as for a Select).
        title: What is being chosen (the chooser's heading).
        facts: Columns to show (None: the option texts alone).
        fits: Rules marking choices that do not suit another input.
        **kwargs: The Select's own arguments.
    """

    def __init__(
        self,
        options: Iterable[tuple[Any, Any]],
        *,
        title: Shown,
        facts: Facts | None = None,
        fits: tuple[Fit, ...] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(options, type_to_search=False, **kwargs)
        self.title_text = title
        self.facts = facts
        self.fits = fits
        self.table: ChooserTable | None = None
        self.empty = "loading…"
        """What the chooser says while it has no rows: loading, or why there are none."""
        self.items: list[Mapping[str, Any]] = []
        self.option: Option | None = None
        self.lookup: Lookup | None = None
        """The form's other inputs (set by the form): what the :attr:`fits` compare with."""
        self.fit_note: Shown = ""
        """What the form last said under this input of why the chosen value does not suit
        (''; kept to clear it, and only it, once the value suits)."""
        self._chooser: ChooserModal | None = None
        """The chooser while it is open: choices that arrive meanwhile are shown in it."""

    def set_items(self, items: Iterable[Mapping[str, Any]], option: Option) -> None:
        """The items behind the options: the chooser shows their facts."""
        self.items = list(items)
        self.option = option
        self.table = chooser_rows(self.facts, self.items, option)

    def item_for(self, value: Any) -> Mapping[str, Any] | None:
        """The item behind the option of ``value`` (None when not loaded)."""
        if self.option is None:
            return None
        return next((i for i in self.items if self.option(i)[1] == value), None)

    def misfit(self, value: Any = None) -> str:
        """Why ``value`` (default: the chosen one) does not suit the form ('' when it does)."""
        value = self.value if value is None else value
        item = self.item_for(value) if value is not Select.NULL else None
        if item is None or not self.fits or self.lookup is None:
            return ""
        return fit_note(self.fits, item, self.lookup)

    def _table(self) -> ChooserTable:
        if self.table is not None and self.fits and self.lookup is not None:
            lookup, fits = self.lookup, self.fits
            assert self.option is not None
            table = chooser_rows(
                self.facts, self.items, self.option, lambda item: fit_note(fits, item, lookup)
            )
            return replace(table, empty=self.empty)
        if self.table is not None:
            return replace(self.table, empty=self.empty)
        rows = plain_rows(
            (str(text), value) for text, value in select_options(self) if value is not Select.NULL
        )
        return ChooserTable(("Choice",), (False,), rows, empty=self.empty)

    def open_chooser(self, query: str = "") -> None:
        """Show the chooser; the row chosen becomes the value."""
        from widgets.chooser_modal import ChooserModal

        def chosen(value: Any) -> None:
            self._chooser = None
            if value is not None:
                self.value = value
            self.focus()

        current = None if self.value is Select.NULL else self.value
        modal = ChooserModal(self.title_text, self._table(), current=current, query=query)
        self._chooser = modal
        self.app.push_screen(modal, chosen)

    def refresh_chooser(self) -> None:
        """Show the choices as they are now in the chooser, if it is open (it was opened
        while they were still loading)."""
        if self._chooser is not None and self._chooser.is_attached:
            current = None if self.value is Select.NULL else self.value
            self._chooser.panel.set_table(self._table(), current)

    def action_show_overlay(self) -> None:
        """Enter, space, up or down: the chooser, not the drop-down."""
        self.open_chooser()

    def drop_down_asked(self) -> None:
        """A click on the current value: the chooser instead of the drop-down."""
        self.open_chooser()

    def on_key(self, event: events.Key) -> None:
        # A letter typed on the field starts filtering the chooser with it.
        if event.is_printable and event.character and event.character != " ":
            event.stop()
            event.prevent_default()
            self.open_chooser(event.character)
