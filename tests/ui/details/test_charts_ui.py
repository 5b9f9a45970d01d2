"""Numbers over time are drawn as charts wherever they appear (instances and managed stats)."""

from __future__ import annotations

from screens.details.stats import StatsPane
from screens.lists.resource_list import ResourceListScreen
from tests.ui.helpers import make_app, settle, wait_until
from tests.ui.keyboard import screen_text


async def test_managed_stats_tab_is_charts_with_units_and_no_month_keys() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.go_to_area("managed")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ResourceListScreen)
        assert screen.show_spec("managed.stats")
        await settle(pilot)
        pane = screen.query_one(StatsPane)
        await wait_until(pilot, lambda: bool(pane.charts))
        assert [c.title for c in pane.charts] == ["CPU", "Disk I/O", "Network"]
        assert not pane.charts[0].empty
        await pilot.pause()
        text = screen_text(app)
        assert "CPU (%)" in text and " %" in text and "points" not in text
        # The managed answer has no month view: its keys are neither shown nor acted on.
        assert pane.check_action("month", ()) is False
        assert "managed.stats" in app.state.session.simulator.request_log
        pane.focus()
        await pilot.press("c")
        assert pane.chart_index == 1
        await pilot.press("c")
        await pilot.pause()
        assert "bit/s" in screen_text(app)
        await pilot.press("m")
        await settle(pilot)
        assert pane.month is None
