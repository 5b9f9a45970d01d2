"""The generic list screen: streaming, count, filter, sort, badges, empty state, errors, refresh
diff, settle notifications on the virtual clock, copy, JSON, restricted users; the table widget
at 10,000 rows."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from screens.dialogs.json_view import JsonViewScreen
from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import demo_session, make_app, not_implemented, settle
from tui.session.config import RefreshSettings
from tui.simulator import VirtualClock
from widgets.resource_table import ResourceTable, TableColumn, TableRow
from widgets.status_bar import status_parts


async def open_area(pilot, area: str) -> ResourceListPane:
    pilot.app.go_to_area(area)
    await settle(pilot)
    return pilot.app.screen.query_one("#pane-0", ResourceListPane)


def labels(pane: ResourceListPane) -> list[str]:
    return [pane.items[k]["label"] for k in pane.table.keys]


async def test_rows_count_and_status_badges() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        assert pane.total == len(pane.items) == pane.table.row_count == 3
        title = str(pane.query_one(".list-title").render())
        assert "3 results" in title
        status_column = [c.title for c in pane.table.columns].index("Status")
        statuses = {pane.table.cells_at(i)[status_column] for i in range(3)}
        # Text and shape, never colour alone.
        assert {"● active", "◐ provisioning"} <= statuses


async def test_filter_as_you_type_and_escape_clears_it() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        await pilot.press("slash")
        assert pane.filter_input.has_focus
        await pilot.press(*"orders")
        assert pane.table.row_count == 1
        assert labels(pane) == ["orders-[prod]"]
        assert "filter: orders" in str(pane.query_one(".list-title").render())
        await pilot.press("enter")
        assert isinstance(app.focused, ResourceTable)
        assert pane.table.row_count == 1
        await pilot.press("escape")
        assert pane.table.row_count == 3
        await pilot.press("slash", *"no-such-thing")
        assert "No rows match" in str(pane.query_one(".list-message").render())


async def test_sort_by_column_cycles_and_reverses() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        await pilot.press("o")
        assert pane.table.sort_state == (0, False)
        assert labels(pane) == sorted(labels(pane), key=str.lower)
        await pilot.press("O")
        assert pane.table.sort_state == (0, True)
        assert labels(pane) == sorted(labels(pane), key=str.lower, reverse=True)
        assert "sorted by Label" in str(pane.query_one(".list-title").render())


async def test_label_with_markup_renders_literally() -> None:
    session = demo_session()
    session.simulator.store.get("databases.instances", 4100)["label"] = "[/x] evil [b]bold"
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        assert "[/x] evil [b]bold" in labels(pane)
        svg = app.export_screenshot()
        assert "[/x]&#160;evil&#160;[b]bold" in svg or "[/x] evil [b]bold" in svg
        pane.table.move_cursor("4100")
        await pilot.press("enter")
        await settle(pilot)
        detail = app.screen
        assert "[/x] evil [b]bold" in str(detail.query_one("#detail-label").render())
        assert "[/x] evil [b]bold" in detail.query_one("#overview-panel").text()


async def test_refresh_diff_keeps_cursor_and_scroll() -> None:
    session = demo_session()
    store = session.simulator.store
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        assert pane.table.move_cursor("4101")
        before = (pane.table.cursor_key, pane.table.cursor_row, pane.table.scroll_y)
        # Another row changes, a new one appears at the end, and one disappears.
        store.get("databases.instances", 4100)["label"] = "orders-renamed"
        clone = dict(store.get("databases.instances", 4100), id=4199, label="new-db")
        store.put("databases.instances", 4199, clone)
        pane.refresh_now()
        await settle(pilot)
        assert (pane.table.cursor_key, pane.table.cursor_row, pane.table.scroll_y) == before
        assert "orders-renamed" in labels(pane) and "new-db" in labels(pane)
        store.delete("databases.instances", 4100)
        pane.refresh_now()
        await settle(pilot)
        assert pane.table.cursor_key == "4101"
        assert "orders-renamed" not in labels(pane)


async def test_provisioning_settles_through_the_refresh_loop_on_the_virtual_clock() -> None:
    clock = VirtualClock()
    session = demo_session(
        clock=clock, refresh=RefreshSettings(fast=45, slow=3000, max_backoff=3600)
    )
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        status_column = [c.title for c in pane.table.columns].index("Status")
        pane.table.move_cursor("4102")
        assert pane.table.cells_at(pane.table.cursor_row)[status_column] == "◐ provisioning"
        # Something is transitional: the next refresh is armed on the fast interval.
        assert pane.last_delay == 45
        clock.advance(30)
        pane.refresher.fire()  # what the one-shot timer does when it fires
        await settle(pilot)
        assert pane.table.cells_at(pane.table.cursor_row)[status_column] == "● active"
        assert ("Databases", "analytics-staging is now active") in app.notification_log
        # Nothing is transitional any more: back to the slow interval.
        assert pane.last_delay == 3000
        assert pane.table.cursor_key == "4102"


async def test_instance_provisioning_becomes_running() -> None:
    clock = VirtualClock()
    session = demo_session(clock=clock)
    client = session.client
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "instances")
        if not_implemented(pane.error):
            pytest.skip("the simulator has no compute handlers yet")
        regions = await client.fetch_page("compute.regions.list")
        types = await client.fetch_page("compute.types.list")
        images = await client.fetch_all("images.list", model=dict)
        image = next(i["id"] for i in images if i.get("status") == "available")
        created = await client.call(
            "compute.instances.create",
            body={
                "region": regions.data[0].id,
                "type": types.data[0].id,
                "image": image,
                "label": "web-new",
                "root_pass": "correct-horse-battery-9",
            },
        )
        pane.refresh_now()
        await settle(pilot)
        assert pane.items[str(created.id)]["status"] == "provisioning"
        assert pane.last_delay == session.settings.refresh.fast
        clock.advance(600)
        pane.refresher.fire()
        await settle(pilot)
        assert pane.items[str(created.id)]["status"] == "running"
        assert ("Instances", "web-new is now running") in app.notification_log


async def test_empty_list_shows_a_hint() -> None:
    session = demo_session()
    session.simulator.store.table("k8s.clusters").clear()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "k8s")
        assert pane.table.row_count == 0
        assert "Press n to create one" in str(pane.query_one(".list-message").render())


async def test_errors_are_shown_without_losing_rows() -> None:
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        session.simulator.faults.fail_next("databases.instances.list", 1, 500)
        pane.refresh_now()
        await settle(pilot)
        assert pane.table.row_count == 3
        message = str(pane.query_one(".list-message").render())
        assert "failed (500)" in message and "rows loaded before" in message
        pane.refresh_now()
        await settle(pilot)
        assert pane.error is None
        assert "failed" not in str(pane.query_one(".list-message").render())


async def test_rate_limiting_is_shown_and_backs_off() -> None:
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "k8s")
        session.simulator.faults.fail_next("k8s.clusters.list", 4, 429)
        pane.refresh_now()
        await settle(pilot)
        assert app.state.api_health == "rate_limited"
        assert any("RATE LIMITED" in text for text, _cls in status_parts(app.state))
        assert "rate limiting" in str(pane.query_one(".list-message").render())
        assert pane.table.row_count == 2


async def test_copy_and_raw_json_of_the_selected_item() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        pane.table.move_cursor("4100")
        await pilot.press("y")
        assert app.last_copied == "mysql-4100-primary.us-east.db.example.net"
        assert app.notification_log[-1] == (
            "Copied",
            "Primary host: mysql-4100-primary.us-east.db.example.net",
        )
        await pilot.press("J")
        assert isinstance(app.screen, JsonViewScreen)
        assert '"label": "orders-[prod]"' in app.screen.text
        await pilot.press("escape")
        assert not isinstance(app.screen, JsonViewScreen)


async def test_restricted_user_sees_disabled_actions_with_reasons() -> None:
    pytest.importorskip("tui.resources.availability", reason="UI-B's availability() not there yet")
    app = make_app(demo_session("restricted"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "databases")
        # Greyed in the footer (None = disabled but visible) ...
        assert pane.check_action("run_action", ("databases.create",)) is None
        # ... and pressing the key says why.
        await pilot.press("n")
        title, message = app.notification_log[-1]
        assert title == "New MySQL database: not available"
        assert "add_databases" in message


async def test_kernels_architecture_filter() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "kernels")
        if not_implemented(pane.error):
            pytest.skip("the simulator has no kernel handlers yet")
        every = pane.table.row_count
        await pilot.press("f")
        assert "architecture: x86_64" in str(pane.query_one(".list-title").render())
        arch = {pane.items[k]["architecture"] for k in pane.table.keys}
        assert arch <= {"x86_64"}
        await pilot.press("f")
        assert {pane.items[k]["architecture"] for k in pane.table.keys} <= {"i386"}
        await pilot.press("f")
        assert pane.table.row_count == every


# -- the table widget at scale ---------------------------------------------------------------

COLUMNS = [
    TableColumn("Label"),
    TableColumn("Status", 14, status=True),
    TableColumn("Region", 10),
    TableColumn("ID", 8, numeric=True),
]


def row(n: int, status: str = "running") -> TableRow:
    cells = (f"web-{n}", f"● {status}", "us-east", str(n))
    return TableRow(
        n, cells, ((1, cells[0]), (1, status), (1, "us-east"), (0, n)), "ok", "\x00".join(cells)
    )


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ResourceTable(COLUMNS)


async def test_table_with_10000_rows_keeps_the_cursor() -> None:
    # How fast (first frame, a refresh's update) is measured in benchmarks/bench_table.py.
    app = TableApp()
    async with app.run_test(size=(100, 30)) as pilot:
        table = app.query_one(ResourceTable)
        table.focus()
        table.append_rows(row(n) for n in range(10_000))
        await pilot.pause()
        assert table.row_count == 10_000
        for _ in range(5):
            await pilot.press("down")
        assert table.cursor_key == 5
        await pilot.press("pagedown")
        key, offset = table.cursor_key, table.cursor_row - table.scroll_y
        upserts = [row(n, "booting") for n in range(0, 10_000, 3)]
        table.update_rows([n for n in range(10_000) if n != 1], upserts)
        await pilot.pause()
        assert table.cursor_key == key
        assert table.cursor_row - table.scroll_y == offset
        assert table.row(3).cells[1] == "● booting"
        table.set_filter("web-99")
        assert table.row_count == 111
        key = table.cursor_key
        table.set_filter("")
        assert table.cursor_key == key  # the row under the cursor stays under it
        table.sort_by(3, reverse=True)
        assert table.keys[0] == 9_999 and table.cursor_key == key


async def test_table_messages_and_marks() -> None:
    seen: list[object] = []

    class Recorder(TableApp):
        def on_resource_table_selected(self, event: ResourceTable.Selected) -> None:
            seen.append(("selected", event.key))

    app = Recorder()
    async with app.run_test(size=(100, 30)) as pilot:
        table = app.query_one(ResourceTable)
        table.focus()
        table.append_rows(row(n) for n in range(10))
        await pilot.press("j", "j", "enter")
        assert seen == [("selected", 2)]
        await pilot.press("space")
        assert table.marked == {2} and table.cursor_key == 3
        table.update_rows([n for n in range(10) if n != 2])
        assert table.marked == frozenset()
