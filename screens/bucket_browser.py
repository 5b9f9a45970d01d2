"""A bucket's Objects tab as a file browser: folders, paging, transfers, delete and share.

Bindings of the pane (besides the table's: arrows, ``space`` mark, ``o``/``O`` sort):

| Key | Id | Description |
| :- | :- | :- |
| enter | table.select | Open the folder (an object: view it) |
| backspace | browser.up | Up one folder |
| / | browser.filter | Filter this folder's loaded entries |
| v | browser.view | View a text object (up to 1 MB) |
| D | browser.download | Download the marked / selected objects or folder |
| U | browser.upload | Upload a local file or directory here |
| d | browser.delete | Delete the marked / selected objects or folder contents |
| s | browser.share | Share link (pre-signed GET, copied) |
| u / a | object actions | Pre-signed URL form / object ACL |
| r | browser.refresh | Refresh |

The work is headless (:mod:`tui.transfers`); this pane draws the folder and collects choices.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, Static

from screens.pane import RefreshingPane
from screens.shell import start_action
from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.resources.format import format_value
from tui.resources.rows import TableColumn, TableRow
from tui.transfers.listing import Entry, FolderListing, breadcrumb, parent_of
from tui.transfers.progress import human_size
from tui.untrusted import Shown, shown
from widgets.resource_table import ResourceTable
from widgets.table_messages import CursorMoved, Selected

TIMED_RELOAD_LIMIT = 1000
"""Loaded entries beyond which the refresh timer leaves the folder alone."""

COLUMNS = (
    # Two trailing spaces keep the column wide enough for its sort arrow ("Name ▲") when the
    # names are short (widths come from the title and a sample of names).
    TableColumn("Name  "),
    TableColumn("Size", 10, numeric=True),
    TableColumn("Modified", 16),
    TableColumn("Type", 24),
)


def entry_row(entry: Entry) -> TableRow:
    """The table row of an entry; folders sort before objects in every column."""
    kind = 0 if entry.folder else 1
    modified = format_value(entry.modified, "datetime") if entry.modified else ""
    return TableRow(
        key=entry.key,
        cells=(
            shown(entry.name),  # anybody's object names, in a shared bucket
            "folder" if entry.folder else human_size(entry.size),
            modified,
            "" if entry.folder else shown(entry.content_type),
        ),
        sort_keys=(
            (kind, entry.name),
            (kind, entry.size),
            (kind, entry.modified or ""),
            (kind, entry.content_type),
        ),
        tone="muted" if entry.folder else None,
        haystack=entry.name.lower(),
    )


class BucketBrowserPane(RefreshingPane):
    """Folders of a bucket by prefix, with transfers (see the module docstring for keys)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("backspace", "up", "Up", id="browser.up", tooltip="Go up to the parent folder"),
        Binding("slash", "filter", "Filter", id="browser.filter"),
        Binding("v", "view", "View", id="browser.view"),
        Binding("D", "download", "Download", id="browser.download"),
        Binding("U", "upload", "Upload", id="browser.upload"),
        Binding("d", "delete", "Delete", id="browser.delete"),
        Binding("s", "share", "Share", id="browser.share"),
        Binding("u", "object_action('object_storage.object_url')", "URL", id="browser.url"),
        Binding("a", "object_action('object_storage.object_acl')", "ACL", id="browser.acl"),
        Binding("r", "refresh", "Refresh", id="browser.refresh"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="browser.clear_filter"),
    ]

    DEFAULT_CSS = """
    BucketBrowserPane #browser-path { height: 1; padding: 0 1; text-style: bold; }
    BucketBrowserPane #browser-filter { height: 1; border: none; padding: 0 1; }
    BucketBrowserPane #browser-filter.-hidden { display: none; }
    BucketBrowserPane #browser-status { height: 1; padding: 0 1; color: $text-muted; }
    """

    def init_state(self) -> None:
        self.prefix = ""
        self.listing: FolderListing | None = None
        self._loading_more = False
        self._cursor_to: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="browser-path")
        yield Input(placeholder="filter…", id="browser-filter", classes="-hidden", compact=True)
        yield ResourceTable(COLUMNS, id="browser-table")
        yield Static("", id="browser-status")

    def on_mount(self) -> None:
        # Folders first, by name, as file browsers show them (o / O change the sort).
        self.table.sort_by(0)
        super().on_mount()

    # -- state ------------------------------------------------------------------------------

    @property
    def table(self) -> ResourceTable:
        """The folder's table."""
        return self.query_one("#browser-table", ResourceTable)

    @property
    def bucket(self) -> str:
        """The bucket's label."""
        return str(self.params.get("bucket", ""))

    def entry(self, key: Hashable | None) -> Entry | None:
        """The loaded entry with ``key``."""
        if key is None or self.listing is None:
            return None
        return next((e for e in self.listing.entries if e.key == key), None)

    def chosen(self) -> list[Entry]:
        """The marked entries, else the one under the cursor."""
        table = self.table
        marked = table.marked
        if marked:
            return [e for e in (self.listing.entries if self.listing else []) if e.key in marked]
        current = self.entry(table.cursor_key)
        return [current] if current is not None else []

    # -- loading ----------------------------------------------------------------------------

    async def _refresh(self) -> None:
        client = self.app.session.client  # type: ignore[attr-defined]
        before = len(self.listing.entries) if self.listing is not None else 0
        same_folder = self.listing is not None and self.listing.prefix == self.prefix
        if self.timed_refresh and same_folder and before > TIMED_RELOAD_LIMIT:
            # Reloading thousands of scrolled-through rows every timer tick costs many
            # requests; a large folder reloads when asked (r) or reopened.
            self._succeeded(transitional=False)
            return
        listing = FolderListing(client, dict(self.params), self.prefix)
        try:
            await listing.load_first()
            # A refresh keeps as many rows as were loaded (the cursor may be far down).
            while same_folder and listing.truncated and len(listing.entries) < before:
                await listing.load_more()
        except CloudError as error:
            self._status(describe_error(error))
            self._failed(error, transitional=False)
            return
        self.listing = listing
        self.loaded = True
        self._show(reset=not same_folder)
        self._succeeded(transitional=False)

    def _show(self, *, reset: bool) -> None:
        table = self.table
        listing = self.listing
        if listing is None:
            return
        rows = [entry_row(e) for e in listing.entries]
        if reset:
            table.clear()
            table.append_rows(rows)
            if self._cursor_to is not None:
                table.move_cursor(self._cursor_to)
                self._cursor_to = None
        else:
            table.update_rows([r.key for r in rows], rows)
        self.query_one("#browser-path", Static).update(
            Text(shown(breadcrumb(self.bucket, self.prefix)))
        )
        self._status()

    def _status(self, message: str = "") -> None:
        listing = self.listing
        text = Text()
        if listing is not None:
            count = len(listing.entries)
            text.append(f"{count} entries")
            if listing.truncated:
                text.append(" (more load as you scroll)")
            if not count:
                text.append(" · empty folder: U uploads here")
            marked = len(self.table.marked)
            if marked:
                text.append(f" · {marked} marked")
            if self.table.filter_text:
                text.append(" · filter: ")
                text.append(shown(self.table.filter_text))
        if message:
            text = Text(shown(message))
        self.query_one("#browser-status", Static).update(text)

    def on_resource_table_cursor_moved(self, event: CursorMoved) -> None:
        listing = self.listing
        if listing is None or self._loading_more:
            return
        # Near the end of the shown rows is near the end of what is loaded (filtered or not).
        shown_end = len(listing.entries) - self.table.row_count
        if listing.wants_more(self.table.cursor_row + shown_end):
            self._loading_more = True
            self.run_worker(self._more, group="more", exclusive=True, exit_on_error=False)  # type: ignore[arg-type]

    async def _more(self) -> None:
        listing = self.listing
        try:
            if listing is not None:
                new = await listing.load_more()
                if listing is self.listing and new:
                    self.table.append_rows(entry_row(e) for e in new)
                    self._status()
        except CloudError as error:
            self._status(describe_error(error))
        finally:
            self._loading_more = False

    def open_folder(self, prefix: str) -> None:
        """Show the folder ``prefix`` ('' for the bucket's root)."""
        self.prefix = prefix
        self.table.set_filter("")
        self.refresh_now()

    # -- keys -------------------------------------------------------------------------------

    def on_resource_table_selected(self, event: Selected) -> None:
        event.stop()
        entry = self.entry(event.key)
        if entry is None:
            return
        if entry.folder:
            self.open_folder(entry.key)
        else:
            self.action_view()

    def action_up(self) -> None:
        """Up one folder (the cursor lands on the folder just left)."""
        if self.prefix:
            self._cursor_to = self.prefix
            self.open_folder(parent_of(self.prefix))

    def action_refresh(self) -> None:
        """Reload the folder."""
        self.refresh_now()

    def action_filter(self) -> None:
        """Show the filter input."""
        field = self.query_one("#browser-filter", Input)
        field.remove_class("-hidden")
        field.focus()

    @on(Input.Changed, "#browser-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.table.set_filter(event.value.lower())
        self._status()

    @on(Input.Submitted, "#browser-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            # Without a filter, escape is the screen's: back to the bucket list.
            field = self.query_one("#browser-filter", Input)
            return bool(field.value) or not field.has_class("-hidden")
        if action == "up":
            return bool(self.prefix)
        return True

    def action_clear_filter(self) -> None:
        """Clear and hide the filter."""
        field = self.query_one("#browser-filter", Input)
        field.value = ""
        field.add_class("-hidden")
        self.table.set_filter("")
        self.table.focus()
        self._status()

    def run_flow(self, flow: Callable[[], Awaitable[None]]) -> None:
        """Run a dialog flow in a worker; keys wait for its first dialog (key gate)."""
        gate = getattr(self.app, "key_gate", None)
        token = gate.begin(self.screen) if gate is not None else None

        async def run() -> None:
            try:
                await flow()
            finally:
                if gate is not None:
                    gate.end(token)

        self.run_worker(run, group="flow", exclusive=True, exit_on_error=False)  # type: ignore[arg-type]

    def _one_object(self, what: Shown) -> Entry | None:
        entry = self.entry(self.table.cursor_key)
        if entry is None or entry.folder:
            self.app.notify(f"Select an object to {what}.", title=what.capitalize())
            return None
        return entry

    def action_view(self) -> None:
        """View the object under the cursor as text."""
        entry = self._one_object("view")
        if entry is not None:
            from screens.bucket_flows import view_object

            self.run_flow(lambda: view_object(self, entry))

    def action_share(self) -> None:
        """Make a share link for the object under the cursor."""
        entry = self._one_object("share")
        if entry is not None:
            from screens.bucket_flows import share_object

            self.run_flow(lambda: share_object(self, entry))

    def action_download(self) -> None:
        """Download the marked or selected objects (folders: everything in them)."""
        chosen = self.chosen()
        if not chosen:
            self.app.notify("Nothing to download: the folder is empty.", title="Download")
            return
        from screens.bucket_flows import download

        self.run_flow(lambda: download(self, chosen))

    def action_upload(self) -> None:
        """Upload a local file or directory into this folder."""
        from screens.bucket_flows import upload

        self.run_flow(lambda: upload(self))

    def action_delete(self) -> None:
        """Delete the marked or selected objects (folders: everything in them)."""
        chosen = self.chosen()
        if not chosen:
            self.app.notify("Nothing to delete.", title="Delete")
            return
        from screens.bucket_flows import delete

        self.run_flow(lambda: delete(self, chosen))

    def action_object_action(self, action_id: str) -> None:
        """Run one of the object spec's actions (pre-signed URL form, ACL) on the cursor."""
        entry = self._one_object("use")
        action = self.spec.action(action_id)
        if entry is None or action is None:
            return
        item = {"name": entry.key, "size": entry.size, "etag": entry.etag}
        start_action(self, self.screen, self.spec, action, item, dict(self.params))

    def transfers_done(self) -> None:
        """Something changed in the bucket: reload, and clear the marks."""
        if hasattr(self.app, "changes"):
            self.app.changes += 1
        self.table.clear()
        self.listing = None
        self.refresh_now()

    def palette_actions(self) -> list[Any]:
        """The object spec's actions on the entry under the cursor (for the palette)."""
        entry = self.entry(self.table.cursor_key)
        if entry is None or entry.folder:
            return []
        item = {"name": entry.key, "size": entry.size, "etag": entry.etag}
        return [(self.spec, action, item, dict(self.params)) for action in self.spec.actions]
