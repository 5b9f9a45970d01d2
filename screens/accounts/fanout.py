"""``:fanout AREA [PROFILE...]``: one table of the items of several accounts.

Each account is listed concurrently through its own session (:mod:`tui.accounts.fanout`); its rows
appear as soon as it answers, and an account that fails shows its own error line under the
table without hiding the others. The Account column is the first, and the ``/`` filter
language applies (``account:prod``). An action on a row runs against that row's account, and
its dialogs name the account. A row's account refuses changes while it is read-only, or while
the app's own account is (the status bar of this screen then says READ-ONLY); the list follows
``:read-only`` while it is open.

Bindings (besides the table's and the listed kind's actions on an item):

| Key | Id | Description |
| :- | :- | :- |
| / | fanout.filter | Filter as you type (``account:NAME``, ``status:running`` ...) |
| r | fanout.refresh | List every account again |
| enter | | The item's detail screen, in its account (the app moves to that account first) |
| J | fanout.json | Raw JSON of the item under the cursor |
| escape | fanout.clear_filter | Clear the filter |
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Hashable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from screens.accounts.switch import switch_account
from screens.actions.start import action_for_key, add_action_bindings, start_action
from screens.app_surface import surface
from screens.frame import ShellScreen, WorkerForwarding
from screens.lists.filter import FilteredTableParts, RowFilter
from screens.lists.pane import show_json
from screens.navigation import OpenItem
from tui.accounts.fanout import (
    ACCOUNT_FIELD,
    AccountListing,
    CheckRequest,
    FanoutRequest,
    FanoutSessions,
    OverviewRequest,
    fanout_spec,
    own_item,
    row_key,
)
from tui.accounts.state import StateChange
from tui.accounts.switch import AccountUnavailable
from tui.api import collector
from tui.api.changes import ChangeEvent
from tui.resources.availability import UserContext, availability
from tui.resources.rows import table_columns, table_row
from tui.resources.spec import Action, ResourceSpec
from tui.session.runtime import Session
from tui.untrusted import shown
from widgets.list_lines import ListHeader, ListMessage
from widgets.resource_table import ResourceTable
from widgets.table_messages import Selected

GENERIC_FLOWS = frozenset({"tags.edit"})
"""Hand-written action flows that send only through the action's own session; the others
(statistics, hand-offs, browsers ...) read the app's session and are not offered here."""


ROWS_PER_TURN = 250
"""Rows of an account added to the table in one turn of the event loop (~14 ms of CPU on a
loaded 2-core machine)."""


def fanout_actions(spec: ResourceSpec) -> tuple[Action, ...]:
    """The actions a fanout row offers: item actions whose every request goes to its account."""
    return tuple(
        a
        for a in spec.actions
        if a.target == "item" and (a.screen is None or a.screen in GENERIC_FLOWS)
    )


class FanoutPane(WorkerForwarding, FilteredTableParts, Vertical):
    """The table of every account's items, its filter and one line per failed account."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="fanout.filter"),
        Binding("r", "refresh", "Refresh", id="fanout.refresh"),
        Binding("J", "json", "JSON", id="fanout.json"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="fanout.clear_filter"),
    ]

    DEFAULT_CSS = """
    FanoutPane { height: 1fr; }
    FanoutPane .fanout-errors { height: auto; max-height: 6; padding: 0 1; color: $text-error; }
    """

    def __init__(self, request: FanoutRequest, sessions: FanoutSessions) -> None:
        super().__init__()
        self.request = request
        self.spec = fanout_spec(request.spec)
        self.actions = fanout_actions(request.spec)
        self.sessions = sessions
        self.items: dict[Hashable, dict[str, Any]] = {}
        self.listings: dict[str, AccountListing] = {}
        self._slice = asyncio.Lock()
        """Held while a slice of an account's rows is made (see :meth:`_arrived`)."""
        self.filter = RowFilter(self.spec)
        add_action_bindings(self, self.actions)

    def compose(self) -> ComposeResult:
        yield ListHeader(classes="list-header")
        yield ResourceTable(table_columns(self.spec), classes="list-table")
        yield Static(classes="fanout-errors")
        yield ListMessage()

    def set_filter_text(self, text: str) -> None:
        """Filter the rows by ``text`` (``account:prod status:running``; empty: every row)."""
        self.filter.set_text(text)
        self._apply_filters()
        self._update_header()
        self._update_message()

    def _apply_filters(self) -> None:
        self.filter.apply(self.table, lambda key: self.items.get(key, {}))

    @property
    def current_item(self) -> dict[str, Any] | None:
        """The item under the cursor (with its account field)."""
        key = self.table.cursor_key
        return self.items.get(key) if key is not None else None

    def on_mount(self) -> None:
        self.action_refresh()
        self.table.focus()
        # Read-only turned on or off: the rows' actions are checked again.
        surface(self).account_signal.subscribe(self, self._account_changed, immediate=True)

    def _account_changed(self, what: StateChange) -> None:
        if what == "user":
            self.sessions.follow_read_only()
            self.screen.refresh_bindings()

    # -- loading ----------------------------------------------------------------------------

    def action_refresh(self) -> None:
        """List every account again."""
        self.items.clear()
        self.listings.clear()
        self.table.clear()
        self._update_header()
        self._update_message()
        self._load()

    @work(group="fanout", exclusive=True, exit_on_error=False, name="listing every account")
    async def _load(self) -> None:
        await self.sessions.list_all(self.request.profiles, self.request.spec, self._arrived)
        self._update_message()

    async def _arrived(self, listing: AccountListing) -> None:
        """One account answered: its rows join the table, :data:`ROWS_PER_TURN` per turn of the
        event loop (10,000 rows are ~0.5 s of CPU to build), or its error line shows."""
        items = listing.items
        # Every row made here survives: the collector's passes meanwhile would only re-scan
        # them (and the listings), in the middle of a slice (see tui.api.collector).
        release = collector.hold()
        try:
            for start in range(0, len(items), ROWS_PER_TURN):
                # One slice per turn whatever the number of accounts arriving together: the
                # accounts take turns (the lock serves its waiters in order), keys and repaints
                # come between two slices.
                async with self._slice:
                    rows = []
                    for item in items[start : start + ROWS_PER_TURN]:
                        key = row_key(listing.account, self.request.spec, item)
                        self.items[key] = item
                        row = table_row(self.spec, item)
                        rows.append(
                            type(row)(key, row.cells, row.sort_keys, row.tone, row.haystack)
                        )
                    self.table.append_rows(rows)
                    await asyncio.sleep(0)
        finally:
            collector.release_and_sweep(release)  # in a turn of its own
        self.listings[listing.account] = listing
        self._apply_filters()
        self._update_header()
        self._update_message()

    # -- header and messages ----------------------------------------------------------------

    def _update_header(self) -> None:
        if not self.is_mounted:
            return
        names = self.request.profiles
        text = Text(f"{self.request.spec.title} in {len(names)} accounts", style="bold")
        text.append(f"  {len(self.items):,} results")
        on_screen = self.table.row_count
        if on_screen != len(self.items):
            text.append(f" · {on_screen:,} shown")
        waiting = [n for n in names if n not in self.listings]
        if waiting:
            text.append(f"  waiting for {shown(', '.join(waiting))}…", style="italic")
        if self.filter.text:
            text.append("  filter: ")
            text.append(shown(self.filter.text))  # what the user typed (or pasted)
        self.header.title_text = text

    def _update_message(self) -> None:
        if not self.is_mounted:
            return
        errors = Text()
        for name in self.request.profiles:
            listing = self.listings.get(name)
            if listing is not None and listing.error:
                if errors:
                    errors.append("\n")
                # The reason may quote the server.
                errors.append(shown(f"✖ {name}: {listing.error_title}. {listing.error}"))
        self.query_one(".fanout-errors", Static).update(errors)
        message = ""
        if self.items and self.table.row_count == 0:
            problem = self.filter.missing_fields_note(self.items.values())
            message = f"{problem} No rows match the filter. Escape clears it."
        self.query_one(ListMessage).say(shown(message.strip()))

    # -- filter -----------------------------------------------------------------------------

    @on(Input.Changed, ".list-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.set_filter_text(event.value)

    @on(Input.Submitted, ".list-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not event.value:
            self.header.hide_filter()
        self.table.focus()

    def action_filter(self) -> None:
        """Show the filter input and focus it."""
        self.header.show_filter()

    def action_clear_filter(self) -> None:
        """Clear and hide the filter."""
        self.header.hide_filter(clear=True)
        self.set_filter_text("")
        self.table.focus()

    @on(ResourceTable.Selected)
    def _selected(self, event: Selected) -> None:
        """Enter: the item's detail screen, in its account (the app moves there first when it
        is another: a detail screen, its tabs and actions are the app's account's)."""
        event.stop()
        item = self.current_item
        if item is None:
            return
        spec, account, own = self.request.spec, str(item[ACCOUNT_FIELD]), own_item(item)
        session = surface(self).state.session
        if session is not None and session.profile_name == account:
            self.post_message(OpenItem(spec, own, {}))
            return
        app = self.app  # the detail opens once the app is on the account: this pane is gone

        def open_it() -> None:
            app.post_message(OpenItem(spec, own, {}))

        switch_account(app, account, then=open_it)

    def action_json(self) -> None:
        """Show the raw JSON of the item under the cursor."""
        item = self.current_item
        show_json(self, f"{self.request.spec.singular} {self.spec.display_label(item or {})}", item)

    # -- actions on a row -------------------------------------------------------------------

    def _row_availability(self, action: Action) -> tuple[bool, str]:
        item = self.current_item
        if item is None:
            return False, "no row under the cursor"
        read_only = self.sessions.read_only(str(item[ACCOUNT_FIELD]))
        # The app knows the grants of its own account only: the API judges the others.
        return availability(
            self.request.spec, action, own_item(item), UserContext(read_only=read_only)
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "run_action" and parameters:
            spec_action = self.request.spec.action(str(parameters[0]))
            if spec_action is None or spec_action not in self.actions:
                return False
            return True if self._row_availability(spec_action)[0] else None
        if action == "clear_filter":
            return self.filter_input.has_focus or bool(self.filter_text)
        return True

    def on_key(self, event: events.Key) -> None:
        # A greyed action's key still says why it is not available.
        action_id = action_for_key(self, event.key)
        action = self.request.spec.action(action_id) if action_id else None
        if action is None or action not in self.actions:
            return
        enabled, reason = self._row_availability(action)
        if not enabled:
            event.stop()
            self.app.notify(
                shown(reason), title=f"{shown(action.label)}: not available", markup=False
            )

    def action_run_action(self, action_id: str) -> None:
        """Run an action on the row under the cursor, against that row's account."""
        action = self.request.spec.action(action_id)
        item = self.current_item
        if action is None or action not in self.actions or item is None:
            return
        account = str(item[ACCOUNT_FIELD])
        try:
            session = self.sessions.session(account)
        except AccountUnavailable as exc:
            self.app.notify(shown(exc), title=shown(account), severity="error", markup=False)
            return
        own = own_item(item)
        params = self.request.spec.params_for(own, {})
        spec = self.request.spec

        async def run() -> bool:
            from screens.actions.run import run_action

            return bool(await run_action(self.screen, spec, action, own, params, session))

        def after(changed: bool) -> None:
            if changed:
                self.action_refresh()

        start_action(self, self.screen, spec, action, own, params, after, run)


class FanoutScreen(ShellScreen):
    """The fanout list in the app's frame; its sessions close with it."""

    def __init__(self, request: FanoutRequest, sessions: FanoutSessions) -> None:
        super().__init__()
        self.request = request
        self.sessions = sessions

    def compose_content(self) -> ComposeResult:
        yield FanoutPane(self.request, self.sessions)

    def help_title(self) -> str:
        """Title of the ``?`` help."""
        return f"{self.request.spec.title} across accounts"

    async def on_unmount(self) -> None:
        await self.sessions.aclose()


def open_fanout(app: App[Any], request: FanoutRequest | OverviewRequest | CheckRequest) -> None:
    """Push the fanout list (or overview, or check) of ``request``; other accounts' changes go
    to their own activity logs."""
    state = surface(app).state

    def current() -> Session | None:
        return state.session

    def read_only(account: str) -> bool:
        session = current()
        own = session.profile_name if session is not None else None
        return state.read_only_rules.seen_from(account, own)

    sessions = FanoutSessions(
        state.settings, current, state.account_opener, read_only=read_only, on_open=_log_changes
    )
    if isinstance(request, OverviewRequest):
        from screens.accounts.fanout_overview import FanoutOverviewScreen

        app.push_screen(FanoutOverviewScreen(request, sessions))
        return
    if isinstance(request, CheckRequest):
        from screens.accounts.fanout_check import FanoutCheckScreen

        app.push_screen(FanoutCheckScreen(request, sessions))
        return
    app.push_screen(FanoutScreen(request, sessions))


def _log_changes(session: Session) -> None:
    """Record the changes sent to another account in that profile's activity log."""
    from tui.home.activity import ActivityLog

    try:
        log = ActivityLog(session.profile_name)
    except OSError:
        return  # the app's own account reports an unwritable data folder once

    def record(event: ChangeEvent) -> None:
        with contextlib.suppress(OSError):  # a full disk must not fail the change itself
            log.record(event)

    session.client.change_observers.append(record)
