"""What the simulator would refuse is greyed before any dialog; choices offer only what fits."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from screens.actions.form import FormModal
from screens.details.resource_detail import ActionsPanel
from screens.dialogs.confirm import ConfirmModal
from tests.ui.actions.test_actions import options_of
from tests.ui.actions.test_compute_ui import select
from tests.ui.helpers import make_app, open_area, open_form, pauses, settle, wait_for_screen
from widgets.action_footer import ActionFooter


async def test_deleting_a_migrating_volume_is_greyed_and_opens_no_dialog() -> None:
    app = make_app()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        item = await select(pilot, pane, "logs-eu")
        assert item["status"] == "migrating"
        await settle(pilot)
        footer = app.screen.query_one(ActionFooter)
        delete = next(k for k in footer.query(FooterKey) if "volumes.delete" in k.action)
        assert delete.has_class("-disabled")

        await pilot.press("d")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmModal)
        title, message = app.notification_log[-1]
        assert title == "Delete: not available"
        assert "the volume is migrating" in message
        assert app.state.session.simulator.request_log.count("volumes.delete") == 0

        # The detail screen's actions panel says why before any key is pressed.
        await pilot.press("enter")
        await settle(pilot)
        panel = app.screen.query_one(ActionsPanel)
        assert "d  Delete  not available: the volume is migrating" in panel.text()


async def test_attach_offers_only_instances_of_the_volumes_region() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        volume = await select(pilot, pane, "cafe-media")
        await pilot.press("a")
        modal = await wait_for_screen(pilot, FormModal)
        offered = await options_of(pilot, modal.model_form, "compute_id")
        store = app.state.session.simulator.store
        region = {r["id"]: r["region"] for r in store.rows("compute.instances")}
        assert offered and {region[i] for i in offered} == {volume["region"]}
        await pilot.press("escape")


async def test_a_new_volume_offers_instances_of_the_region_chosen() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        modal = await open_form(pilot, "volumes")
        form = modal.model_form
        everywhere = await options_of(pilot, form, "compute_id", at_least=2)
        form.set_value("region", "eu-central")
        store = app.state.session.simulator.store
        expected = {r["id"] for r in store.rows("compute.instances") if r["region"] == "eu-central"}
        async for _ in pauses(pilot):
            if set(await options_of(pilot, form, "compute_id")) == expected:
                break
        assert set(await options_of(pilot, form, "compute_id")) == expected
        assert len(everywhere) > len(expected)
        await pilot.press("escape")


async def test_confirmations_name_the_record_type_label_and_parent() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        await select(pilot, pane, "pg-data")
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.title_text == 'Delete volume "pg-data"?'
        await pilot.press("escape")
        await settle(pilot)

        domains = await open_area(pilot, "domains")
        await select(pilot, domains, "example.com", "domain")
        await pilot.press("enter")
        await settle(pilot)
        app.screen.query_one("#detail-tabs").active = "tab-child-0"  # Records
        await settle(pilot)
        records = app.screen.query_one("#child-0")
        records.table.focus()
        apex = next(k for k, r in records.items.items() if r["name"] == "" and r["type"] == "A")
        records.table.move_cursor(apex)
        await pilot.pause()
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.title_text == ('Delete record "A 203.0.113.10" of domain "example.com"?')
        await pilot.press("escape")
        await settle(pilot)
