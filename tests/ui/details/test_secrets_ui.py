"""Secrets on request: a database's root password is masked, shown with s, masked again when
the tab is left, and copied with a notification that never holds it."""

from __future__ import annotations

from textual.widgets import TabbedContent

from screens.details.resource_detail import ResourceDetailScreen
from screens.lists.singleton_pane import SingletonPane
from tests.ui.helpers import make_app, settle
from tui.resources.format import SECRET_MASK


async def test_a_database_password_is_revealed_with_s_and_hidden_again_on_leaving() -> None:
    from screens.lists.list_pane import ResourceListPane

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.go_to_area("databases")
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        assert pane.table.move_cursor("4100")
        pane.table.focus()
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ResourceDetailScreen)
        tabs = screen.query_one("#detail-tabs", TabbedContent)
        index = [c.title for c in screen.resource.children].index("Credentials")
        tabs.active = f"tab-child-{index}"
        await settle(pilot)
        creds = screen.query_one(f"#child-{index}", SingletonPane)
        creds.focus_main()
        await pilot.pause()
        password = creds.item["password"]
        assert password and password not in creds.panel.text()
        assert SECRET_MASK in creds.panel.text()

        await pilot.press("s")
        assert f"Password: {password}" in creds.panel.text()
        await pilot.press("s")
        assert password not in creds.panel.text()

        await pilot.press("s")
        tabs.active = "tab-overview"  # leaving hides it again
        await settle(pilot)
        assert password not in creds.panel.text()

        tabs.active = f"tab-child-{index}"
        await settle(pilot)
        creds.focus_main()
        await pilot.press("y")
        assert app.last_copied == password
        title, message = app.notification_log[-1]
        assert title == "Copied" and password not in message
        assert "OSC 52" in message and "press s to show it" in message


async def test_a_password_typed_in_a_form_is_shown_on_request_and_masked_on_leaving() -> None:
    from textual.widgets import Input

    from screens.actions.form import FormModal
    from tests.ui.helpers import open_form, wait_until

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form: FormModal = await open_form(pilot, "instances")
        model_form = form.model_form
        image = model_form.widget_for("image")
        await wait_until(pilot, lambda: len(image._options) > 1)
        model_form.set_value("image", "compute/debian12")
        await pilot.pause()
        secret = model_form.widget_for("root_pass")
        assert isinstance(secret, Input) and secret.password
        secret.focus()
        await pilot.press(*"Typed-secret-7")
        await pilot.press("ctrl+t")
        assert not secret.password  # shown on request
        await pilot.press("tab")
        await pilot.pause()
        assert secret.password  # masked again once the user left it
        await pilot.press("escape")
        await settle(pilot)
