"""The Relations tab of a detail screen: what an object uses and what uses it, each row opening
the other object, kept by the account (a switch of account shows none of the old one's)."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, TabbedContent

from screens.details.resource_detail import ResourceDetailScreen
from screens.lists.list_pane import ResourceListPane
from screens.relations.tab import RelationsPane
from tests.ui.helpers import make_app, settle, wait_until

WEB_PROD = "51201"
"""web-prod-1 of the demo: DNS records point at it, balancer nodes send traffic to it."""


async def open_item(pilot: Any, area: str, key: str) -> ResourceDetailScreen:
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


async def relations_of(pilot: Any, screen: ResourceDetailScreen) -> RelationsPane:
    """Show the Relations tab and wait for its rows."""
    screen.query_one("#detail-tabs", TabbedContent).active = "tab-relations"
    await settle(pilot)
    pane = screen.query_one(RelationsPane)
    await wait_until(pilot, lambda: pane.loaded, what="the relations loaded")
    return pane


async def test_an_instance_shows_what_it_uses_and_what_uses_it() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "instances", WEB_PROD)
        pane = await relations_of(pilot, screen)
        lines = pane.lines
        assert any(
            "DNS record pointing at it" in line and "app.example.com A" in line for line in lines
        ), lines
        assert any("load balancer node at it" in line for line in lines), lines
        assert any(line.startswith("uses") and "has volume" in line for line in lines), lines
        assert any("has config" in line for line in lines), lines  # fetched on demand
        assert "used by" in pane.status and "192.0.2.2" in pane.status
        table = pane.query_one(DataTable)
        assert table.row_count == len(lines)


async def test_enter_on_a_row_opens_the_other_object() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "instances", WEB_PROD)
        pane = await relations_of(pilot, screen)
        row = next(i for i, line in enumerate(pane.lines) if "app.example.com A" in line)
        table = pane.query_one(DataTable)
        table.focus()
        table.move_cursor(row=row)
        await pilot.press("enter")
        await settle(pilot)
        opened = app.screen
        assert isinstance(opened, ResourceDetailScreen) and opened is not screen
        assert opened.resource.id == "domains.records"
        assert opened.item.get("name") == "app"
