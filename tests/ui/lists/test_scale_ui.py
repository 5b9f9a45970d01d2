"""A long list (2,000+ instances): timed refreshes poll only the items changing state."""

from __future__ import annotations

from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import make_app, no_sleep, settle
from tui.api.retry import RetryPolicy
from tui.session.config import RefreshSettings, Settings
from tui.session.runtime import Session
from tui.simulator import VirtualClock


async def test_long_list_polls_only_the_changing_item_and_shows_it_settle() -> None:
    clock = VirtualClock()
    settings = Settings(
        start_area="instances", refresh=RefreshSettings(fast=60, slow=3600, max_backoff=3600)
    )
    session = Session.for_demo(settings, clock=clock, scale=2000, retry=RetryPolicy(sleep=no_sleep))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        assert pane.table.total_count > 2000
        # Let the demo's own transitions finish, so one reboot is all that changes.
        clock.advance(600)
        pane.refresh_now()
        await settle(pilot)
        assert not pane.changing
        key = next(k for k in pane.table.visible_keys() if pane.items[k]["status"] == "running")
        label = pane.items[key]["label"]
        await session.client.call("compute.instances.reboot", {"computeId": key})
        pane.refresh_now()  # as after an action: the whole list
        await settle(pilot)
        assert pane.items[key]["status"] == "rebooting"

        sent = session.client.request_count
        pane.refresher.fire()  # a timed refresh while one item reboots
        await settle(pilot)
        assert session.client.request_count - sent == 1  # that item, not every page
        assert pane.items[key]["status"] == "rebooting"

        clock.advance(60)
        pane.refresher.fire()
        await settle(pilot)
        assert pane.items[key]["status"] == "running"
        assert ("Instances", f"{label} is now running") in app.notification_log
        assert not pane.changing
