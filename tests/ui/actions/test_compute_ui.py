"""The Instances area end to end in the UI: create (client error, server error, success), typed
delete, power actions settling on the virtual clock, resize, rescue, configs, statistics, and
what a restricted user may not do."""

from __future__ import annotations

from typing import Any

from screens.actions.compute import RescueModal, ResizeModal
from screens.actions.form import FormModal
from screens.details.resource_detail import ResourceDetailScreen
from screens.details.stats import StatsPane, StatsScreen
from screens.dialogs.confirm import ConfirmModal
from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import demo_session, make_app, settle, wait_for_screen, wait_until
from tui.simulator import VirtualClock


async def instances(pilot: Any) -> ResourceListPane:
    pilot.app.go_to_area("instances")
    await settle(pilot)
    pane: ResourceListPane = pilot.app.screen.query_one("#pane-0", ResourceListPane)
    pane.table.focus()
    return pane


def stored(app: Any, label: str) -> dict[str, Any] | None:
    rows = app.state.session.simulator.store.rows("compute.instances")
    return next((r for r in rows if r.get("label") == label), None)


async def select(
    pilot: Any, pane: ResourceListPane, label: str, field: str = "label"
) -> dict[str, Any]:
    """Move the cursor to the row whose ``field`` is ``label``."""
    key = next(k for k, item in pane.items.items() if item[field] == label)
    pane.table.move_cursor(key)
    await pilot.pause()
    assert pane.current_item is not None
    return pane.current_item


async def press_on_instance(pilot: Any, label: str, key: str) -> None:
    """Open the instances list, put the cursor on ``label`` and press ``key``."""
    pane = await instances(pilot)
    await select(pilot, pane, label)
    await pilot.press(key)
    await settle(pilot)


async def test_create_an_instance_through_client_and_server_errors() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        await pilot.press("n")
        modal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        await wait_until(pilot, lambda: len(form.widget_for("region")._options) > 2)  # type: ignore[attr-defined]

        typed = {
            "region": "us-east",
            "type": "std-2",
            "label": "web-prod-1",  # taken: only the server knows
            "image": "compute/debian12",
            "root_pass": "short",  # too short: the form knows
            "tags": "web, staging",
        }
        for name, value in typed.items():
            form.set_value(name, value)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "7" in form.error_text("root_pass")
        assert app.state.session.simulator.request_log.count("compute.instances.create") == 0

        form.set_value("root_pass", "a-much-longer-secret-42")
        await pilot.press("ctrl+s")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "Instance std-2: $24.00/month ($0.0329/hour)" in confirm.price
        await pilot.press("y")
        await wait_until(pilot, lambda: bool(form.error_text("label")))
        assert app.screen is modal
        assert app.state.session.simulator.request_log.count("compute.instances.create") == 1
        values = form.values()
        assert values["root_pass"] == "a-much-longer-secret-42"  # kept across both errors
        assert values["tags"] == "web, staging" and values["image"] == "compute/debian12"

        form.set_value("label", "web-prod-9")
        form.set_value("backups_enabled", True)
        await pilot.press("ctrl+s")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "Backups add-on: $5.00/month" in confirm.price
        assert "Total: $29.00/month" in confirm.price
        await pilot.press("y")
        await settle(pilot)
        assert not isinstance(app.screen, FormModal)
        created = stored(app, "web-prod-9")
        assert created is not None and created["status"] == "provisioning"
        assert created["tags"] == ["web", "staging"]
        assert "web-prod-9" in {i["label"] for i in pane.items.values()}


async def test_generate_password_fills_the_secret_field() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await instances(pilot)
        await pilot.press("n")
        modal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        assert not form.check_action("generate", ())  # no root password without an image
        image = form.widget_for("image")
        await wait_until(pilot, lambda: len(image._options) > 1)
        form.set_value("image", next(v for _t, v in image._options if isinstance(v, str)))
        await pilot.pause()
        await pilot.press("ctrl+g")
        password = form.values()["root_pass"]
        assert len(password) >= 16
        assert not any(password in message for _title, message in app.notification_log)


async def test_delete_needs_the_label_typed() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        item = await select(pilot, pane, "legacy-ftp")
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.typed == "legacy-ftp"
        confirm.query_one("#confirm-typed").value = "legacy-ftp"
        await pilot.press("enter")
        await settle(pilot)
        assert stored(app, "legacy-ftp") is None
        assert str(item["id"]) not in pane.items


async def test_reboot_then_settles_on_the_virtual_clock() -> None:
    clock = VirtualClock()
    app = make_app(demo_session(clock=clock))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        item = await select(pilot, pane, "web-prod-2")
        await pilot.press("R")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        key = str(item["id"])
        assert pane.items[key]["status"] == "rebooting"
        # Boot is unavailable while rebooting: the footer greys it and the reason is given.
        assert pane.check_action("run_action", ("compute.boot",)) is None
        clock.advance(60)
        pane.refresher.fire()
        await settle(pilot)
        assert pane.items[key]["status"] == "running"
        assert ("Instances", "web-prod-2 is now running") in app.notification_log


async def test_shutdown_and_boot() -> None:
    clock = VirtualClock()
    app = make_app(demo_session(clock=clock))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        item = await select(pilot, pane, "build-cache")
        await pilot.press("S")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        clock.advance(60)
        pane.refresher.fire()
        await settle(pilot)
        assert pane.items[str(item["id"])]["status"] == "offline"
        await pilot.press("B")  # a change: confirmed on its dialog like every other
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        assert pane.items[str(item["id"])]["status"] == "booting"


async def test_resize_picks_a_type_with_its_specs() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        item = await select(pilot, pane, "web-prod-1")
        await pilot.press("z")
        modal = await wait_for_screen(pilot, ResizeModal)
        panel = modal.panel
        await wait_until(pilot, lambda: len(panel.shown) > 3)
        assert panel.highlighted is not None and panel.highlighted.value == "std-2"  # current
        current = next(row for row in panel.shown if row.value == "std-2")
        assert "std-2 *" in [cell.strip() for cell in current.cells]  # marked in the list
        assert all("$" in row.cells[-2] and "GB" in row.cells[3] for row in panel.shown)
        await pilot.press("s", "t", "d", "-", "6")  # type to filter
        await wait_until(pilot, lambda: [r.value for r in panel.shown] == ["std-6"])
        await pilot.press("enter")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        # web-prod-1 has backups: the add-on follows the type ($5 -> $20 a month).
        assert "Backups add-on: $20.00/month" in confirm.price
        assert "Old -> new: $29.00/month ($0.0397/hour) -> $116.00/month" in confirm.price
        assert "Difference: +$87.00/month" in confirm.price
        # One line each: the line breaks are kept, never shown as control pictures.
        assert "\nDifference: +$87.00/month" in confirm.price and "␊" not in confirm.price
        assert stored(app, "web-prod-1")["status"] != "resizing"  # type: ignore[index]
        await pilot.press("y")
        await settle(pilot)
        assert not isinstance(app.screen, ResizeModal)
        assert stored(app, "web-prod-1")["status"] == "resizing"  # type: ignore[index]
        assert item["type"] == "std-2"


async def test_resize_to_the_same_type_is_refused_in_the_dialog() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        await select(pilot, pane, "web-prod-1")
        await pilot.press("z")
        modal = await wait_for_screen(pilot, ResizeModal)
        await wait_until(pilot, lambda: len(modal.panel.shown) > 3)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is modal
        assert "already" in str(modal.query_one("#form-general").render())


async def test_rescue_maps_disks_to_devices() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        await select(pilot, pane, "web-prod-1")
        await pilot.press("x")
        modal = await wait_for_screen(pilot, RescueModal)
        await wait_until(pilot, lambda: bool(modal.choices))
        assert modal.build() is not None
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, RescueModal)
        assert "compute.instances.rescue" in app.state.session.simulator.request_log


async def test_detail_tabs_configs_and_stats() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        await select(pilot, pane, "db-primary")
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ResourceDetailScreen)
        tabs = [str(t.label) for t in screen.query("Tab")]
        for title in ("Overview", "Configs", "Disks", "Backups", "Volumes", "Stats", "Transfer"):
            assert title in tabs

        # Configs: a new profile offers this instance's disks for its device slots.
        screen.query_one("#detail-tabs").active = "tab-child-0"
        await settle(pilot)
        configs = screen.query_one("#child-0", ResourceListPane)
        configs.table.focus()
        await pilot.press("n")
        form = await wait_for_screen(pilot, FormModal)
        disks = app.state.session.simulator.store.rows("compute.disks")
        mine = [d for d in disks if d.get("_compute_id") == screen.item["id"]]
        select_widget = form.model_form.widget_for("devices.sda.disk_id")
        await wait_until(pilot, lambda: len(select_widget._options) > len(mine))  # type: ignore[attr-defined]
        await pilot.press("escape")
        await settle(pilot)

        # Stats: drawn from the API, then a month chosen.
        index = [c.title for c in screen.resource.children].index("Stats")
        screen.query_one("#detail-tabs").active = f"tab-child-{index}"
        await settle(pilot)
        stats = screen.query_one(f"#child-{index}", StatsPane)
        assert stats.charts and not stats.charts[0].empty
        stats.focus()
        await pilot.press("m")
        await settle(pilot)
        assert "compute.stats.month" in app.state.session.simulator.request_log
        assert stats.month is not None
        await pilot.press("less_than_sign")
        await settle(pilot)
        assert stats.period != "last 24 hours"
        await pilot.press("c")
        assert stats.chart_index == 1


async def test_statistics_action_opens_its_own_screen() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press_on_instance(pilot, "db-primary", "s")
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, StatsScreen)


async def test_restricted_user_cannot_create_and_sees_why() -> None:
    app = make_app(demo_session("restricted"))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        assert pane.items, "the restricted demo user has grants on some instances"
        await pilot.press("n")
        await pilot.pause()
        title, message = app.notification_log[-1]
        assert title == "New instance: not available"
        assert "add_computes" in message
        assert not isinstance(app.screen, FormModal)


async def test_restricted_user_sees_tags_locked_in_the_edit_form() -> None:
    app = make_app(demo_session("restricted"))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        writable = next(
            item
            for item in pane.items.values()
            if app.state.user_context.entity_permission("compute", item["id"]) == "read_write"
        )
        await select(pilot, pane, writable["label"])
        await pilot.press("e")
        modal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        assert form.widget_for("tags").disabled
        assert not form.widget_for("label").disabled
        helps = form.query(f"#row-{form.id_of('tags')} .form-help")
        assert any("only unrestricted users" in str(h.render()) for h in helps)
        # Everything else can still be edited and sent (tags unchanged: not in the body).
        form.set_value("label", "renamed-by-restricted")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, FormModal))
        assert stored(app, "renamed-by-restricted") is not None


async def test_resize_marks_and_refuses_types_too_small_for_the_disks() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        await select(pilot, pane, "db-primary")  # 160 GB of disks
        await pilot.press("z")
        modal = await wait_for_screen(pilot, ResizeModal)
        panel = modal.panel
        await wait_until(pilot, lambda: len(panel.shown) > 3)
        nano = next(row for row in panel.shown if row.value == "nano-1")
        assert nano.refused and "too small" in nano.refused
        assert any(cell.startswith("✗") for cell in nano.cells)  # marked at 80 columns too
        await pilot.press(*"nano-1")
        await wait_until(pilot, lambda: [r.value for r in panel.shown] == ["nano-1"])
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is modal  # nothing sent
        assert "too small" in str(modal.query_one("#form-general").render())
        assert stored(app, "db-primary")["status"] != "resizing"  # type: ignore[index]
