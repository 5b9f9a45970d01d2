"""``:log``: every change this profile made through the app, newest first, filterable.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| / | log.filter | Filter as you type (every word must occur) |
| r | log.reload | Read the log again |
| u | log.undo | Undo the last reversible change of this session (after a confirmation) |
| escape | log.clear_filter | Clear the filter |
| enter | table.select | The change in words (local time, target, outcome, request) |

The Undo column says, for each change of this session, whether ``u`` undoes it, and for one
that cannot be undone, why (:mod:`tui.home.undo` computes it from the operation's declaration).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Static

from screens.app_surface import Change, signed_in, surface
from screens.dialogs.text_modal import TextModal
from screens.frame import ShellScreen
from tui.api.errors import CloudError
from tui.home.activity import ActivityEntry
from tui.home.undo import NotedChange, UndoJournal, undo_preview
from tui.refresh import describe_error, error_title
from tui.resources.rows import TableColumn, TableRow
from tui.untrusted import shown
from widgets.resource_table import ResourceTable
from widgets.table_messages import Selected

COLUMNS = (
    TableColumn("Time (UTC)", 19),
    TableColumn("Outcome", 12, status=True),  # before the long texts: shown at any width
    TableColumn("Method", 6),
    TableColumn("Target"),
    TableColumn("Path"),
    TableColumn("Reason"),
    TableColumn("Undo"),
)


def undo_text(journal: UndoJournal | None, entry: ActivityEntry) -> str:
    """The Undo cell: ``u undoes`` (the last reversible change), ``undone``, ``undoable``,
    ``cannot: why``, or '' for a change not of this session."""
    change = journal.find(entry) if journal is not None else None
    if journal is None or change is None:
        return ""
    if change.undone:
        return "undone"
    if change.undo is None:
        return f"cannot: {change.why_not}"
    return "u undoes" if change in journal.last_undoable() else "undoable"


def entry_row(index: int, entry: ActivityEntry, undo: str = "") -> TableRow:
    """The table row of one logged change (literal text: labels come from the API)."""
    target = entry.target + (f" #{entry.target_id}" if entry.target_id else "")
    cells = tuple(
        shown(cell)
        for cell in (
            entry.when,
            entry.outcome,
            entry.method,
            target,
            entry.path,
            entry.reason,
            undo,
        )
    )
    return TableRow(
        index,
        cells,
        (-entry.time, entry.outcome, entry.method, target, entry.path, entry.reason, undo),
        "ok" if entry.ok else "error",
        f"{entry.text()} {undo}".lower(),
    )


class EntryScreen(TextModal):
    """One logged change in words: local time, target, outcome, request (``J``: raw JSON)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "dismiss", "Close", id="log.entry_close"),
        Binding("J", "json", "JSON", id="log.entry_json"),
    ]

    def __init__(self, entry: ActivityEntry, undo: str = "") -> None:
        body = Text()
        # The Undo column is cut at any width; here its reason (why not) reads in full.
        lines = [*entry.details(), *([("Undo", undo)] if undo else [])]
        for heading, text in lines:
            body.append(f"{shown(heading):<9}", style="bold")
            body.append(f"{shown(text, lines=True)}\n")  # labels and reasons come from the API
        super().__init__(f"Change {entry.method} {entry.path}", body, "escape closes · J raw JSON")
        self.entry = entry

    def action_json(self) -> None:
        """The entry as it is stored."""
        from screens.lists.pane import show_json

        show_json(self, shown(f"change {self.entry.method} {self.entry.path}"), asdict(self.entry))


def undo_refusal(
    entry: ActivityEntry | None,
    change: NotedChange | None,
    group: list[NotedChange],
    session: str,
) -> str:
    """Why ``u`` on ``entry`` undoes nothing ('' when it undoes ``group``).

    Args:
        entry: The change under the cursor (None: none).
        change: Its note of this session (None: an earlier session's, or not noted).
        group: The last group that can be undone.
        session: Id of this session in the activity log.
    """
    if change is not None and change.undone:
        return f"{change.title}: already undone."
    if change is not None and change.undo is None:
        return f"{change.title} cannot be undone: {change.why_not}."
    if not group:
        if entry is not None and entry.session != session:
            return "Only changes made in this session can be undone."
        return "No change of this session can be undone."
    if change is not None and change not in group:
        return f"Only the last reversible change can be undone: {group[-1].title}."
    return ""


class ActivityLogScreen(ShellScreen):
    """The profile's activity log (file in the data folder, rotated)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="log.filter"),
        Binding("r", "reload", "Reload", id="log.reload"),
        Binding(
            "u",
            "undo",
            "Undo",
            id="log.undo",
            tooltip="Undo the last reversible change of this session",
        ),
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
        state = surface(self).state
        log = state.activity
        self.entries = log.read() if log is not None else []
        self.table.clear()
        journal = state.undo_journal
        self.table.append_rows(
            entry_row(i, e, undo_text(journal, e)) for i, e in enumerate(self.entries)
        )
        self._update_header()

    def _update_header(self) -> None:
        log = surface(self).state.activity
        on_screen, held = self.table.row_count, len(self.entries)
        text = Text("Activity log", style="bold")
        text.append(f"  {held:,} change{'s' if held != 1 else ''}")
        if on_screen != held:
            text.append(f" · {on_screen:,} shown")
        self.query_one(".log-title", Static).update(text)
        if log is None:
            message = "The activity log is off (the data folder cannot be written)."
        elif not self.entries:
            message = "No change made from this app yet. Changes you make are listed here."
        elif on_screen == 0:
            message = "No change matches the filter. Press escape to clear it."
        else:
            message = f"Newest first. File: {log.path}"
        self.query_one(".log-message", Static).update(Text(shown(message)))

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
            entry = self.entries[index]
            journal = surface(self).state.undo_journal
            self.app.push_screen(EntryScreen(entry, undo_text(journal, entry)))

    def _entry_under_cursor(self) -> ActivityEntry | None:
        index = self.table.cursor_key
        if isinstance(index, int) and 0 <= index < len(self.entries):
            return self.entries[index]
        return None

    def action_undo(self) -> None:
        """Undo the last reversible change of this session (the one under the cursor, when
        the cursor is on one of this session's changes)."""
        state = surface(self).state
        journal = state.undo_journal
        entry = self._entry_under_cursor()
        change = journal.find(entry) if journal is not None and entry is not None else None
        group = journal.last_undoable() if journal is not None else []
        log = state.activity
        refusal = undo_refusal(entry, change, group, log.session if log is not None else "")
        if refusal or journal is None:
            self.app.notify(shown(refusal) or "Nothing to undo.", title="Undo", markup=False)
            return
        self._undo(journal, group)

    @work(group="undo", exit_on_error=False, name="undoing a change", description="undo")
    async def _undo(self, journal: UndoJournal, group: list[NotedChange]) -> None:
        from screens.dialogs.confirm import ConfirmModal

        session = signed_in(self)
        requests = journal.requests(group)
        preview = undo_preview(requests)  # each request names its object by label too
        first = shown(group[0].title)
        what = first if len(group) == 1 else f"{first} ({len(group)} changes)"
        confirmed = await self.app.push_screen_wait(
            ConfirmModal(
                f"Undo: {what}?",
                "Sends the request below, computed from what was there before the change.",
                preview,
                confirm_label="Undo",
                account=session.mark,
            )
        )
        if not confirmed:
            return
        for request in requests:
            try:
                await session.client.call(
                    request.endpoint, dict(request.params), body=request.body, model=dict
                )
            except CloudError as error:
                self.app.notify(
                    describe_error(error),
                    title=f"Undo: {error_title(error)}",
                    severity="error",
                    markup=False,
                )
                self.action_reload()
                return
        journal.mark_undone(group)
        surface(self).change_signal.publish(Change())  # lists shown again refresh
        self.app.notify(f"Undone: {shown(what)}", title="Undo", markup=False)
        self.action_reload()

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
