"""Forms: errors follow the inputs, a disk is chosen after its instance, and a value that can
never be undone (a public script) is sent only after a typed confirmation."""

from __future__ import annotations

from textual.widgets import Input, Select

from screens.actions.form import FormModal
from screens.dialogs.confirm import ConfirmModal
from tests.ui.helpers import make_app, open_area, open_form, settle, wait_for_screen, wait_until


async def test_new_image_from_disk_offers_the_disks_of_the_chosen_instance() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, "images")
        model_form = form.model_form
        instance = model_form.widget_for("compute_id")
        disk = model_form.widget_for("disk_id")
        assert isinstance(instance, Select) and isinstance(disk, Select)
        await wait_until(pilot, lambda: len(instance._options) > 1)  # type: ignore[attr-defined]
        assert "choose instance first" in str(disk.prompt)
        chosen = instance._options[1][1]  # type: ignore[attr-defined]
        instance.value = chosen
        store = app.state.session.simulator.store
        mine = {d["id"] for d in store.rows("compute.disks") if d.get("_compute_id") == chosen}
        await wait_until(pilot, lambda: len(disk._options) > 1)  # type: ignore[attr-defined]
        offered = {v for _t, v in disk._options if v is not Select.NULL}  # type: ignore[attr-defined]
        assert offered == mine
        disk.value = next(iter(mine))
        form.action_submit()
        await settle(pilot)
        assert app.screen is not form
        sent = app.state.session.simulator.request_log
        assert "images.create" in sent


async def test_a_required_choice_error_clears_when_a_value_is_chosen() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, "instances")
        region = form.model_form.widget_for("region")
        assert isinstance(region, Select)
        await wait_until(pilot, lambda: len(region._options) > 1)  # type: ignore[attr-defined]
        form.action_submit()
        await pilot.pause()
        assert "required" in form.model_form.error_text("region")
        region.value = region._options[1][1]  # type: ignore[attr-defined]
        await pilot.pause()
        row = form.model_form.query_one(f"#row-{form.model_form.id_of('region')}")
        assert not row.has_class("-invalid")
        await pilot.press("escape")
        await settle(pilot)


async def test_making_a_script_public_needs_its_label_typed() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "deployscripts")
        key = next(k for k, s in pane.items.items() if not s.get("is_public"))
        label = pane.items[key]["label"]
        pane.table.move_cursor(key)
        await pilot.pause()
        await pilot.press("e")
        form = await wait_for_screen(pilot, FormModal)
        form.model_form.set_value("is_public", True)
        await pilot.press("ctrl+s")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "never" in confirm.message.lower() or "cannot" in confirm.title_text.lower()
        await pilot.press("y")  # not typed: nothing happens
        await pilot.pause()
        assert app.screen is confirm
        await pilot.press("escape")
        await wait_for_screen(pilot, FormModal)
        assert "deployscripts.update" not in app.state.session.simulator.request_log
        await pilot.press("ctrl+s")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        confirm.query_one(Input).value = label
        await pilot.press("enter")
        await settle(pilot)
        assert "deployscripts.update" in app.state.session.simulator.request_log
        stored = next(
            s
            for s in app.state.session.simulator.store.rows("deployscripts.scripts")
            if s["label"] == label
        )
        assert stored["is_public"] is True
