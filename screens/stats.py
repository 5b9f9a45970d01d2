"""Numbers over time as charts (last 24 hours or a chosen month), and transfer against quota.

:class:`StatsPane` draws every spec with ``charts``: an instance's Stats tab (and, through
:func:`open_stats`, the ``s`` action as a screen of its own) and the managed Stats tab. One
chart is drawn at a time (``c`` cycles CPU, disk I/O, traffic) above a summary of every series
in its unit, so the view reads at 80x24 as well as at 200x60. The month keys work where the
spec has a ``month_endpoint``.

Bindings of the pane:

| Key | Id | Description |
| :- | :- | :- |
| c | stats.chart | Next chart |
| t | stats.day | Last 24 hours |
| m | stats.month | Month view (this month) |
| < / > | stats.prev / stats.next | Previous / next month |
| r | list.refresh | Refresh |
| J | list.json | Raw JSON |
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import ProgressBar, Static
from textual_plotext import PlotextPlot

from screens.pane import RefreshingPane, show_json
from screens.shell import ShellScreen
from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.resources.areas import SPECS
from tui.resources.format import format_value
from tui.resources.stats import (
    Chart,
    Month,
    axis_ticks,
    charts_of,
    clamp_month,
    human_rate,
    transfer_usage,
)
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from screens.actions import ActionContext

ENDPOINTS: tuple[str, ...] = (
    "compute.transfer.view",
    "compute.transfer.month",
)
"""Operations this module calls by name (the coverage test checks they are reachable); the
statistics pane calls its spec's ``list_endpoint`` and ``month_endpoint``."""

MARKERS = ("braille", "dot", "+", "x")
"""One marker per series, so lines stay apart without colour (NO_COLOR)."""

EARLIEST_MONTH = Month(2000, 1)


class _MonthPaging:
    """Mixin state of panes that show "now" or a chosen month."""

    month: Month | None = None
    """None: the current period (24 hours, or this month's transfer)."""

    def _now(self) -> float:
        now = getattr(self.app, "now", None)  # type: ignore[attr-defined]
        return float(now()) if callable(now) else datetime.now(UTC).timestamp()

    def _shift_month(self, delta: int) -> None:
        latest = Month.of(self._now())
        start = self.month or latest
        self.month = clamp_month(start.shift(delta), EARLIEST_MONTH, latest)


class StatsPane(_MonthPaging, RefreshingPane):
    """The charts of a spec with ``charts`` (an instance's or the managed instances' usage)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "next_chart", "Next chart", id="stats.chart"),
        Binding("t", "day", "24 h", id="stats.day"),
        Binding("m", "month", "Month", id="stats.month"),
        Binding("less_than_sign", "shift(-1)", "Prev month", id="stats.prev"),
        Binding("greater_than_sign", "shift(1)", "Next month", id="stats.next"),
        Binding("r", "refresh", "Refresh", id="list.refresh"),
        Binding("J", "json", "JSON", id="list.json"),
    ]

    DEFAULT_CSS = """
    StatsPane { height: 1fr; }
    StatsPane .stats-header { height: 1; padding: 0 1; background: $boost; }
    StatsPane PlotextPlot { height: 1fr; min-height: 8; }
    StatsPane .stats-summary { height: auto; padding: 0 1; }
    StatsPane .stats-message { height: auto; padding: 0 1; color: $text-error; }
    StatsPane .stats-message.-hidden { display: none; }
    """

    can_focus = True

    def init_state(self) -> None:
        self.stats: dict[str, Any] = {}
        self.charts: tuple[Chart, ...] = ()
        self.chart_index: int = 0

    def compose(self) -> ComposeResult:
        yield Static(classes="stats-header")
        yield Static(classes="stats-message -hidden")
        yield PlotextPlot()
        yield Static(classes="stats-summary")

    def on_mount(self) -> None:
        self._header()

    # -- data -------------------------------------------------------------------------------

    @property
    def period(self) -> str:
        """What is shown: ``last 24 hours`` or the month's name."""
        return self.month.label() if self.month else "last 24 hours"

    async def _refresh(self) -> None:
        client = self.app.session.client  # type: ignore[attr-defined]
        try:
            if self.month is None or self.spec.month_endpoint is None:
                self.stats = await client.call(self.spec.list_endpoint, self.params, model=dict)
            else:
                params = {**self.params, "year": self.month.year, "month": self.month.month}
                self.stats = await client.call(self.spec.month_endpoint, params, model=dict)
        except CloudError as error:
            self._failed(error, False)
            self._message(describe_error(error))
            return
        self.loaded = True
        self._message("")
        answer = self.stats if isinstance(self.stats, Mapping) else {}
        self.charts = charts_of(answer, self.spec.charts)
        self._succeeded(False)
        self._draw()

    # -- drawing ----------------------------------------------------------------------------

    def _message(self, text: Shown) -> None:
        message = self.query_one(".stats-message", Static)
        message.update(Text(text))
        message.set_class(not text, "-hidden")

    def _header(self) -> None:
        title = Text(f"Statistics, {shown(self.period)}", style="bold")
        if self.charts:
            chart = self.charts[self.chart_index % len(self.charts)]
            title.append(f"  ·  {chart.title} ({self.chart_index % len(self.charts) + 1}/")
            title.append(f"{len(self.charts)})")
        keys = "c chart · t 24 h · m month · < > month" if self.spec.month_endpoint else "c chart"
        title.append(f"   {keys}", style="dim")
        self.query_one(".stats-header", Static).update(title)

    def _x(self, seconds: float) -> float:
        """Hours before the last point (24 h view) or day of the month (month view)."""
        moment = datetime.fromtimestamp(seconds, UTC)
        if self.month is None:
            return seconds / 3600.0
        return moment.day + moment.hour / 24 + moment.minute / 1440

    def _draw(self) -> None:
        self._header()
        plot = self.query_one(PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        summary = Table.grid(padding=(0, 2))
        for column in ("Series", "Average", "Peak", "Latest"):
            summary.add_column(column, no_wrap=True)
        summary.add_row(*(Text(c, style="bold") for c in ("Series", "Average", "Peak", "Latest")))
        if not self.charts:
            self.query_one(".stats-summary", Static).update(Text("No statistics."))
            plot.refresh()
            return
        chart = self.charts[self.chart_index % len(self.charts)]
        plt.title(f"{chart.title} ({chart.unit})")
        origin = max((s.points[-1][0] for s in chart.series if s.points), default=0.0)
        for index, series in enumerate(chart.series):
            if not series.points:
                continue
            shift = self._x(origin) if self.month is None else 0.0
            xs = [self._x(t) - shift for t, _ in series.points]
            ys = [v for _, v in series.points]
            plt.plot(xs, ys, label=series.name, marker=MARKERS[index % len(MARKERS)])
        if self.month is None:
            plt.xlabel("hours before the latest point")
            plt.xlim(-24, 0)
            ticks = axis_ticks(-24, 0)
        else:
            plt.xlabel("day of month (UTC)")
            plt.xlim(1, self.month.days + 1)
            ticks = axis_ticks(1, self.month.days)
        # plotext types positions as floats; the labels keep the whole numbers.
        plt.xticks([float(t) for t in ticks], [str(t) for t in ticks])
        for series in chart.series:
            if series.points:
                summary.add_row(
                    Text(series.name),
                    Text(human_rate(series.average, chart.unit)),
                    Text(human_rate(series.peak, chart.unit)),
                    Text(human_rate(series.latest, chart.unit)),
                )
        if chart.empty:
            plt.title(f"{chart.title}: no data for {self.period}")
        self.query_one(".stats-summary", Static).update(summary)
        plot.refresh()

    # -- actions ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The month keys only where the API answers for a chosen month."""
        if action in ("day", "month", "shift") and self.spec.month_endpoint is None:
            return False
        return super().check_action(action, parameters)

    def action_next_chart(self) -> None:
        """Show the next chart."""
        self.chart_index = (self.chart_index + 1) % max(1, len(self.charts))
        self._draw()

    def action_day(self) -> None:
        """Back to the last 24 hours."""
        self.month = None
        self.refresh_now()

    def action_month(self) -> None:
        """This month's statistics (then < and > move by a month)."""
        self.month = Month.of(self._now())
        self.refresh_now()

    def action_shift(self, delta: int) -> None:
        """Previous or next month."""
        self._shift_month(delta)
        self.refresh_now()

    def action_refresh(self) -> None:
        """Refresh now."""
        self.refresh_now()

    def action_json(self) -> None:
        """The raw answer."""
        show_json(self, f"statistics, {shown(self.period)}", self.stats)

    def palette_actions(self) -> list[Any]:
        """Nothing to offer the palette beyond the keys."""
        return []


class TransferPane(_MonthPaging, RefreshingPane):
    """Network transfer of one instance: this month against the quota, or a past month."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("less_than_sign", "shift(-1)", "Prev month", id="stats.prev"),
        Binding("greater_than_sign", "shift(1)", "Next month", id="stats.next"),
        Binding("t", "current", "This month", id="stats.day"),
        Binding("r", "refresh", "Refresh", id="list.refresh"),
        Binding("J", "json", "JSON", id="list.json"),
    ]

    DEFAULT_CSS = """
    TransferPane { height: 1fr; padding: 0 1; }
    TransferPane .transfer-header { height: 1; background: $boost; }
    TransferPane .transfer-text { height: auto; margin: 1 0; }
    TransferPane ProgressBar { margin-bottom: 1; }
    TransferPane .transfer-message { height: auto; color: $text-error; }
    TransferPane .transfer-message.-hidden { display: none; }
    """

    can_focus = True

    def init_state(self) -> None:
        self.transfer: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield Static(classes="transfer-header")
        yield Static(classes="transfer-message -hidden")
        yield Static(classes="transfer-text")
        yield ProgressBar(total=100, show_eta=False)

    async def _refresh(self) -> None:
        client = self.app.session.client  # type: ignore[attr-defined]
        try:
            if self.month is None:
                self.transfer = await client.call("compute.transfer.view", self.params, model=dict)
            else:
                params = {**self.params, "year": self.month.year, "month": self.month.month}
                self.transfer = await client.call("compute.transfer.month", params, model=dict)
        except CloudError as error:
            self._failed(error, False)
            self._show(describe_error(error))
            return
        self.loaded = True
        self._succeeded(False)
        self._show("")

    def _show(self, error: Shown) -> None:
        header = Text(
            f"Transfer, {self.month.label() if self.month else 'this month'}", style="bold"
        )
        header.append("   < > month · t this month", style="dim")
        self.query_one(".transfer-header", Static).update(header)
        message = self.query_one(".transfer-message", Static)
        message.update(Text(error))
        message.set_class(not error, "-hidden")
        bar = self.query_one(ProgressBar)
        text = self.query_one(".transfer-text", Static)
        data = self.transfer if isinstance(self.transfer, Mapping) else {}
        if self.month is None:
            fraction, sentence = transfer_usage(data)
            text.update(Text(sentence))
            bar.display = fraction is not None
            bar.update(progress=min(100.0, (fraction or 0.0) * 100))
            return
        bar.display = False
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        for key, title in (("bytes_in", "In"), ("bytes_out", "Out"), ("bytes_total", "Total")):
            grid.add_row(Text(title), Text(format_value(data.get(key), "bytes")))
        text.update(grid)

    def action_shift(self, delta: int) -> None:
        """Previous or next month."""
        self._shift_month(delta)
        self.refresh_now()

    def action_current(self) -> None:
        """Back to this month against the quota."""
        self.month = None
        self.refresh_now()

    def action_refresh(self) -> None:
        """Refresh now."""
        self.refresh_now()

    def action_json(self) -> None:
        """The raw answer."""
        show_json(self, "transfer", self.transfer)

    def palette_actions(self) -> list[Any]:
        """Nothing to offer the palette beyond the keys."""
        return []


class StatsScreen(ShellScreen):
    """The statistics of one instance on a screen of their own (the ``s`` action)."""

    def __init__(self, label: Shown, params: Mapping[str, Any]) -> None:
        super().__init__()
        self.label = label
        self.params = dict(params)

    def compose_content(self) -> ComposeResult:
        yield Static(Text(f"Instance {self.label}", style="bold"), id="stats-title")
        yield StatsPane(SPECS["compute.stats"], self.params, id="stats-pane")

    def on_mount(self) -> None:
        self.query_one(StatsPane).focus()

    def help_title(self) -> str:
        """What the help screen calls this screen."""
        return f"statistics of {self.label}"


async def open_stats(ctx: ActionContext) -> bool:
    """The ``s`` action: open the statistics screen (nothing changes on the server)."""
    await ctx.app.push_screen(StatsScreen(ctx.shown_label, ctx.params))
    return False
