"""A volume's commands (format, mount, fstab): after attaching it, on its detail, copyable."""

from __future__ import annotations

from screens.actions.form import FormModal
from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.commands import CommandsModal
from tests.ui.helpers import make_app, open_area, settle, wait_for_screen, wait_until


async def test_attach_then_the_commands_show_and_the_detail_copies_them() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        store = app.state.session.simulator.store
        volume = next(v for v in store.rows("volumes.volumes") if v["label"] == "cafe-media")
        assert pane.table.move_cursor(str(volume["id"]))
        await pilot.press("a")
        form: FormModal = await wait_for_screen(pilot, FormModal)
        instance = next(
            i for i in store.rows("compute.instances") if i["region"] == volume["region"]
        )
        await wait_until(pilot, lambda: len(form.model_form.widget_for("compute_id")._options) > 1)
        form.model_form.set_value("compute_id", instance["id"])
        await pilot.press("ctrl+s")
        commands: CommandsModal = await wait_for_screen(pilot, CommandsModal)
        device = volume["filesystem_path"]
        assert f"mount {device} /mnt/cafe-media" in commands.text
        assert "only if the volume is new" in commands.text  # attached: maybe not new
        await pilot.press("y")
        assert app.last_copied == commands.text
        assert "OSC 52" in app.notification_log[-1][1]
        await pilot.press("escape")
        await settle(pilot)

        # The detail shows them too, and u opens them to copy.
        pane.table.focus()
        assert pane.table.move_cursor(str(volume["id"]))
        await pilot.press("enter")
        await settle(pilot)
        detail = app.screen
        assert isinstance(detail, ResourceDetailScreen)
        text = detail.query_one("#overview-panel").text()
        assert f"{device} /mnt/cafe-media ext4 defaults,noatime,nofail 0 2" in text
        await pilot.press("u")
        shown: CommandsModal = await wait_for_screen(pilot, CommandsModal)
        assert shown.text == commands.text
        await pilot.press("escape")
        await settle(pilot)
