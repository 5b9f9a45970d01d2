"""The generic detail screen: sections, child tabs (lists and single objects), nested children,
item refresh and settle notifications, a deleted item, actions with reasons."""

from __future__ import annotations

import pytest
from textual.widgets import TabbedContent

from screens.details.resource_detail import ActionsPanel, ResourceDetailScreen
from screens.lists.list_pane import ResourceListPane
from screens.lists.singleton_pane import SingletonPane
from tests.ui.helpers import demo_session, make_app, settle
from tui.session.config import RefreshSettings
from tui.simulator import VirtualClock


async def open_item(pilot, area: str, key: str) -> ResourceDetailScreen:
    app = pilot.app
    app.go_to_area(area)
    await settle(pilot)
    pane = app.screen.query_one("#pane-0", ResourceListPane)
    assert pane.table.move_cursor(key), f"{key} not in {area}"
    pane.table.focus()
    await pilot.press("enter")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ResourceDetailScreen)
    return screen


async def test_sections_tabs_and_a_child_list_that_loads_when_shown() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "databases", "4100")
        assert screen.resource.id == "databases.mysql"  # opened through its engine
        text = screen.query_one("#overview-panel").text()
        assert "Primary host: mysql-4100-primary.us-east.db.example.net" in text
        assert "Status: ● active" in text
        backups = screen.query_one("#child-0", ResourceListPane)
        assert not backups.loaded  # lazy: not fetched before its tab is shown
        screen.query_one("#detail-tabs", TabbedContent).active = "tab-child-0"
        await settle(pilot)
        assert backups.loaded and backups.table.row_count > 0
        # Keys inside a child tab belong to the child's resource, never the parent's.
        backups.table.focus()
        await pilot.pause()
        assert screen.check_action("run_action", ("databases.mysql.delete",)) is False
        # A hidden tab stops refreshing.
        screen.query_one("#detail-tabs", TabbedContent).active = "tab-overview"
        await settle(pilot)
        assert not backups.visible_now


async def test_single_object_tab_masks_secrets() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "k8s", "9100")
        tabs = screen.query_one("#detail-tabs", TabbedContent)
        index = [c.title for c in screen.resource.children].index("Kubeconfig")
        tabs.active = f"tab-child-{index}"
        await settle(pilot)
        pane = screen.query_one(f"#child-{index}", SingletonPane)
        assert pane.item.get("kubeconfig")
        text = pane.query_one("DetailPanel").text()
        assert pane.item["kubeconfig"] not in text
        assert "••••" in text


async def test_nested_children_cluster_pool_nodes() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "k8s", "9100")
        screen.query_one("#detail-tabs", TabbedContent).active = "tab-child-0"
        await settle(pilot)
        pools = screen.query_one("#child-0", ResourceListPane)
        assert pools.table.row_count > 0
        pools.table.focus()
        await pilot.press("enter")
        await settle(pilot)
        pool_screen = app.screen
        assert isinstance(pool_screen, ResourceDetailScreen)
        assert pool_screen.resource.id == "k8s.pools"
        assert pool_screen.params == {"clusterId": 9100}
        pool_screen.query_one("#detail-tabs", TabbedContent).active = "tab-child-0"
        await settle(pilot)
        nodes = pool_screen.query_one("#child-0", ResourceListPane)
        assert nodes.error is None
        assert nodes.table.row_count == pool_screen.item["count"]


async def test_item_refresh_shows_changes_and_the_settle_notification() -> None:
    clock = VirtualClock()
    session = demo_session(clock=clock, refresh=RefreshSettings(fast=40, slow=3000))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "databases", "4102")
        assert "◐ provisioning" in screen.query_one("#overview-panel").text()
        assert screen.last_delay == 40
        clock.advance(30)
        screen.refresher.fire()
        await settle(pilot)
        assert "● active" in screen.query_one("#overview-panel").text()
        assert ("MySQL databases", "analytics-staging is now active") in app.notification_log
        assert screen.last_delay == 3000


async def test_a_deleted_item_says_so() -> None:
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "k8s", "9101")
        session.simulator.store.delete("k8s.clusters", 9101)
        screen.refresh_item()
        await settle(pilot)
        assert screen.gone
        assert "no longer exists" in str(screen.query_one("#detail-message").render())
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ResourceDetailScreen)


async def test_actions_are_listed_with_keys() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "k8s", "9100")
        rows = {action.id: (enabled, reason) for action, enabled, reason in screen.action_rows()}
        assert {"k8s.create", "k8s.edit", "k8s.recycle", "k8s.delete"} <= set(rows)
        assert screen.query_one(ActionsPanel).display
        await pilot.press("y")
        assert app.last_copied == "9100"


async def test_restricted_user_sees_disabled_actions_with_reasons() -> None:
    pytest.importorskip("tui.resources.availability", reason="UI-B's availability() not there yet")
    app = make_app(demo_session("restricted"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("databases")
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        if not pane.items:
            pytest.skip("the restricted demo user sees no databases")
        pane.table.focus()
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        disabled = [(a.id, reason) for a, enabled, reason in screen.action_rows() if not enabled]
        assert disabled, "a restricted user should have some actions disabled"
        assert all(reason for _id, reason in disabled)
        assert "not available" in screen.query_one(ActionsPanel).text()


async def test_brackets_cycle_tabs_and_focus_what_they_show() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "k8s", "9100")
        tabs = screen.query_one("#detail-tabs", TabbedContent)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert tabs.active == "tab-child-0"
        pools = screen.query_one("#child-0", ResourceListPane)
        assert app.focused is pools.table and pools.loaded
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert tabs.active == "tab-overview"
        await pilot.press("left_square_bracket")
        # The tabs every detail screen has (Relations) come after the child tabs.
        assert tabs.active == "tab-relations"
        await pilot.press("left_square_bracket")
        assert tabs.active == f"tab-child-{len(screen.resource.children) - 1}"
