"""The instance type chooser at 80x24: grouped by class, with specs and prices."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from tests.snapshots.test_screens import modal_picture
from tests.ui.helpers import make_app, open_form, settle, wait_for_screen, wait_until
from widgets.chooser_field import ChooserSelect
from widgets.chooser_modal import ChooserModal


async def test_type_chooser_80x24(svg_snapshot: SnapshotAssertion) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, "instances")
        field = form.model_form.widget_for("type")
        assert isinstance(field, ChooserSelect)
        await wait_until(pilot, lambda: field.table is not None and len(field.table.rows) > 5)
        field.focus()
        await pilot.press("enter")
        await wait_for_screen(pilot, ChooserModal)
        await pilot.press("down", "down")
        assert await modal_picture(pilot) == svg_snapshot
