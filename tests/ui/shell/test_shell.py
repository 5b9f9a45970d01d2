"""The shell: areas as modes, sidebar, status bar, `:` command line, help, palette, errors."""

from __future__ import annotations

import asyncio

import pytest

from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.error import ErrorScreen
from screens.lists.list_pane import ResourceListPane
from screens.lists.resource_list import ResourceListScreen
from screens.lists.singleton_pane import SingletonPane
from screens.shell.command_line import CommandLineScreen
from screens.shell.help import HelpScreen
from tests.ui.helpers import (
    demo_session,
    make_app,
    not_implemented,
    seeded,
    settle,
    wait_until,
)
from tui.api.errors import ServerError
from tui.api.retry import RetryPolicy
from tui.resources.areas import AREAS, SPECS
from widgets.resource_table import ResourceTable
from widgets.sidebar import Sidebar
from widgets.status_bar import StatusBar, status_parts


async def test_starts_in_the_first_area_with_a_demo_status_bar() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.current_mode == "instances"
        assert isinstance(app.screen, ResourceListScreen)
        app.go_to_area("databases")
        await settle(pilot)
        texts = [text for text, _cls in status_parts(app.state)]
        assert " DEMO " in texts
        assert "in-process simulator" in texts
        assert "demo" in texts and "unrestricted" in texts
        assert any(t.startswith("↻ ") and t.endswith(" UTC") for t in texts)
        assert app.screen.query_one(StatusBar).display


async def test_restricted_user_is_shown_in_the_status_bar() -> None:
    app = make_app(demo_session("restricted"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        texts = [text for text, _cls in status_parts(app.state)]
        assert "ops-restricted" in texts and "RESTRICTED" in texts


@pytest.mark.parametrize("area", AREAS, ids=lambda a: a.id)
async def test_every_area_shows_its_demo_rows(area) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area(area.id)
        await settle(pilot)
        screen = app.screen
        assert app.current_mode == area.id
        spec = SPECS[area.root]
        if spec.singleton:
            assert isinstance(screen, ResourceDetailScreen)
            if not_implemented(screen.error):
                pytest.skip(f"simulator has no handler for {spec.list_endpoint} yet")
            assert screen.error is None, screen.error
            assert screen.item, "the singleton was not loaded"
            return
        pane = screen.query_one("#pane-0", ResourceListPane)
        if not_implemented(pane.error):
            pytest.skip(f"simulator has no handler for {spec.list_endpoint} yet")
        assert pane.error is None, pane.error
        data_area = spec.list_endpoint.split(".", 1)[0]
        if not pane.items and not seeded(data_area):
            pytest.skip(f"the simulator seeds no {data_area} demo data yet")
        assert pane.items, f"{area.title}: no demo rows"
        assert pane.table.row_count == len(pane.items)
        # Every area's tabs load when shown.
        for index, tab in enumerate(area.tabs, start=1):
            screen.show_spec(tab)
            await settle(pilot)
            other = screen.query_one(f"#pane-{index}")
            if not_implemented(other.error):
                continue
            assert other.error is None, (tab, other.error)
            assert other.loaded


async def test_modes_keep_their_own_navigation_stack() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("databases")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResourceDetailScreen)
        app.go_to_area("k8s")
        await settle(pilot)
        assert isinstance(app.screen, ResourceListScreen)
        app.go_to_area("databases")
        await settle(pilot)
        assert isinstance(app.screen, ResourceDetailScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ResourceListScreen)


async def test_tab_moves_between_sidebar_and_content_and_sidebar_switches_area() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.focused, ResourceTable)
        await pilot.press("tab")
        assert isinstance(app.focused, Sidebar)
        await pilot.press("tab")
        assert isinstance(app.focused, ResourceTable)
        await pilot.press("tab")
        sidebar = app.screen.query_one(Sidebar)
        sidebar.highlighted = sidebar.get_option_index("domains")
        await pilot.press("enter")
        await settle(pilot)
        assert app.current_mode == "domains"


@pytest.mark.parametrize(
    ("typed", "mode", "spec"),
    [
        ("in", "instances", "compute.instances"),
        ("instances", "instances", "compute.instances"),
        ("domains", "domains", "domains"),
        ("k8s", "k8s", "k8s.clusters"),
        ("db", "databases", "databases"),
        ("keys", "object_storage", "object_storage.keys"),
    ],
)
async def test_command_line_aliases(typed: str, mode: str, spec: str) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("colon")
        assert isinstance(app.screen, CommandLineScreen)
        await pilot.press(*typed)
        await pilot.press("enter")
        await settle(pilot)
        assert app.current_mode == mode
        pane = app.screen.active_pane()
        assert pane is not None and pane.spec.id == spec


async def test_command_line_completes_with_tab_and_rejects_unknown_words() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("colon", "k", "u", "b", "tab")
        assert app.screen.query_one("#command-input").value == "kube"  # shortest match
        await pilot.press("enter")
        await settle(pilot)
        assert app.current_mode == "k8s"
        await pilot.press("colon", "z", "z", "z", "enter")
        await settle(pilot)
        assert app.notification_log[-1] == (":", "Unknown command: zzz")


async def test_help_lists_every_binding_of_the_screen_with_ids() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.text()
        for binding_id in ("app.quit", "app.command_line", "list.filter", "list.refresh"):
            assert binding_id in text
        assert "compute.create" in text or "New instance" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_keymap_from_settings_remaps_bindings_by_id() -> None:
    session = demo_session(keymap={"app.help": "f1", "list.refresh": "f5"})
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert "f1" in app.screen.text().lower() or "F1" in app.screen.text()


async def test_layout_at_80x24_gives_the_table_the_width_and_tab_shows_the_sidebar() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        sidebar = app.screen.query_one(Sidebar)
        table = app.screen.query_one(ResourceTable)
        # Below 100 columns the sidebar waits for tab: the table gets the whole width.
        assert not sidebar.display or sidebar.region.width == 0
        assert table.region.width >= 78 and table.region.height >= 5
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is sidebar and sidebar.region.width > 10
        sidebar.highlighted = sidebar.get_option_index("volumes")
        await pilot.press("enter")
        await settle(pilot)
        assert app.current_mode == "volumes"
        assert app.screen.query_one(Sidebar).region.width == 0  # hidden again after choosing
        assert app.screen.query_one(ResourceTable).region.width >= 78
        app.go_to_area("databases")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResourceDetailScreen)
        assert app.screen.query_one("#overview-panel").region.height > 5


async def test_choosing_the_shown_area_in_the_sidebar_gives_the_table_the_keys() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ResourceTable)
        table.focus()
        await pilot.press("escape")  # nothing to go back to: the table keeps the keys
        await pilot.pause()
        assert app.focused is table
        assert app.screen.check_action("back", ()) is False  # and the footer hides "Back"
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is app.screen.query_one(Sidebar)
        await pilot.press("escape")  # out of the sidebar: back to the table
        await pilot.pause()
        assert app.focused is table
        await pilot.press("tab")
        await pilot.pause()
        await pilot.press("enter")  # the area already shown
        await settle(pilot)
        assert app.focused is table
        before = table.cursor_row
        await pilot.press("down")
        assert table.cursor_row == before + 1


async def test_hidden_tabs_are_built_when_first_shown_and_take_the_keys() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.query_one("#pane-0", ResourceListPane).table.focus()
        assert not screen.query("#pane-1")  # Instance types: not composed before it is shown
        await pilot.press("right_square_bracket")
        await settle(pilot)
        types = screen.query_one("#pane-1", ResourceListPane)
        assert types.loaded and types.table.row_count > 0
        assert app.focused is types.table
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert app.focused is screen.query_one("#pane-0", ResourceListPane).table
        assert not types.visible_now


async def test_unexpected_worker_error_opens_the_error_modal_and_the_app_lives() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)

        async def boom() -> None:
            raise RuntimeError("kaboom")

        app.screen.run_worker(boom(), exit_on_error=False, name="boom")
        await settle(pilot)
        assert isinstance(app.screen, ErrorScreen)
        assert "kaboom" in str(app.screen.error)
        await pilot.press("escape")
        assert app.is_running


async def test_api_error_in_a_worker_is_a_titled_notification() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)

        async def fails() -> None:
            raise ServerError(503, "GET", "/x")

        app.screen.run_worker(fails(), exit_on_error=False)
        await settle(pilot)
        assert not isinstance(app.screen, ErrorScreen)
        title, message = app.notification_log[-1]
        assert title == "API error" and "/x" in message
        assert app.state.api_health == "error"


async def test_unreachable_api_is_shown_in_the_status_bar_and_rows_stay() -> None:
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("databases")
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        rows = pane.table.row_count
        assert rows
        session.simulator.faults.fail_next("databases.instances.list", 8, 0)
        pane.refresh_now()
        await settle(pilot)
        assert app.state.api_health == "unreachable"
        assert any("UNREACHABLE" in t for t, _c in status_parts(app.state))
        assert pane.table.row_count == rows
        assert pane.last_delay > 60  # backed off beyond the fast interval (one is provisioning)


async def test_a_rate_limited_refresh_says_so_while_it_waits_to_retry() -> None:
    session = demo_session()
    released = asyncio.Event()

    async def held(_seconds: float) -> None:
        await released.wait()

    session.client.retry = RetryPolicy(sleep=held)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        rows = pane.table.row_count
        session.simulator.faults.fail_next("compute.instances.list", 1, 429)
        pane.refresh_now()
        await wait_until(pilot, lambda: app.state.api_health == "rate_limited")
        # Still waiting to retry: the status bar already says why, the rows stay.
        assert app.state.api_health == "rate_limited" and pane.fetching
        assert any("RATE LIMITED" in t for t, _c in status_parts(app.state))
        assert pane.table.row_count == rows
        released.set()
        await settle(pilot)
        assert app.state.api_health == "online" and not pane.fetching


async def test_palette_finds_resources_by_label_across_areas() -> None:
    from screens.shell.palette import ResourceCommands

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        from screens.shell.palette import prefetch_for_palette

        prefetch_for_palette(app)
        await settle(pilot)
        loaded = {spec_id for spec_id, _params in app.state.resource_index}
        assert {"databases", "k8s.clusters"} <= loaded
        provider = ResourceCommands(app.screen)
        hits = [hit async for hit in provider.search("shop-prod")]
        assert hits, "the Kubernetes cluster from the demo data was not found"
        hits[0].command()
        await settle(pilot)
        assert app.current_mode == "k8s"
        assert isinstance(app.screen, ResourceDetailScreen)
        assert app.screen.item["label"] == "shop-prod"


async def test_palette_lists_actions_of_the_current_screen() -> None:
    from screens.shell.palette import ActionCommands

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("databases")
        await settle(pilot)
        provider = ActionCommands(app.screen)
        names = [hit.text async for hit in provider.search("new")]
        assert any("New MySQL database" in name for name in names)


async def test_profile_area_is_a_detail_screen_with_tabs() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("profile")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ResourceDetailScreen)
        if not_implemented(screen.error):
            pytest.skip("simulator has no profile handlers yet")
        assert screen.item.get("username") == "demo"
        assert not screen.query(SingletonPane) or True


async def test_a_worker_left_with_exit_on_error_does_not_end_the_app() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)

        async def fails() -> None:
            raise ServerError(502, "GET", "/y")

        app.screen.run_worker(fails())  # exit_on_error defaults to True
        await settle(pilot)
        assert app.is_running
        assert app.notification_log[-1][0] == "API error"


async def test_keymap_remaps_a_resource_action_by_its_id() -> None:
    from screens.actions.form import FormModal
    from tests.ui.helpers import wait_for_screen

    app = make_app(demo_session(keymap={"compute.reboot": "ctrl+r"}))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.query_one(ResourceTable).focus()
        await pilot.press("ctrl+r")
        # db-primary, the first row, has two profiles: its reboot asks which.
        dialog = await wait_for_screen(pilot, FormModal)
        assert "Reboot" in dialog.title_text
        await pilot.press("escape")
