"""``:log``: every change this profile made through the app, newest first, filterable.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| / | log.filter | Filter as you type (every word must occur) |
| r | log.reload | Read the log again |
| escape | log.clear_filter | Clear the filter |
| enter | table.select | The change in words (local time, target, outcome, request) |
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Static

from screens.shell import ShellScreen
from screens.text_modal import TextModal
from tui.activity import ActivityEntry
from tui.resources.rows import TableColumn, TableRow
from widgets.resource_table import ResourceTable
from widgets.table_messages import Selected

COLUMNS = (
    TableColumn("Time (UTC)", 19),
    TableColumn("Outcome", 12, status=True),  # before the long texts: shown at any width
    TableColumn("Method", 6),
    TableColumn("Target"),
    TableColumn("Path"),
    TableColumn("Reason"),
)


def entry_row(index: int, entry: ActivityEntry) -> TableRow:
    """The table row of one logged change (literal text: labels come from the API)."""
    target = entry.target + (f" #{entry.target_id}" if entry.target_id else "")
    cells = (entry.when, entry.outcome, entry.method, target, entry.path, entry.reason)
    return TableRow(
        index,
        cells,
        (-entry.time, entry.outcome, entry.method, target, entry.path, entry.reason),
        "ok" if entry.ok else "error",
        entry.text().lower(),
    )


class EntryScreen(TextModal):
    """One logged change in words: local time, target, outcome, request (``J``: raw JSON)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "dismiss", "Close", id="log.entry_close"),
        Binding("J", "json", "JSON", id="log.entry_json"),
    ]

    def __init__(self, entry: ActivityEntry) -> None:
        body = Text()
        for heading, text in entry.details():
            body.append(f"{heading:<9}", style="bold")
            body.append(f"{text}\n")  # literal: labels and reasons come from the API
        super().__init__(f"Change {entry.method} {entry.path}", body, "escape closes · J raw JSON")
        self.entry = entry

    def action_json(self) -> None:
        """The entry as it is stored."""
        from screens.pane import show_json

        show_json(self, f"change {self.entry.method} {self.entry.path}", asdict(self.entry))


class ActivityLogScreen(ShellScreen):
    """The profile's activity log (file in the data folder, rotated)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="log.filter"),
        Binding("r", "reload", "Reload", id="log.reload"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="log.clear_filter"),
    ]

    DEFAULT_CSS = """
    ActivityLogScreen .log-header { height: 1; padding: 0 1; background: $boost; }
    ActivityLogScreen .log-title { width: 1fr; height: 1; text-style: bold; }
    ActivityLogScreen .log-filter { width: 30; height: 1; border: none; padding: 0 1; }
    ActivityLogScreen .log-message { height: auto; padding: 0 1; color: $text-muted; }
    """

    def compose_content(self) -> ComposeResult:
        with Horizontal(classes="log-header"):
            yield Static(classes="log-title")
            yield Input(placeholder="/ filter…", classes="log-filter", compact=True)
        yield ResourceTable(COLUMNS, classes="log-table")
        yield Static(classes="log-message")

    @property
    def table(self) -> ResourceTable:
        """The table of changes."""
        return self.query_one(ResourceTable)

    def on_mount(self) -> None:
        self.entries: list[ActivityEntry] = []
        self.action_reload()
        self.table.focus()

    def on_screen_resume(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        """Read the log again (changes made since appear on top)."""
        log: Any = getattr(self.app, "activity", None)
        self.entries = log.read() if log is not None else []
        self.table.clear()
        self.table.append_rows(entry_row(i, e) for i, e in enumerate(self.entries))
        self._update_header()

    def _update_header(self) -> None:
        log: Any = getattr(self.app, "activity", None)
        shown, held = self.table.row_count, len(self.entries)
        text = Text("Activity log", style="bold")
        text.append(f"  {held:,} change{'s' if held != 1 else ''}")
        if shown != held:
            text.append(f" · {shown:,} shown")
        self.query_one(".log-title", Static).update(text)
        if log is None:
            message = "The activity log is off (the data folder cannot be written)."
        elif not self.entries:
            message = "No change made from this app yet. Changes you make are listed here."
        elif shown == 0:
            message = "No change matches the filter. Press escape to clear it."
        else:
            message = f"Newest first. File: {log.path}"
        self.query_one(".log-message", Static).update(Text(message))

    @on(Input.Changed, ".log-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.table.set_filter(event.value)
        self._update_header()

    @on(Input.Submitted, ".log-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    @on(ResourceTable.Selected)
    def _selected(self, event: Selected) -> None:
        event.stop()
        index = event.key
        if isinstance(index, int) and 0 <= index < len(self.entries):
            self.app.push_screen(EntryScreen(self.entries[index]))

    def action_filter(self) -> None:
        """Focus the filter."""
        self.query_one(".log-filter", Input).focus()

    def action_clear_filter(self) -> None:
        """Clear the filter."""
        self.query_one(".log-filter", Input).value = ""
        self.table.set_filter("")
        self.table.focus()
        self._update_header()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            return bool(self.table.filter_text) or self.query_one(".log-filter", Input).has_focus
        return super().check_action(action, parameters)
