"""``:fanout check [PROFILE...]``: the account check of several accounts, one row per finding.

Every account is checked at once through its own session, with its own silences; its rows
join the table as it ends, and an account that cannot be checked says why under the table
without hiding the others. Enter opens the object in its account (the app moves there first);
``f`` sends a row's fix to that row's account, after the usual confirmation naming it, and
checks that account again. Silencing is ``:check``'s, on the account the app is on.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | table.select | The finding's object, in its account |
| f | fanout_check.fix | Fix the row's finding in its account (confirmed first) |
| r | fanout_check.refresh | Check every account again |
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from screens.accounts.switch import switch_account
from screens.app_surface import Change, surface
from screens.frame import ShellScreen
from screens.navigation import OpenItem
from tui.accounts.fanout import CheckRequest, FanoutSessions
from tui.accounts.fanout_check import (
    check_all,
    check_one,
    finding_cells,
    problem_lines,
    totals_line,
)
from tui.accounts.switch import AccountUnavailable
from tui.api.changes import change_target
from tui.api.errors import CloudError
from tui.check.account import PARENT
from tui.check.display import SEVERITY_TONES
from tui.check.model import Finding
from tui.check.run import AccountCheck, apply_fix
from tui.check.silences import Silences
from tui.refresh import describe_error, error_title
from tui.resources.areas import SPECS
from tui.resources.rows import TableColumn, TableRow
from tui.session.runtime import Session
from tui.untrusted import shown
from widgets.resource_table import ResourceTable
from widgets.table_messages import Selected

COLUMNS = (
    TableColumn("Account"),
    TableColumn("Severity", 10),
    TableColumn("Finding"),
    TableColumn("Object"),
    TableColumn("What"),
    TableColumn("Saving", numeric=True),
)


class FanoutCheckScreen(ShellScreen):
    """The check of several accounts; the sessions it opened close with it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f",
            "fix",
            "Fix",
            id="fanout_check.fix",
            tooltip="Send the row's fix to its account: previewed and confirmed first",
        ),
        Binding("r", "refresh", "Refresh", id="fanout_check.refresh"),
    ]

    DEFAULT_CSS = """
    FanoutCheckScreen .fc-title { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    FanoutCheckScreen #fc-table { height: 1fr; }
    FanoutCheckScreen #fc-problems { height: auto; max-height: 6; padding: 0 1; }
    """

    def __init__(self, request: CheckRequest, sessions: FanoutSessions) -> None:
        super().__init__()
        self.request = request
        self.sessions = sessions
        self.checks: dict[str, AccountCheck] = {}
        self.findings: dict[Hashable, tuple[str, Finding]] = {}

    def compose_content(self) -> ComposeResult:
        yield Static(classes="fc-title")
        yield ResourceTable(COLUMNS, id="fc-table")
        yield Static(id="fc-problems")

    def help_title(self) -> str:
        """Title of the ``?`` help."""
        return "Check of every account"

    def on_mount(self) -> None:
        self.action_refresh()
        self.query_one(ResourceTable).focus()

    def action_refresh(self) -> None:
        """Check every account again."""
        self.checks.clear()
        self.findings.clear()
        self.query_one(ResourceTable).clear()
        self._draw()
        self._load()

    def _silences_of(self, name: str) -> Silences | None:
        state = surface(self).state
        session = state.session
        if session is not None and session.profile_name == name:
            return state.check_silences  # the app's own (the demo's live in its run's folder)
        try:
            return Silences(name)
        except OSError:
            return None

    @work(group="fanout-check", exclusive=True, exit_on_error=False, name="checking accounts")
    async def _load(self) -> None:
        settings = surface(self).state.settings
        await check_all(
            self.sessions, self.request.profiles, settings, self._silences_of, self._arrived
        )

    def _arrived(self, check: AccountCheck) -> None:
        table = self.query_one(ResourceTable)
        gone = [key for key, (account, _f) in self.findings.items() if account == check.account]
        for key in gone:  # the account checked again: its rows are replaced
            del self.findings[key]
        if gone:
            table.update_rows(list(self.findings))
        self.checks[check.account] = check
        rows = []
        for finding in check.findings:
            key = (check.account, finding.id)
            self.findings[key] = (check.account, finding)
            cells = tuple(shown(cell) for cell in finding_cells(check.account, finding))
            tone = SEVERITY_TONES[finding.severity]
            sort = (check.account, -finding.severity, *cells[2:])
            rows.append(TableRow(key, cells, sort, tone, " ".join(cells).lower()))
        if self.is_mounted:
            table.append_rows(rows)
            self._draw()

    def _draw(self) -> None:
        if not self.is_mounted:
            return
        names = self.request.profiles
        arrived = [self.checks[n] for n in names if n in self.checks]
        waiting = [n for n in names if n not in self.checks]
        title = Text(f"Check of {len(names)} accounts  ", style="bold")
        title.append(shown(totals_line(arrived)))
        if waiting:
            title.append(f"  checking {shown(', '.join(waiting))}…", style="italic")
        self.query_one(".fc-title", Static).update(title)
        lines = problem_lines(arrived)
        self.query_one("#fc-problems", Static).update(Text(shown("\n".join(lines), lines=True)))

    @on(Selected, "#fc-table")
    def _selected(self, event: Selected) -> None:
        """Enter: the object's detail screen, in its account (moving there first)."""
        event.stop()
        found = self.findings.get(event.key)
        if found is None:
            return
        account, finding = found
        spec = SPECS[finding.subject.kind]
        item = dict(finding.subject.item)
        parent = item.pop(PARENT, None)
        params = dict(parent) if isinstance(parent, dict) else {}
        session = surface(self).state.session
        if session is not None and session.profile_name == account:
            self.post_message(OpenItem(spec, item, params))
            return
        app = self.app

        def open_it() -> None:
            app.post_message(OpenItem(spec, item, params))

        switch_account(app, account, then=open_it)

    def action_fix(self) -> None:
        """Send the fix of the row under the cursor to the row's account."""
        key = self.query_one(ResourceTable).cursor_key
        found = self.findings.get(key) if key is not None else None
        if found is None:
            return
        account, finding = found
        if not finding.requests:
            manual = shown(finding.rule.manual)
            self.app.notify(f"No request fixes this: {manual}", title="Fix", markup=False)
            return
        if self.sessions.read_only(account):
            self.app.notify(f"{shown(account)} is read-only.", title="Fix", markup=False)
            return
        try:
            session = self.sessions.session(account)
        except AccountUnavailable as exc:
            self.app.notify(shown(exc), title=shown(account), severity="error", markup=False)
            return
        self._fix(session, finding)

    @work(group="fanout-check-fix", exclusive=True, exit_on_error=False, name="fixing a finding")
    async def _fix(self, session: Session, finding: Finding) -> None:
        from screens.home.check_dialogs import fix_confirmation

        if not await self.app.push_screen_wait(fix_confirmation(finding, session.mark)):
            return
        try:
            with change_target(finding.subject.label):
                await apply_fix(session.client, finding)
        except CloudError as error:
            self.app.notify(
                describe_error(error),
                title=f"{shown(session.profile_name)}: {error_title(error)}",
                severity="error",
                markup=False,
            )
            return
        finally:
            if session is surface(self).state.session:
                surface(self).change_signal.publish(Change())
        settings = surface(self).state.settings
        name = session.profile_name
        self._arrived(await check_one(self.sessions, name, settings, self._silences_of))

    async def on_unmount(self) -> None:
        await self.sessions.aclose()
