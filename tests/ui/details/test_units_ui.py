"""Figures on screen carry units, and chart axes count days and hours in whole numbers."""

from __future__ import annotations

from rich.text import Text
from textual_plotext import PlotextPlot

from screens.details.resource_detail import ResourceDetailScreen
from screens.details.stats import StatsScreen
from screens.lists.list_pane import ResourceListPane
from tests.ui.actions.test_compute_ui import press_on_instance, select
from tests.ui.helpers import make_app, open_area, settle
from widgets.detail_panel import DetailPanel


async def test_the_monthly_chart_counts_days_in_whole_numbers() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press_on_instance(pilot, "db-primary", "s")
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("m")
        await settle(pilot)
        plot = app.screen.query_one(PlotextPlot)
        lines = Text.from_ansi(plot.plt.build()).plain.splitlines()
        label = next(i for i, line in enumerate(lines) if "day of month" in line)
        ticks = lines[label - 1].split()
        assert ticks[:3] == ["1", "5", "10"], ticks
        assert all(t.isdigit() for t in ticks), ticks


async def test_balancer_transfer_is_shown_with_units() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("loadbalancers")
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        pane.table.focus()
        await select(pilot, pane, "web-frontend")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResourceDetailScreen)
        text = app.screen.query_one(DetailPanel).text()
        assert "Transfer in this month" in text and "47.1 GB" in text
        assert "383 GB" in text  # out: 391,877.25 MB
        assert "48211.6" not in text


async def test_volume_sizes_read_alike() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        size = [c.title for c in pane.table.columns].index("Size")
        sizes = {pane.table.row(k).cells[size] for k in pane.items}  # type: ignore[union-attr]
        assert "200 GB" in sizes
        assert not any(s.endswith(".0 GB") for s in sizes), sizes
