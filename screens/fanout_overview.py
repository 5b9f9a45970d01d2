"""``:fanout overview [PROFILE...]``: every account's counts, attention and monthly cost.

One row per account (as each answers) and a Total row over those that answered; below, what
needs attention in each account and why an account could not be shown. Read-only: it opens
no list (a list of another account is ``:fanout AREA``).

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| r | fanout_overview.refresh | Load every account again |
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static
from textual.worker import Worker

from screens.shell import ShellScreen, forward_worker_state
from tui.accounts.fanout import FanoutSessions, OverviewRequest
from tui.accounts.fanout_overview import (
    PARTS,
    AccountOverview,
    attention_lines,
    overview_all,
    overview_row,
    total_row,
)
from tui.resources.rows import TableColumn, TableRow
from tui.untrusted import shown
from widgets.resource_table import ResourceTable

COLUMNS = (
    TableColumn("Account"),
    *(TableColumn(title) for _part, title in PARTS),
    TableColumn("Attention"),
    TableColumn("Monthly"),
)

TOTAL_KEY = "~total"
"""Key of the Total row (sorts after every profile name)."""


class FanoutOverviewScreen(ShellScreen):
    """The overview of several accounts; the sessions it opened close with it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="fanout_overview.refresh"),
    ]

    DEFAULT_CSS = """
    FanoutOverviewScreen .ov-title {
        height: 1; padding: 0 1; background: $boost; text-style: bold;
    }
    FanoutOverviewScreen #fo-table { height: auto; max-height: 50%; }
    FanoutOverviewScreen #fo-attention { height: auto; padding: 0 1; margin-top: 1; }
    """

    def __init__(self, request: OverviewRequest, sessions: FanoutSessions) -> None:
        super().__init__()
        self.request = request
        self.sessions = sessions
        self.overviews: dict[str, AccountOverview] = {}

    def compose_content(self) -> ComposeResult:
        yield Static(classes="ov-title")
        yield ResourceTable(COLUMNS, id="fo-table")
        yield Static(id="fo-attention")

    def help_title(self) -> str:
        """Title of the ``?`` help."""
        return "Overview of every account"

    def on_mount(self) -> None:
        self.action_refresh()
        self.query_one(ResourceTable).focus()

    def action_refresh(self) -> None:
        """Load every account again."""
        self.overviews.clear()
        self._draw()
        self.run_worker(self._load(), group="fanout-overview", exclusive=True, exit_on_error=False)

    async def _load(self) -> None:
        now: float = getattr(self.app, "now", lambda: 0.0)()
        await overview_all(self.sessions, self.request.profiles, now, self._arrived)

    def _arrived(self, overview: AccountOverview) -> None:
        self.overviews[overview.account] = overview
        self._draw()

    def _draw(self) -> None:
        if not self.is_mounted:
            return
        names = self.request.profiles
        arrived = [self.overviews[n] for n in names if n in self.overviews]
        waiting = [n for n in names if n not in self.overviews]
        title = Text(f"Overview of {len(names)} accounts", style="bold")
        if waiting:
            title.append(f"  waiting for {shown(', '.join(waiting))}…", style="italic")
        self.query_one(".ov-title", Static).update(title)
        table = self.query_one(ResourceTable)
        table.clear()
        rows = [
            TableRow(o.account, cells, cells, "error" if o.problem() else None, " ".join(cells))
            for o in arrived
            for cells in (tuple(shown(cell) for cell in overview_row(o)),)
        ]
        if arrived:
            cells = tuple(shown(cell) for cell in total_row(arrived))
            rows.append(TableRow(TOTAL_KEY, cells, cells, None, " ".join(cells)))
        table.append_rows(rows)
        lines = attention_lines(arrived)
        text = Text(shown("\n".join(lines), lines=True) if lines else "Nothing needs attention.")
        self.query_one("#fo-attention", Static).update(text)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        forward_worker_state(self, event)

    async def on_unmount(self) -> None:
        await self.sessions.aclose()
