"""The Profile area in the UI: edit, phone send/verify/delete, app and device revocation."""

from __future__ import annotations

from typing import Any

from screens.actions.form import FormModal
from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.confirm import ConfirmModal
from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import make_app, settle, wait_for_screen, wait_until


async def profile_screen(pilot: Any) -> ResourceDetailScreen:
    pilot.app.go_to_area("profile")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ResourceDetailScreen)
    return screen


async def test_edit_the_profile_sends_only_what_changed() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await profile_screen(pilot)
        await settle(pilot)
        await pilot.press("e")
        modal = await wait_for_screen(pilot, FormModal)
        assert modal.model_form.values()["email"] == screen.item["email"]  # prefilled
        modal.model_form.set_value("timezone", "America/Chicago")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, FormModal)
        profile = await app.state.session.client.call("profile.view")
        assert profile.timezone == "America/Chicago"
        assert screen.item["timezone"] == "America/Chicago"  # the screen refreshed


async def test_phone_number_delete_send_and_verify() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await profile_screen(pilot)
        await settle(pilot)
        # The reference: to change the number, delete it, then send and verify again.
        await pilot.press("P")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        profile = await app.state.session.client.call("profile.view")
        assert not profile.verified_phone_number

        await pilot.press("p")
        send = await wait_for_screen(pilot, FormModal)
        send.model_form.set_value("iso_code", "US")
        send.model_form.set_value("phone_number", "+1 555 0100 123")
        await pilot.press("ctrl+s")
        await settle(pilot)
        title, message = app.notification_log[-1]
        assert title == "Simulated SMS (demo)"
        code = message.split("code is ")[1][:6]

        await pilot.press("v")
        verify = await wait_for_screen(pilot, FormModal)
        wrong = "000000" if code != "000000" else "111111"
        verify.model_form.set_value("otp_code", wrong)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: verify.model_form.error_text("otp_code"))
        assert app.screen is verify  # a wrong code keeps the dialog open
        verify.model_form.set_value("otp_code", code)
        await pilot.press("ctrl+s")
        await settle(pilot)
        profile = await app.state.session.client.call("profile.view")
        assert profile.verified_phone_number


async def test_revoke_an_authorized_app_and_a_trusted_device() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await profile_screen(pilot)
        for index, (endpoint, tab_title) in enumerate(
            (("profile.apps.list", "Apps"), ("profile.devices.list", "Devices"))
        ):
            titles = [c.title for c in screen.resource.children]
            child = titles.index(tab_title)
            screen.query_one("#detail-tabs").active = f"tab-child-{child}"
            await settle(pilot)
            pane = screen.query_one(f"#child-{child}", ResourceListPane)
            before = len(pane.items)
            assert before > 0, f"the demo profile has {tab_title.lower()}"
            pane.table.focus()
            await pilot.press("d")
            await wait_for_screen(pilot, ConfirmModal)
            await pilot.press("y")
            await settle(pilot)
            remaining = await app.state.session.client.fetch_all(endpoint, model=dict)
            assert len(remaining) == before - 1
            assert len(pane.items) == before - 1, index
