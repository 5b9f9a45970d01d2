"""Deterministic pictures of the main screens at fixed sizes.

Data comes from the seeded simulator on a virtual clock, refresh timers are long (nothing fires
during a test), toasts are off in ``run_test`` and input cursors do not blink.
"""

from __future__ import annotations

from typing import Any

from syrupy.assertion import SnapshotAssertion
from textual.app import App
from textual.widgets import Input, TabbedContent

from screens.actions.form import FormModal
from screens.dialogs.confirm import ConfirmModal
from screens.lists.list_pane import ResourceListPane
from screens.shell.login import LoginScreen
from tests.ui.helpers import demo_session, make_app, settle, wait_for_screen
from tests.ui.visibility import screen_workers_done
from tui.session.config import Settings
from tui.simulator import Simulator, VirtualClock


async def picture(pilot: Any) -> str:
    """Settle, stop cursor blinking, and export the screen."""
    await settle(pilot)
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()
    return pilot.app.export_screenshot()


async def modal_picture(pilot: Any) -> str:
    """Export a dialog opened by an action (its worker is waiting: no settle)."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()
    return pilot.app.export_screenshot()


async def goto(pilot: Any, area: str) -> None:
    pilot.app.go_to_area(area)
    await settle(pilot)


async def open_first(pilot: Any, key: str | None = None) -> None:
    pane = pilot.app.screen.query_one("#pane-0", ResourceListPane)
    if key is not None:
        pane.table.move_cursor(key)
    pane.table.focus()
    await pilot.press("enter")
    await settle(pilot)


async def test_new_instance_form(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        modal = await wait_for_screen(pilot, FormModal)
        await screen_workers_done(app, modal)  # the choice lists load
        await pilot.pause()
        modal.model_form.set_value("label", "ab")  # too short: shown beside the field
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert await modal_picture(pilot) == svg_snapshot


async def test_typed_delete_confirmation(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await wait_for_screen(pilot, ConfirmModal)
        assert await modal_picture(pilot) == svg_snapshot


async def test_databases_list_80x24(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await goto(pilot, "databases")
        assert await picture(pilot) == svg_snapshot


async def test_instances_list_200x60(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        assert await picture(pilot) == svg_snapshot


async def test_database_detail(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await goto(pilot, "databases")
        await open_first(pilot, "4100")
        assert await picture(pilot) == svg_snapshot


async def test_cluster_detail_pools_tab(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await goto(pilot, "k8s")
        await open_first(pilot, "9100")
        app.screen.query_one("#detail-tabs", TabbedContent).active = "tab-child-0"
        await settle(pilot)
        app.screen.query_one("#child-0", ResourceListPane).table.focus()
        assert await picture(pilot) == svg_snapshot


async def test_object_storage_buckets(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await goto(pilot, "object_storage")
        assert await picture(pilot) == svg_snapshot


async def test_profile(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await goto(pilot, "profile")
        assert await picture(pilot) == svg_snapshot


async def test_filtered_and_sorted_list(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await goto(pilot, "databases")
        await pilot.press("slash", *"sql", "enter", "o")
        assert await picture(pilot) == svg_snapshot


async def test_empty_state(svg_snapshot: SnapshotAssertion) -> None:
    session = demo_session()
    session.simulator.store.table("k8s.clusters").clear()
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, "k8s")
        assert await picture(pilot) == svg_snapshot


async def test_error_keeps_rows(svg_snapshot: SnapshotAssertion) -> None:
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await goto(pilot, "databases")
        session.simulator.faults.fail_next("databases.instances.list", 1, 500)
        app.screen.query_one("#pane-0", ResourceListPane).refresh_now()
        assert await picture(pilot) == svg_snapshot


async def test_help(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await goto(pilot, "databases")
        await pilot.press("question_mark")
        assert await picture(pilot) == svg_snapshot


async def test_command_line(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("colon", "d")
        assert await picture(pilot) == svg_snapshot


async def test_json_view(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await goto(pilot, "k8s")
        await pilot.press("J")
        assert await picture(pilot) == svg_snapshot


async def test_login(svg_snapshot: SnapshotAssertion) -> None:
    class Host(App[None]):
        def on_mount(self) -> None:
            sim = Simulator(clock=VirtualClock())
            self.push_screen(
                LoginScreen(
                    Settings(), "work", "https://api.example.com/v4", transport=sim.transport()
                )
            )

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert await picture(pilot) == svg_snapshot


async def _record_form(pilot: Any, kind: str) -> None:
    """A master zone's "New record" form with ``kind`` chosen (its fields follow the kind)."""
    from tests.ui.actions.test_form_rules_ui import record_form

    modal = await record_form(pilot)
    modal.model_form.set_value("type", kind)
    await pilot.pause()
    modal.model_form.widget_for("type").focus()
    await pilot.pause()


async def test_dns_record_form_a_80x24(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _record_form(pilot, "A")
        assert await modal_picture(pilot) == svg_snapshot


async def test_dns_record_form_srv_80x24(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _record_form(pilot, "SRV")
        assert await modal_picture(pilot) == svg_snapshot
