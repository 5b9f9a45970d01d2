"""``:overview``, the landing area: counts, what needs attention, estimated monthly cost.

The areas' lists load in parallel (bounded, see :func:`tui.home.overview.load_overview`) and each
part is drawn as soon as it arrives; nothing waits for the slowest list and keys are never held
(the drawing is coalesced to a few frames a second). Refresh follows the usual adaptive policy:
fast while an instance changes state, slow otherwise, paused while the screen is not shown.
A list that could not be loaded is named under the attention rows with the reason; "Nothing
needs attention" is said only once every list has loaded.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| enter | table.select | Open the list filtered to the attention row's items |
| c | overview.cost | Estimated monthly cost by area and by tag |
| r | overview.refresh | Load everything again |
| ctrl+d / ctrl+u | overview.scroll_down / up | Scroll the page |
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from screens.app_surface import signed_in, surface
from screens.frame import ShellScreen
from screens.refresh_timer import RefreshTimer
from tui.home.overview import (
    Attention,
    CountLine,
    OverviewData,
    attention_note,
    counts,
    load_overview,
    snapshot,
    summarize,
)
from tui.resources.areas import SPECS
from tui.resources.rows import TableColumn, TableRow
from tui.resources.spec import TRANSITIONAL_STATUSES
from tui.untrusted import shown
from widgets.resource_table import ResourceTable
from widgets.table_messages import Selected

if TYPE_CHECKING:
    from tui.check.overview import OverviewCheck

REDRAW_EVERY = 0.15
"""Seconds between two redraws while parts stream in (every chunk would redraw 100 times)."""

ATTENTION_COLUMNS = (
    TableColumn("Needs attention", None),
    TableColumn("Opens", None),
)


def attention_row(index: int, item: Attention) -> TableRow:
    """One attention row: what and how many, and the filter it opens the list with."""
    cells = (shown(item.text()), shown(f":{item.area_id}  {item.query}"))
    return TableRow(index, cells, (index, item.query), "warn", " ".join(cells).lower())


class OverviewScreen(ShellScreen):
    """Counts, attention items and monthly cost of the whole account."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "cost", "Cost", id="overview.cost"),
        Binding("r", "refresh", "Refresh", id="overview.refresh"),
        Binding("ctrl+d", "scroll(1)", "Scroll", show=False, id="overview.scroll_down"),
        Binding("ctrl+u", "scroll(-1)", "Scroll up", show=False, id="overview.scroll_up"),
    ]

    DEFAULT_CSS = """
    OverviewScreen #overview-scroll { height: 1fr; }
    OverviewScreen .ov-title { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    OverviewScreen .ov-heading { height: 1; padding: 0 1; margin-top: 1; text-style: bold; }
    OverviewScreen .ov-block { height: auto; padding: 0 1; }
    OverviewScreen .ov-muted { color: $text-muted; }
    OverviewScreen #ov-attention { height: 2; margin-top: 1; }
    """

    def compose_content(self) -> ComposeResult:
        yield Static(Text("Overview"), classes="ov-title", id="ov-title")
        with VerticalScroll(id="overview-scroll", can_focus=False):
            yield Static(Text("Loading…"), classes="ov-block", id="ov-counts")
            yield ResourceTable(ATTENTION_COLUMNS, id="ov-attention")
            yield Static(classes="ov-block ov-muted", id="ov-attention-note")
            yield Static(Text("Estimated monthly cost"), classes="ov-heading")
            yield Static(Text("Loading…"), classes="ov-block", id="ov-cost")
            yield Static(Text("Check (:check)"), classes="ov-heading")
            yield Static(Text("Loading…"), classes="ov-block", id="ov-check")
            yield Static(Text("Previous session"), classes="ov-heading", id="ov-previous-head")
            yield Static(classes="ov-block ov-muted", id="ov-previous")

    def on_mount(self) -> None:
        self.data = OverviewData()
        self.items: list[Attention] = []
        self.loaded = False
        self._redraw_timer: Any = None
        self._drawn_version = -1
        self._drawn_data: OverviewData | None = None
        self.drawn: OverviewData | None = None
        """The data the counts, attention rows and cost on screen were computed from."""
        self.check: OverviewCheck | None = None
        """The findings counted from the lists loaded here (None until counted)."""
        self.refresher = RefreshTimer(self, self.refresh_all)
        self.refresher.configure()
        self._show_previous()
        self.refresh_all()
        self.query_one("#ov-attention", ResourceTable).focus()

    # -- loading ----------------------------------------------------------------------------

    def refresh_all(self) -> None:
        """Load every part again (the timer, ``r`` and ``:refresh``)."""
        self._load()

    @work(group="overview", exclusive=True, exit_on_error=False, name="loading the overview")
    async def _load(self) -> None:
        data = OverviewData()
        if not self.loaded:
            self.data = data  # the first load shows each part as it arrives
        client = signed_in(self).client
        concurrency = max(2, min(6, client.max_concurrency // 2))
        await load_overview(client, data, self._arrived, concurrency=concurrency)
        self.data = data
        self.loaded = True
        self._drawn_version = -1  # drawn once more as a whole: the note now knows it is done
        self._redraw()
        self._count_findings(data)
        changing = SPECS["compute.instances"].transitional or TRANSITIONAL_STATUSES
        busy = any(i.get("status") in changing for i in data.items("instances"))  # ~1 ms
        if data.last_error is not None and not data.parts:
            self.refresher.failed(data.last_error, transitional=busy)  # nothing answered
        else:
            self.refresher.succeeded(transitional=busy)

    def _arrived(self, _part: str) -> None:
        # Coalesce: a 10,000-instance list arrives in 100 chunks; redraw a few times a second.
        if self._redraw_timer is None:
            self._redraw_timer = self.set_timer(REDRAW_EVERY, self._timer_redraw)

    def on_screen_suspend(self) -> None:
        self.refresher.set_visible(False, loaded=self.loaded)

    def on_screen_resume(self) -> None:
        self.refresher.set_visible(True, loaded=self.loaded)
        self._show_previous()

    # -- drawing ----------------------------------------------------------------------------

    def _timer_redraw(self) -> None:
        self._redraw_timer = None
        self._redraw()

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        data = self.data
        if data.version != self._drawn_version or data is not self._drawn_data:
            # Attention and cost change only when a part completes; they are computed in a
            # thread (60 ms of CPU for 10,000 instances would hold every key meanwhile).
            self._drawn_version, self._drawn_data = data.version, data
            self._summarize(snapshot(data))
        elif data.loading:
            self._show_counts(counts(data))  # only the progress of the lists streaming in
        title = Text("Overview", style="bold")
        if not self.loaded:
            title.append("  loading…", style="italic")
        self.query_one("#ov-title", Static).update(title, layout=False)

    # The description is not repr(): it would print every item.
    @work(
        group="overview-draw",
        name="summing up the overview",
        description="overview summary",
        exclusive=True,
        exit_on_error=False,
    )
    async def _summarize(self, data: OverviewData) -> None:
        now = surface(self).state.now()
        summary = await asyncio.to_thread(summarize, data, now)
        if not self.is_mounted:
            return
        self.items = summary.attention
        self._show_counts(summary.counts)
        self._show_attention(data)
        self.query_one("#ov-cost", Static).update(Text(shown(summary.cost, lines=True)))
        self.drawn = data

    @work(
        group="overview-check",
        name="counting the findings",
        description="overview check",
        exclusive=True,
        exit_on_error=False,
    )
    async def _count_findings(self, data: OverviewData) -> None:
        """The rules that need only the lists loaded here, run in a thread (see
        :mod:`tui.check.overview`)."""
        from tui.check.overview import overview_check, overview_line

        state = surface(self).state
        found = await asyncio.to_thread(
            overview_check,
            dict(data.parts),
            now=state.now(),
            important_tags=state.settings.check.important_tags,
            silences=state.check_silences,
        )
        self.check = found
        if self.is_mounted:
            text = Text(shown(overview_line(found), lines=True))
            self.query_one("#ov-check", Static).update(text)

    def _show_counts(self, lines: list[CountLine]) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, line in enumerate(lines):
            if index:
                text.append("\n")
            # Errors quote the server; details count statuses that come from the API.
            text.append(f"{shown(line.area):<20}", style="bold")
            if line.error:
                # Why is said once under the attention rows, for every list it stopped.
                text.append("  ✖ not loaded", style="italic")
            elif line.total is None:
                text.append(f"  {shown(line.detail) or 'loading…'}", style="italic")
            else:
                text.append(f"{line.total:>7,}")
                if line.detail:
                    text.append(f"  {shown(line.detail)}")
        # Always one line per area: no layout needed while the figures move.
        counts_widget = self.query_one("#ov-counts", Static)
        counts_widget.update(text, layout=counts_widget.size.height != text.plain.count("\n") + 1)

    def _show_attention(self, data: OverviewData) -> None:
        table = self.query_one("#ov-attention", ResourceTable)
        rows = [attention_row(i, item) for i, item in enumerate(self.items)]
        table.update_rows([r.key for r in rows], rows)
        table.styles.height = min(len(rows), 10) + 1 if rows else 1
        lines = attention_note(data, found=len(rows), done=self.loaded)
        self.query_one("#ov-attention-note", Static).update(
            Text(shown("\n".join(lines), lines=True))
        )

    def _show_previous(self) -> None:
        log = surface(self).state.activity
        previous = log.previous[:3] if log is not None else []
        text = Text("\n".join(shown(e.summary()) for e in previous) if previous else "")
        self.query_one("#ov-previous", Static).update(text)
        self.query_one("#ov-previous", Static).display = bool(previous)
        self.query_one("#ov-previous-head", Static).display = bool(previous)

    # -- actions ----------------------------------------------------------------------------

    @on(ResourceTable.Selected, "#ov-attention")
    def _selected(self, event: Selected) -> None:
        event.stop()
        index = event.key
        if isinstance(index, int) and 0 <= index < len(self.items):
            from screens.home.attention import show_attention

            show_attention(self.app, self.items[index])

    def action_refresh(self) -> None:
        """Load everything again."""
        self.refresh_all()

    def action_scroll(self, pages: int) -> None:
        """Scroll the page by half a screen."""
        scroll = self.query_one("#overview-scroll", VerticalScroll)
        scroll.scroll_relative(y=pages * max(1, scroll.size.height // 2), animate=False)

    def action_cost(self) -> None:
        """The estimated monthly cost by area and by tag."""
        from screens.home.overview_cost import CostScreen

        self.app.push_screen(CostScreen(self.data))
